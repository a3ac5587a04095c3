#pragma once
// The FPS / frame-time overlay (top-right): rates, a rolling frame-time plot, and what runs where.
#include <string>

#include "app/frame_stats.hpp"

namespace clviz {

struct OverlayInfo {
    const FrameStats* stats = nullptr;
    std::string demoTitle;    // empty: no demo active
    std::string clDevice;     // "pthread-haswell (Portable Computing Language)"
    std::string clReason;     // why this device
    std::string gl;           // "OpenGL 4.5 core, llvmpipe"
    bool glFellBack = false;  // 3.3 instead of 4.5: shown in a warning colour
    bool vsync = true;
    int framebufferWidth = 0;
    int framebufferHeight = 0;
};

void drawOverlay(const OverlayInfo& info);

}  // namespace clviz
