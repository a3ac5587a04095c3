// PanelStacks (app/gui/panel_stacks.hpp) without a window: ImGui runs headless (no draw data is
// rendered). A demo's first panels come before its first step, so their content grows after they
// open; they must end up as tall as that content, not as tall as their first, empty frame.
#include "app/gui/panel_stacks.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

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
