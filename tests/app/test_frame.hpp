#pragma once
// The frame the demos' GL tests run: frame `index` at 60 Hz on a 320 x 240 framebuffer (the size
// of the tests' offscreen context), and one such frame of a demo as the loop runs it.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include "app/demo.hpp"

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

}  // namespace clviz::test
