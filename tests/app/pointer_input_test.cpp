// The mouse as demos receive it (app/pointer_input.hpp): window units converted to framebuffer
// pixels once, in the shell, for any HiDPI scale; a drag starts with a press the GUI did not take
// and ends with that button's release, wherever the cursor is then.
#include "app/pointer_input.hpp"

#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

using namespace clviz;

namespace {
void expectScale(const PointerScale& s, float both) {
    EXPECT_FLOAT_EQ(s.x, both);
    EXPECT_FLOAT_EQ(s.y, both);
}
}  // namespace

TEST(PointerScale, FramebufferPixelsPerWindowUnit) {
    expectScale(pointerScale(1280, 720, 2560, 1440), 2.0f);  // Retina
    expectScale(pointerScale(800, 600, 800, 600), 1.0f);
    expectScale(pointerScale(1000, 500, 1500, 750), 1.5f);
    // Minimized: sizes of 0 give no scale rather than 0 or a division by zero.
    expectScale(pointerScale(0, 0, 0, 0), 1.0f);
    const PointerScale flat = pointerScale(800, 0, 1600, 0);  // each axis on its own
    EXPECT_FLOAT_EQ(flat.x, 2.0f);
    EXPECT_FLOAT_EQ(flat.y, 1.0f);
}

TEST(PointerInput, PositionsAndMotionAreInFramebufferPixels) {
    PointerInput in;
    in.setScale(pointerScale(1280, 720, 2560, 1440));
    auto first = in.move(10, 20, 0);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->type, PointerEvent::Type::Move);
    EXPECT_FLOAT_EQ(first->x, 20.0f);
    EXPECT_FLOAT_EQ(first->y, 40.0f);
    EXPECT_FLOAT_EQ(first->dx, 0.0f);  // nothing to move from yet
    EXPECT_EQ(first->button, -1);      // hovering
    EXPECT_FLOAT_EQ(first->pixelsPerUnit, 2.0f);
    auto next = in.move(15, 18, GLFW_MOD_SHIFT);
    ASSERT_TRUE(next);
    EXPECT_FLOAT_EQ(next->dx, 10.0f);
    EXPECT_FLOAT_EQ(next->dy, -4.0f);
    EXPECT_EQ(next->mods, GLFW_MOD_SHIFT);
    auto wheel = in.scroll(0, 2, 0, false);
    ASSERT_TRUE(wheel);
    EXPECT_EQ(wheel->type, PointerEvent::Type::Scroll);
    EXPECT_FLOAT_EQ(wheel->x, 30.0f);  // where the cursor is, for zooming about it
    EXPECT_FLOAT_EQ(wheel->y, 36.0f);
    EXPECT_FLOAT_EQ(wheel->dy, 2.0f);  // wheel steps, not scaled
}

TEST(PointerInput, ADragEndsOnItsButtonsRelease) {
    PointerInput in;
    in.move(100, 100, 0);
    auto press = in.button(GLFW_MOUSE_BUTTON_LEFT, true, 0, false);
    ASSERT_TRUE(press);
    EXPECT_EQ(press->type, PointerEvent::Type::Press);
    EXPECT_EQ(press->button, GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_EQ(in.dragButton(), GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_EQ(in.move(110, 100, 0)->button, GLFW_MOUSE_BUTTON_LEFT);
    // Another button during the drag belongs to it: neither its press nor its release shows.
    EXPECT_FALSE(in.button(GLFW_MOUSE_BUTTON_RIGHT, true, 0, false));
    EXPECT_FALSE(in.button(GLFW_MOUSE_BUTTON_RIGHT, false, 0, false));
    EXPECT_EQ(in.dragButton(), GLFW_MOUSE_BUTTON_LEFT);
    // Released over a panel: the demo still hears it, and the drag is over.
    auto release = in.button(GLFW_MOUSE_BUTTON_LEFT, false, 0, true);
    ASSERT_TRUE(release);
    EXPECT_EQ(release->type, PointerEvent::Type::Release);
    EXPECT_EQ(release->button, GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_FLOAT_EQ(release->x, 110.0f);
    EXPECT_EQ(in.dragButton(), -1);
    EXPECT_EQ(in.move(120, 100, 0)->button, -1);  // hovering again
}

TEST(PointerInput, WhatTheGuiTakesNeverReachesTheScene) {
    PointerInput in;
    in.move(5, 5, 0);
    EXPECT_FALSE(in.button(GLFW_MOUSE_BUTTON_LEFT, true, 0, true));  // pressed on a panel
    EXPECT_EQ(in.dragButton(), -1);
    EXPECT_EQ(in.move(50, 5, 0)->button, -1);  // dragging the panel, not the scene
    EXPECT_FALSE(in.button(GLFW_MOUSE_BUTTON_LEFT, false, 0, false));
    EXPECT_FALSE(in.scroll(0, 1, 0, true));  // scrolling a panel
}

TEST(PointerInput, ACancelledDragTakesNoRelease) {
    PointerInput in;
    ASSERT_TRUE(in.button(GLFW_MOUSE_BUTTON_MIDDLE, true, 0, false));
    in.cancelDrag();  // the demo stopped
    EXPECT_EQ(in.dragButton(), -1);
    EXPECT_FALSE(in.button(GLFW_MOUSE_BUTTON_MIDDLE, false, 0, false));
    EXPECT_TRUE(in.button(GLFW_MOUSE_BUTTON_LEFT, true, 0, false));  // a new drag can start
}
