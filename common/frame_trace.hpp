#pragma once
// Wall time of every viewer frame (--frame-trace): the CSV a headless run leaves and the one-line
// summary it prints, so that a stall (one frame far above the others) shows as max / median.
#include <cstddef>
#include <string>
#include <vector>

namespace clviz {

struct FrameTraceSummary {
    std::size_t frames = 0;  // frames summarised (those after the skipped warm-up)
    double medianMs = 0;
    double maxMs = 0;
    long long maxFrame = -1;  // index of the longest frame
    double maxOverMedian = 0;
};

class FrameTrace {
  public:
    void add(double ms) { ms_.push_back(ms); }
    const std::vector<double>& milliseconds() const { return ms_; }
    // Over the frames from `skip` on (the first frames build kernels and tune; they are in the CSV
    // but not in the figures).
    FrameTraceSummary summary(std::size_t skip) const;
    // "frame,ms" then one line per frame. Throws clviz::Error when the file cannot be written.
    void writeCsv(const std::string& path) const;

  private:
    std::vector<double> ms_;
};

// "frame trace: 999 frames after the first 1, median 8.12 ms, max 9.80 ms (frame 512), max /
// median 1.21"
std::string describe(const FrameTraceSummary& s, std::size_t skip);

}  // namespace clviz
