// Which key presses reach the app's and the demo's bindings (issue 27: Esc quit the app while a
// combo list was open, letters acted while a text field was typed into, AZERTY's A quit).
#include "app/gui/keys.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "tests/app/gui/headless_imgui.hpp"

namespace clviz {
namespace {

void newFrame() {
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
}

TEST(Keys, NothingOpenLetsKeysThrough) {
    test::HeadlessImGui imgui(ImVec2(800, 600));
    newFrame();
    ImGui::Begin("Panel");
    ImGui::Text("no popup");
    ImGui::End();
    ImGui::Render();
    EXPECT_TRUE(keyGoesToBindings(currentKeyFocus()));
}

TEST(Keys, AnOpenComboListKeepsEscFromTheApp) {
    test::HeadlessImGui imgui(ImVec2(800, 600));
    for (int frame = 0; frame < 2; ++frame) {
        newFrame();
        ImGui::Begin("Panel");
        if (frame == 0) ImGui::OpenPopup("list");
        if (ImGui::BeginPopup("list")) {
            ImGui::Text("item");
            ImGui::EndPopup();
        }
        ImGui::End();
        ImGui::Render();
    }
    const KeyFocus focus = currentKeyFocus();
    EXPECT_TRUE(focus.popupOpen);
    // The old rule (WantCaptureKeyboard only) let Esc through here: the app quit.
    EXPECT_FALSE(focus.guiWantsKeyboard && "ImGui does not claim the keyboard for a popup");
    EXPECT_FALSE(keyGoesToBindings(focus));
}

TEST(Keys, EachReasonAloneHoldsKeysBack) {
    for (int reason = 0; reason < 4; ++reason) {
        KeyFocus f;
        (reason == 0   ? f.guiWantsKeyboard
         : reason == 1 ? f.popupOpen
         : reason == 2 ? f.textInput
                       : f.itemActive) = true;
        EXPECT_FALSE(keyGoesToBindings(f)) << reason;
    }
    EXPECT_TRUE(keyGoesToBindings(KeyFocus{}));
}

TEST(Keys, LettersFollowTheKeyboardLayout) {
    // AZERTY: the key in QWERTY's Q position is labelled A, and must not quit.
    EXPECT_EQ(keyForLayout(GLFW_KEY_Q, "a"), GLFW_KEY_A);
    EXPECT_NE(appActionForKey(keyForLayout(GLFW_KEY_Q, "a")), AppAction::Quit);
    EXPECT_EQ(keyForLayout(GLFW_KEY_A, "q"), GLFW_KEY_Q);
    EXPECT_EQ(keyForLayout(GLFW_KEY_1, "1"), GLFW_KEY_1);
    EXPECT_EQ(keyForLayout(GLFW_KEY_1, "&"), GLFW_KEY_1);  // AZERTY's unshifted digit row
    EXPECT_EQ(keyForLayout(GLFW_KEY_ESCAPE, nullptr), GLFW_KEY_ESCAPE);
}

}  // namespace
}  // namespace clviz
