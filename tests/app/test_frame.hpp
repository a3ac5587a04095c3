#pragma once
// The frame the demos' GL tests run: frame `index` at 60 Hz on a 320 x 240 framebuffer (the size
// of the tests' offscreen context).
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

}  // namespace clviz::test
