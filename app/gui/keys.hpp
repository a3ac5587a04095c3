#pragma once
// The app's key bindings, in one place: the main loop, the Help menu, --help and the README all
// read this table. Keys not listed here go to the active demo (Demo::onKey).
#include <string>
#include <vector>

namespace clviz {

enum class AppAction {
    None,
    Quit,
    ToggleVsync,
    ToggleFullscreen,
    ToggleGui,
    ToggleDevicePanel,
    Screenshot,
};

struct KeyBinding {
    int key;            // GLFW_KEY_*
    const char* label;  // "Esc", "F12"
    AppAction action;
    const char* meaning;  // "quit"
};

const std::vector<KeyBinding>& appKeyBindings();

// The action bound to a GLFW key (modifiers ignored), or None.
AppAction appActionForKey(int key);

// "Esc/Q quit, V toggle vsync, ...": one line.
std::string appKeysSummary();
// One binding per line, indented, for --help.
std::string appKeysHelp();

}  // namespace clviz
