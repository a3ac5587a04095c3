#pragma once
// The FPS / frame-time overlay (top-right): rates, a rolling frame-time plot, and what runs where.
// Its width is fixed (the plot's): long device or renderer names are shortened to fit, and the
// full text is in the tooltip and the OpenCL devices panel.
#include <string>

#include "app/gui/frame_stats.hpp"

namespace clviz {

struct OverlayInfo {
    const FrameStats* stats = nullptr;
    std::string demoTitle;     // empty: no demo active
    std::string clDevice;      // compact: "pthread-haswell (PoCL)"
    std::string clDeviceFull;  // as the driver names it, for the tooltip
    std::string clReason;      // why this device
    std::string gl;            // "OpenGL 4.5 core, llvmpipe"
    bool glFellBack = false;   // 3.3 instead of 4.5: shown in a warning colour
    bool vsync = true;
    int framebufferWidth = 0;
    int framebufferHeight = 0;
};

void drawOverlay(const OverlayInfo& info);

enum class TextCut { End, Middle };

// `text` shortened to at most `width` pixels in the current font: "..." replaces its end or its
// middle. Cuts between UTF-8 characters, never inside one.
std::string fitToWidth(const std::string& text, float width, TextCut cut);

}  // namespace clviz
