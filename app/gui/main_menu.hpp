#pragma once
// The main menu bar (File, Demo, View, Help) and the key-bindings window. The menu only reports
// what the user picked; the application acts on it.
#include <string>
#include <utility>
#include <vector>

#include "app/gui/file_dialog.hpp"

namespace clviz {

struct PanelVisibility {
    bool overlay = true;
    bool devices = false;
    bool notices = true;
    bool keys = false;
};

struct MenuModel {
    std::vector<std::string> demoTitles;  // the Demo menu, in registry order
    int activeDemo = -1;                  // index into demoTitles, -1: none
    bool vsync = true;
    bool fullscreen = false;
    float guiScaleOverride = 0;  // 0: follows the window's content scale
    float contentScale = 1;
    std::vector<FileAction> fileActions;  // the active demo's Open / Save / Record entries
};

struct MenuActions {
    bool quit = false;
    bool screenshot = false;
    bool toggleVsync = false;
    bool toggleFullscreen = false;
    bool hideGui = false;
    int switchDemo = -1;  // index into demoTitles
    int fileAction = -1;  // index into MenuModel::fileActions: ask for its path
    float guiScale = -1;  // a new GUI scale was picked: 0 auto, else the factor; -1 none
    // The OpenCL panel's device-set section asked for this demo setting: (key, device set).
    std::optional<std::pair<std::string, std::string>> demoDeviceSet;
};

MenuActions drawMainMenu(const MenuModel& model, PanelVisibility& panels);

class PanelStacks;

// App keys (app/gui/keys.hpp) and the active demo's (Demo::keyHelp), placed through `stacks`.
void drawKeysWindow(bool* open, const std::vector<std::pair<std::string, std::string>>& demoKeys,
                    const std::string& demoTitle, PanelStacks& stacks);

}  // namespace clviz
