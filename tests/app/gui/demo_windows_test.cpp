// Each demo keeps its own state of a window name two demos share (issue 27: collapsing the image
// lab's "Timings" collapsed the N-body demo's).
#include "app/gui/demo_windows.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "tests/app/gui/headless_imgui.hpp"

namespace clviz {
namespace {

// One frame of demo `demo`, drawing "Timings" (collapsed on the first frame if `collapse`).
void frame(DemoWindows& windows, int demo, bool collapse = false) {
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    ImGui::Begin("App panel");  // the shell's own window: nobody's
    ImGui::End();
    windows.beginDemoGui();
    if (collapse) ImGui::SetNextWindowCollapsed(true, ImGuiCond_Always);
    ImGui::Begin("Timings");
    ImGui::Text("demo %d", demo);
    ImGui::End();
    windows.endDemoGui(demo);
    ImGui::Render();
}

bool collapsed(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Collapsed;
}

TEST(DemoWindows, ACollapsedPanelStaysInItsOwnDemo) {
    test::HeadlessImGui imgui(ImVec2(800, 600));
    DemoWindows windows;
    frame(windows, 0, true);  // the first demo collapses its Timings
    frame(windows, 0);
    ASSERT_TRUE(collapsed("Timings"));

    windows.switchDemo(0, 1);
    frame(windows, 1);
    EXPECT_FALSE(collapsed("Timings")) << "the second demo's Timings is its own";

    windows.switchDemo(1, 0);
    frame(windows, 0);
    EXPECT_TRUE(collapsed("Timings")) << "the first demo's comes back collapsed";
    EXPECT_FALSE(collapsed("App panel"));
}

TEST(DemoWindows, APlaceIsKeptPerDemo) {
    test::HeadlessImGui imgui(ImVec2(800, 600));
    DemoWindows windows;
    frame(windows, 0);
    frame(windows, 0);
    ImGui::FindWindowByName("Timings")->Pos = ImVec2(300, 200);  // the user moved it
    windows.switchDemo(0, 1);
    frame(windows, 1);
    ImGui::FindWindowByName("Timings")->Pos = ImVec2(20, 40);
    windows.switchDemo(1, 0);
    frame(windows, 0);
    EXPECT_EQ(ImGui::FindWindowByName("Timings")->Pos.x, 300);
    EXPECT_EQ(ImGui::FindWindowByName("Timings")->Pos.y, 200);
}

}  // namespace
}  // namespace clviz
