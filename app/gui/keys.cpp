#include "app/gui/keys.hpp"

#include <algorithm>
#include <utility>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cctype>

namespace clviz {

const std::vector<KeyBinding>& appKeyBindings() {
    static const std::vector<KeyBinding> bindings = {
        {GLFW_KEY_ESCAPE, "Esc", AppAction::Quit, "quit"},
        {GLFW_KEY_Q, "Q", AppAction::Quit, "quit"},
        {GLFW_KEY_V, "V", AppAction::ToggleVsync, "toggle vsync"},
        {GLFW_KEY_F, "F", AppAction::ToggleFullscreen, "toggle fullscreen"},
        {GLFW_KEY_F1, "F1", AppAction::ToggleGui, "show/hide the GUI"},
        {GLFW_KEY_F2, "F2", AppAction::ToggleDevicePanel, "show/hide the OpenCL devices panel"},
        {GLFW_KEY_F12, "F12", AppAction::Screenshot, "screenshot (clviz-<time>.png)"},
        {GLFW_KEY_P, "P", AppAction::Screenshot, "screenshot (clviz-<time>.png)"},
    };
    return bindings;
}

AppAction appActionForKey(int key) {
    for (const auto& b : appKeyBindings())
        if (b.key == key) return b.action;
    return AppAction::None;
}

bool keyGoesToBindings(const KeyFocus& f) {
    return !f.guiWantsKeyboard && !f.popupOpen && !f.textInput && !f.itemActive;
}

KeyFocus currentKeyFocus() {
    KeyFocus f;
    if (!ImGui::GetCurrentContext()) return f;
    const ImGuiIO& io = ImGui::GetIO();
    f.guiWantsKeyboard = io.WantCaptureKeyboard;
    f.textInput = io.WantTextInput;
    f.popupOpen =
        ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    f.itemActive = ImGui::IsAnyItemActive();
    return f;
}

int keyForLayout(int key, const char* layoutName) {
    if (!layoutName || !layoutName[0] || layoutName[1]) return key;  // not one character
    const unsigned char c = static_cast<unsigned char>(layoutName[0]);
    if (std::isalpha(c)) return GLFW_KEY_A + (std::toupper(c) - 'A');
    if (std::isdigit(c)) return GLFW_KEY_0 + (c - '0');
    return key;
}

namespace {

// Keys that share an action, merged: {"Esc/Q", "quit"}.
std::vector<std::pair<std::string, std::string>> mergedBindings() {
    std::vector<std::pair<std::string, std::string>> out;
    const auto& all = appKeyBindings();
    for (std::size_t i = 0; i < all.size(); ++i) {
        bool seen = false;
        for (std::size_t j = 0; j < i; ++j)
            seen = seen || all[j].action == all[i].action;
        if (seen) continue;
        std::string keys = all[i].label;
        for (std::size_t j = i + 1; j < all.size(); ++j)
            if (all[j].action == all[i].action) keys += std::string("/") + all[j].label;
        out.emplace_back(keys, all[i].meaning);
    }
    return out;
}

}  // namespace

std::string appKeysSummary() {
    std::string out;
    for (const auto& [keys, meaning] : mergedBindings())
        out += (out.empty() ? "" : ", ") + keys + " " + meaning;
    return out;
}

std::string appKeysHelp() {
    std::string out;
    for (const auto& [keys, meaning] : mergedBindings()) {
        std::string line = "  " + keys;
        line.resize(std::max<std::size_t>(line.size() + 1, 10), ' ');
        out += line + meaning + "\n";
    }
    return out;
}

}  // namespace clviz
