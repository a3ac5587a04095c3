#pragma once
// Rolling frame-time statistics for the overlay: FPS, min / mean / max and a plot history.
#include <array>
#include <cstddef>

namespace clviz {

class FrameStats {
  public:
    static constexpr std::size_t kHistory = 240;  // frames kept for the plot (4 s at 60 Hz)

    // Adds one frame's duration in seconds; non-positive or absurd values are ignored.
    void add(double seconds);

    std::size_t count() const { return count_; }
    // Over the last kHistory frames; all 0 before the first frame.
    double meanMs() const;
    double minMs() const;
    double maxMs() const;
    double fps() const;  // 1000 / meanMs, 0 when unknown

    // Oldest first, for ImGui::PlotLines with values_offset = plotOffset().
    const float* plotData() const { return history_.data(); }
    int plotOffset() const { return static_cast<int>(next_); }
    int plotCount() const { return static_cast<int>(kHistory); }

  private:
    std::array<float, kHistory> history_{};  // milliseconds, ring buffer
    std::size_t next_ = 0;
    std::size_t count_ = 0;  // saturates at kHistory
};

}  // namespace clviz
