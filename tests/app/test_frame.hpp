#pragma once
// The frame the demos' GL tests run: frame `index` at 60 Hz on a 320 x 240 framebuffer (the size
// of the tests' offscreen context), and one such frame of a demo as the loop runs it.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <imgui.h>

#include <chrono>
#include <string>

#include "app/demo.hpp"
#include "app/gui/layout.hpp"

namespace clviz::test {

inline FrameInfo testFrame(long long index) {
    FrameInfo f;
    f.index = index;
    f.dt = 1.0 / 60;
    f.framebufferWidth = 320;
    f.framebufferHeight = 240;
    return f;
}

// Step, then draw, leaving no GL error behind.
inline void stepAndDraw(Demo& demo, long long index) {
    const FrameInfo f = testFrame(index);
    demo.step(f);
    demo.draw(f);
    ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

// One frame as the app runs it with the GUI (gui, step, draw) in the current ImGui context;
// returns the frame's GUI layout (guiLayoutText), where a test looks for a window or widget.
inline std::string guiFrame(Demo& demo, long long index) {
    const FrameInfo f = testFrame(index);
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    demo.gui(f);
    demo.step(f);
    demo.draw(f);
    ImGui::Render();
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    return guiLayoutText();
}

// Seconds the demo's shutdown() took, as the app's quit calls it (a running job is cancelled at
// its next step and joined).
inline double secondsToShutDown(Demo& demo) {
    const auto begin = std::chrono::steady_clock::now();
    demo.shutdown();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace clviz::test
