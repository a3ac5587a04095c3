#pragma once
// The window title: the demo, the frame rate and the demo's main figure, as NVIDIA's nbody sample
// shows them ("clviz - N-body | 59.9 FPS | N = 65536, 1.95 G interactions/s, 39.0 GFLOP/s fp32"),
// so the numbers stay readable with every panel hidden or the window in a taskbar.
#include <string>

namespace clviz {

// `fps` <= 0 leaves the rate out; an empty `status` leaves the figure out.
std::string windowTitle(const std::string& demoTitle, double fps, const std::string& status);

}  // namespace clviz
