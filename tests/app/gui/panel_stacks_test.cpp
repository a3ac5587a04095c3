// PanelStacks (app/gui/panel_stacks.hpp) without a window: ImGui runs headless (no draw data is
// rendered). A demo's first panels come before its first step, so their content grows after they
// open; they must end up as tall as that content, not as tall as their first, empty frame.
#include "app/gui/panel_stacks.hpp"

#include <gtest/gtest.h>

#include <imgui.h>
#include <vector>

#include "app/gui/layout.hpp"
#include "tests/app/gui/headless_imgui.hpp"

namespace clviz {
namespace {

class Headless : public ::testing::Test {
  protected:
    test::HeadlessImGui imgui_{ImVec2(1280, 720)};

    // One frame with a panel of `lines` lines; returns its rectangle after the frame (all 0 while
    // it is hidden).
    GuiWindowRect frame(PanelStacks& stacks, int lines) {
        ImGui::GetIO().DeltaTime = 1.0f / 60;
        ImGui::NewFrame();
        stacks.beginFrame();
        stacks.place("Plots", PanelSide::Right, 300);
        ImGui::Begin("Plots");
        for (int i = 0; i < lines; ++i)
            ImGui::Text("line %d", i);
        ImGui::End();
        ImGui::Render();
        for (const GuiWindowRect& w : drawnGuiWindows())
            if (w.name == "Plots") return w;
        return {};  // a new window's first frame is hidden: ImGui measures its content
    }
};

TEST_F(Headless, APanelWhoseContentArrivesAfterItOpensFitsIt) {
    PanelStacks stacks;
    frame(stacks, 1);  // before the first step: nothing to show yet
    const float empty = frame(stacks, 1).height;
    ASSERT_GT(empty, 0.0f) << "the panel was not drawn";
    GuiWindowRect full;
    for (int i = 0; i < 6; ++i)
        full = frame(stacks, 12);  // the data came
    const float line = ImGui::GetTextLineHeightWithSpacing();
    EXPECT_GE(full.height, empty + 10 * line)
        << "the panel stayed " << full.height << " px tall for 12 lines (" << line << " px each)";
    EXPECT_FLOAT_EQ(full.width, 300.0f);  // the width it was placed with
}

TEST_F(Headless, AfterItsFirstFramesAPanelKeepsItsHeight) {
    PanelStacks stacks;
    GuiWindowRect settled;
    for (int i = 0; i < 8; ++i)
        settled = frame(stacks, 3);
    // Content that grows later scrolls instead: the panel does not jump under the user's hand.
    GuiWindowRect later;
    for (int i = 0; i < 4; ++i)
        later = frame(stacks, 12);
    EXPECT_FLOAT_EQ(later.height, settled.height);
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// Issue 27: at GUI scale 200-300% panels wider than half the window were placed on top of each
// other and past its right edge. Wide and tall panels in both columns, a small and a large
// display: after the panels settle, no two overlap and every one lies inside the display.
// With appWindows, the app's own windows come first through a stacks of their own, as
// Application::drawGui does: Kernels placed before Begin, and "OpenCL devices", which sets its own
// first position and size, placed after its End (placeDrawn).
void expectApartAndInside(ImVec2 display, float scale, bool appWindows = false) {
    test::HeadlessImGui imgui(display);
    ImGui::GetIO().FontGlobalScale = scale;
    PanelStacks stacks, appStacks;
    struct Panel {
        const char* name;
        PanelSide side;
        float width;
        int lines;
    };
    const Panel panels[] = {{"Simulation", PanelSide::Left, 700 * scale / 2, 30},
                            {"Interop", PanelSide::Left, 360, 4},
                            {"Timings", PanelSide::Right, 720 * scale / 2, 12},
                            {"Diagnostics", PanelSide::Right, 380, 8}};
    std::vector<GuiWindowRect> shown;
    for (int f = 0; f < 10; ++f) {
        ImGui::GetIO().DeltaTime = 1.0f / 60;
        ImGui::NewFrame();
        if (appWindows) {
            const float em = ImGui::GetFontSize();
            appStacks.beginFrame();
            appStacks.place("Kernels", PanelSide::Left, em * 32);
            ImGui::Begin("Kernels");
            for (int i = 0; i < 10; ++i)
                ImGui::Text("program %d: built", i);
            ImGui::End();
            ImGui::SetNextWindowSize(ImVec2(em * 36, em * 34), ImGuiCond_FirstUseEver);
            ImGui::SetNextWindowPos(ImVec2(em * 2, em * 4), ImGuiCond_FirstUseEver);
            ImGui::Begin("OpenCL devices");
            ImGui::Text("platform 0");
            ImGui::End();
            appStacks.placeDrawn("OpenCL devices", PanelSide::Left, em * 36);
        }
        stacks.beginFrame();
        for (const Panel& p : panels) {
            stacks.place(p.name, p.side, p.width);
            ImGui::Begin(p.name, nullptr, ImGuiWindowFlags_AlwaysAutoResize);
            ImGui::Dummy(ImVec2(p.width - 20, 1));
            for (int i = 0; i < p.lines; ++i)
                ImGui::Text("line %d", i);
            ImGui::End();
        }
        ImGui::Render();
        shown = drawnGuiWindows();
    }
    ASSERT_EQ(shown.size(), appWindows ? 6u : 4u);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const GuiWindowRect& a = shown[i];
        EXPECT_GE(a.x, 0) << a.name;
        EXPECT_GE(a.y, 0) << a.name;
        EXPECT_LE(a.x + a.width, display.x + 0.5f) << a.name << " past the right edge";
        EXPECT_LE(a.y + a.height, display.y + 0.5f) << a.name << " past the bottom";
        for (std::size_t j = i + 1; j < shown.size(); ++j) {
            const GuiWindowRect& b = shown[j];
            const bool overlap = a.x < b.x + b.width && b.x < a.x + a.width &&
                                 a.y < b.y + b.height && b.y < a.y + a.height;
            EXPECT_FALSE(overlap) << a.name << " (" << a.x << "," << a.y << " " << a.width << "x"
                                  << a.height << ") overlaps " << b.name << " (" << b.x << ","
                                  << b.y << " " << b.width << "x" << b.height << ") at scale "
                                  << scale;
        }
    }
}

TEST(PanelStacksRoom, PanelsStayApartAndInsideAtScale200On1280x720) {
    expectApartAndInside(ImVec2(1280, 720), 2);
}
TEST(PanelStacksRoom, PanelsStayApartAndInsideAtScale300On1920x1080) {
    expectApartAndInside(ImVec2(1920, 1080), 3);
}
TEST(PanelStacksRoom, PanelsStayApartAndInsideAt800x500) {
    expectApartAndInside(ImVec2(800, 500), 1);
}

// The app's Kernels and OpenCL devices windows opened on top of the demos' panels.
TEST(PanelStacksRoom, AppWindowsAndDemoPanelsStayApartAt100And200Percent) {
    expectApartAndInside(ImVec2(1280, 720), 1, true);
    expectApartAndInside(ImVec2(1280, 720), 2, true);
}
TEST(PanelStacksRoom, AppWindowsAndDemoPanelsStayApartAt800x500) {
    expectApartAndInside(ImVec2(800, 500), 1, true);
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// Issue 27: a panel collapsed because the window was short stayed collapsed after it grew.
TEST(PanelStacksRoom, APanelCollapsedForAShortWindowOpensWhenItGrows) {
    test::HeadlessImGui imgui(ImVec2(800, 400));
    PanelStacks stacks;
    auto frame = [&] {
        ImGui::GetIO().DeltaTime = 1.0f / 60;
        ImGui::NewFrame();
        stacks.beginFrame();
        stacks.place("Timings", PanelSide::Right, 300, 600);
        ImGui::Begin("Timings");
        ImGui::Text("plots");
        ImGui::End();
        ImGui::Render();
        for (const GuiWindowRect& w : drawnGuiWindows())
            if (w.name == "Timings") return w.collapsed;
        return false;
    };
    frame();
    EXPECT_TRUE(frame()) << "collapsed in a 400 px tall window";
    ImGui::GetIO().DisplaySize = ImVec2(800, 900);
    frame();
    EXPECT_FALSE(frame()) << "open once the window is 900 px tall";
}

}  // namespace
}  // namespace clviz
