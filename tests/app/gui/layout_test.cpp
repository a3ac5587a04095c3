// The GUI layout text (app/gui/layout.hpp) without a window: ImGui runs headless. Screenshot
// checks find panels by its window lines and details inside them by its item lines.
#include "app/gui/layout.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <sstream>
#include <string>

#include "tests/app/gui/headless_imgui.hpp"

namespace clviz {
namespace {

// One frame with a panel holding one line of text, named in the layout when `note` is set.
// Returns the line the layout should have for that text.
std::string frame(bool note) {
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(40, 30));
    ImGui::Begin("Panel");
    ImGui::Text("a caption");
    if (note) noteGuiItem("Panel/caption");
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImGui::End();
    ImGui::Render();
    std::ostringstream line;
    line << "Panel/caption\t" << std::lround(min.x) << '\t' << std::lround(min.y) << '\t'
         << std::lround(max.x - min.x) << '\t' << std::lround(max.y - min.y) << "\titem\n";
    return line.str();
}

TEST(GuiLayout, ANotedItemFollowsTheWindowsForItsFrameOnly) {
    test::HeadlessImGui imgui(ImVec2(800, 600));
    frame(true);  // a new window's first frame is hidden: ImGui measures its content
    const std::string item = frame(true);
    const std::string text = guiLayoutText();
    EXPECT_EQ(text.find("Panel\t40\t30\t"), 0u) << text;
    EXPECT_EQ(text.find(item), text.find('\n') + 1) << text;
    EXPECT_EQ(item.find("Panel/caption\t4"), 0u) << item;  // inside the panel: x in 40..49

    frame(false);
    EXPECT_EQ(guiLayoutText().find("Panel/caption"), std::string::npos) << guiLayoutText();
}

TEST(GuiLayout, AnItemNotedInADestroyedContextIsNotListed) {
    {
        test::HeadlessImGui first(ImVec2(800, 600));
        frame(true);
    }
    test::HeadlessImGui second(ImVec2(800, 600));  // may get the first one's address
    frame(false);
    EXPECT_EQ(guiLayoutText().find("Panel/caption"), std::string::npos) << guiLayoutText();
}

}  // namespace
}  // namespace clviz
