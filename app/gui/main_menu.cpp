#include "app/gui/main_menu.hpp"

#include <imgui.h>

#include "app/gui/keys.hpp"
#include "app/gui/panel_stacks.hpp"

namespace clviz {

namespace {

// The label of the first key bound to `action`, shown as the menu item's shortcut.
const char* shortcut(AppAction action) {
    for (const auto& b : appKeyBindings())
        if (b.action == action) return b.label;
    return nullptr;
}

}  // namespace

MenuActions drawMainMenu(const MenuModel& m, PanelVisibility& panels) {
    MenuActions a;
    if (!ImGui::BeginMainMenuBar()) return a;
    if (ImGui::BeginMenu("File")) {
        for (std::size_t i = 0; i < m.fileActions.size(); ++i)
            if (ImGui::MenuItem(m.fileActions[i].label.c_str())) a.fileAction = static_cast<int>(i);
        if (!m.fileActions.empty()) ImGui::Separator();
        if (ImGui::MenuItem("Screenshot", shortcut(AppAction::Screenshot))) a.screenshot = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", shortcut(AppAction::Quit))) a.quit = true;
        ImGui::EndMenu();
    }
    // Demos append their own items to this menu from Demo::gui().
    if (ImGui::BeginMenu("Demo")) {
        if (m.demoTitles.empty()) ImGui::TextDisabled("no demos registered");
        for (std::size_t i = 0; i < m.demoTitles.size(); ++i)
            if (ImGui::MenuItem(m.demoTitles[i].c_str(), nullptr,
                                static_cast<int>(i) == m.activeDemo) &&
                static_cast<int>(i) != m.activeDemo)
                a.switchDemo = static_cast<int>(i);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("VSync", shortcut(AppAction::ToggleVsync), m.vsync))
            a.toggleVsync = true;
        if (ImGui::MenuItem("Fullscreen", shortcut(AppAction::ToggleFullscreen), m.fullscreen))
            a.toggleFullscreen = true;
        if (ImGui::BeginMenu("GUI scale")) {
            const std::string autoLabel =
                "Auto (" + std::to_string(static_cast<int>(m.contentScale * 100 + 0.5f)) + "%)";
            if (ImGui::MenuItem(autoLabel.c_str(), nullptr, m.guiScaleOverride == 0))
                a.guiScale = 0;
            for (float f : {1.0f, 1.25f, 1.5f, 2.0f, 3.0f}) {
                const std::string label = std::to_string(static_cast<int>(f * 100)) + "%";
                if (ImGui::MenuItem(label.c_str(), nullptr, m.guiScaleOverride == f))
                    a.guiScale = f;
            }
            ImGui::EndMenu();
        }
        ImGui::Separator();
        ImGui::MenuItem("Frame-time overlay", nullptr, &panels.overlay);
        ImGui::MenuItem("OpenCL devices", shortcut(AppAction::ToggleDevicePanel), &panels.devices);
        ImGui::MenuItem("Notices", nullptr, &panels.notices);
        ImGui::Separator();
        if (ImGui::MenuItem("Hide GUI", shortcut(AppAction::ToggleGui))) a.hideGui = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::MenuItem("Keys", nullptr, &panels.keys);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
    return a;
}

void drawKeysWindow(bool* open, const std::vector<std::pair<std::string, std::string>>& demoKeys,
                    const std::string& demoTitle, PanelStacks& stacks) {
    stacks.place("Keys", PanelSide::Right, ImGui::GetFontSize() * 24);
    if (!ImGui::Begin("Keys", open, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    auto table = [](const char* id, auto&& rows) {
        if (ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit)) {
            rows();
            ImGui::EndTable();
        }
    };
    auto row = [](const char* key, const char* meaning) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(key);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(meaning);
    };
    ImGui::TextDisabled("Application");
    table("##app", [&] {
        for (const auto& b : appKeyBindings())
            row(b.label, b.meaning);
    });
    if (!demoKeys.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("%s", demoTitle.c_str());
        table("##demo", [&] {
            for (const auto& [key, meaning] : demoKeys)
                row(key.c_str(), meaning.c_str());
        });
    }
    ImGui::Separator();
    ImGui::TextDisabled("Mouse input goes to the demo when no panel is under the cursor.");
    ImGui::End();
}

}  // namespace clviz
