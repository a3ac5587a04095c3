#pragma once
// Mouse input as the demos receive it: positions and motion in framebuffer pixels (the units a
// demo draws and lays out in), so no demo redoes the window-to-framebuffer scaling. On displays
// that scale windows (macOS, Wayland with a HiDPI output) GLFW reports the cursor in window units
// and the framebuffer has more pixels; elsewhere the two are the same.
//
// PointerInput turns GLFW's raw callbacks into these events and keeps track of the drag in the
// scene: a press ImGui did not take starts it, the release of that button ends it, wherever the
// cursor is then. No GLFW here, so the routing is unit-tested without a window.
#include <optional>

namespace clviz {

struct PointerEvent {
    enum class Type { Press, Release, Move, Scroll };
    Type type = Type::Move;
    float x = 0, y = 0;    // the cursor, framebuffer pixels from the top-left corner
    float dx = 0, dy = 0;  // Move: motion since the previous move (pixels); Scroll: wheel steps
    // Press and Release: the button (GLFW_MOUSE_BUTTON_*). Move: the button dragging in the
    // scene, -1 while the cursor only hovers.
    int button = -1;
    int mods = 0;  // GLFW_MOD_* held
    // Framebuffer pixels per window unit (2 on a Retina display): divide by it for motion that
    // should feel the same on every display.
    float pixelsPerUnit = 1;
};

// Framebuffer pixels per window unit along each axis; 1 where a size is 0 (minimized).
struct PointerScale {
    float x = 1, y = 1;
};
PointerScale pointerScale(int windowWidth, int windowHeight, int framebufferWidth,
                          int framebufferHeight);

class PointerInput {
  public:
    // The window's current scale; the shell sets it before handing over each raw event.
    void setScale(PointerScale scale) { scale_ = scale; }

    // Raw GLFW input, the cursor in window units. Each returns the event for the demo, or nothing
    // when the demo should not see it. `guiWantsMouse`: ImGui takes the mouse (over a panel).
    std::optional<PointerEvent> button(int button, bool pressed, int mods, bool guiWantsMouse);
    std::optional<PointerEvent> move(double x, double y, int mods);
    std::optional<PointerEvent> scroll(double dx, double dy, int mods, bool guiWantsMouse);

    // The button dragging in the scene, -1 when none.
    int dragButton() const { return dragButton_; }
    // Forgets the drag without a release (the demo it belonged to stopped).
    void cancelDrag() { dragButton_ = -1; }

  private:
    PointerEvent at(PointerEvent::Type type, int mods) const;

    PointerScale scale_;
    double x_ = 0, y_ = 0;  // the last cursor position, window units
    bool seen_ = false;     // a position has been reported (the first move has no motion)
    int dragButton_ = -1;
};

}  // namespace clviz
