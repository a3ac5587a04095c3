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

// Whether a key press belongs to the app's and the demo's bindings rather than to the GUI. ImGui's
// WantCaptureKeyboard alone let Esc quit while a menu or combo list was open (Esc should close
// it) and let single-letter keys act while a text field was being typed into.
struct KeyFocus {
    bool guiWantsKeyboard = false;  // io.WantCaptureKeyboard
    bool popupOpen = false;         // a menu, combo list, context menu or modal
    bool textInput = false;         // io.WantTextInput: a text field is active
    bool itemActive = false;        // a widget is being dragged or edited
};
bool keyGoesToBindings(const KeyFocus& focus);
// The focus of the current ImGui context (call between frames, from the key callback).
KeyFocus currentKeyFocus();

// Bindings name letters, not key positions: GLFW reports the US-layout position, so on AZERTY
// the key labelled A arrives as GLFW_KEY_Q and quit. `layoutName` is glfwGetKeyName's answer for
// the key (nullptr for non-printable keys); a single letter or digit gives that letter's key code.
int keyForLayout(int key, const char* layoutName);

// "Esc/Q quit, V toggle vsync, ...": one line.
std::string appKeysSummary();
// One binding per line, indented, for --help.
std::string appKeysHelp();

}  // namespace clviz
