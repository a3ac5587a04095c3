#include "app/pointer_input.hpp"

namespace clviz {

PointerScale pointerScale(int windowWidth, int windowHeight, int framebufferWidth,
                          int framebufferHeight) {
    PointerScale s;
    if (windowWidth > 0 && framebufferWidth > 0)
        s.x = static_cast<float>(framebufferWidth) / static_cast<float>(windowWidth);
    if (windowHeight > 0 && framebufferHeight > 0)
        s.y = static_cast<float>(framebufferHeight) / static_cast<float>(windowHeight);
    return s;
}

PointerEvent PointerInput::at(PointerEvent::Type type, int mods) const {
    PointerEvent e;
    e.type = type;
    e.x = static_cast<float>(x_) * scale_.x;
    e.y = static_cast<float>(y_) * scale_.y;
    e.mods = mods;
    e.pixelsPerUnit = scale_.y;
    return e;
}

std::optional<PointerEvent> PointerInput::button(int button, bool pressed, int mods,
                                                 bool guiWantsMouse) {
    if (pressed) {
        // One drag at a time: other buttons pressed during it belong to it.
        if (dragButton_ >= 0 || guiWantsMouse) return std::nullopt;
        dragButton_ = button;
    } else {
        // The release ends the drag even over a panel, or the demo would keep dragging.
        if (button != dragButton_) return std::nullopt;
        dragButton_ = -1;
    }
    PointerEvent e = at(pressed ? PointerEvent::Type::Press : PointerEvent::Type::Release, mods);
    e.button = button;
    return e;
}

std::optional<PointerEvent> PointerInput::move(double x, double y, int mods) {
    const double dx = seen_ ? x - x_ : 0.0, dy = seen_ ? y - y_ : 0.0;
    x_ = x;
    y_ = y;
    seen_ = true;
    PointerEvent e = at(PointerEvent::Type::Move, mods);
    e.dx = static_cast<float>(dx) * scale_.x;
    e.dy = static_cast<float>(dy) * scale_.y;
    e.button = dragButton_;
    return e;
}

std::optional<PointerEvent> PointerInput::scroll(double dx, double dy, int mods,
                                                 bool guiWantsMouse) {
    if (guiWantsMouse) return std::nullopt;
    PointerEvent e = at(PointerEvent::Type::Scroll, mods);
    e.dx = static_cast<float>(dx);
    e.dy = static_cast<float>(dy);
    return e;
}

}  // namespace clviz
