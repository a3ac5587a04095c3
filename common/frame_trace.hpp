#pragma once
// Wall time of every viewer frame (--frame-trace): the CSV a headless run leaves and the one-line
// summary it prints, so that a stall (one frame far above the others) shows as max / median. Each
// frame is also split into the parts of the shell's frame, so that a stall says where it waited
// (in the demo's step, the drawing, or the window system's present).
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace clviz {

// The parts of a frame, in the order Application::frame() runs them.
enum class FramePhase {
    Input,          // window events, timed settings, finished builds
    Gui,            // the GUI's panels laid out
    Step,           // the demo's step: its kernels enqueued, earlier results taken
    Draw,           // the scene and the GUI drawn, screenshots written
    BeforePresent,  // the demo's work before the swap (kernels enqueued behind the drawing)
    Present,        // the swap (or glFlush with app.present=off)
    FrameEnd,       // the demo's work after the swap, the GUI's requests
    Count
};
constexpr std::size_t kFramePhases = static_cast<std::size_t>(FramePhase::Count);
const char* framePhaseName(FramePhase phase);  // "input", "gui", ..., as in the CSV header

using FramePhaseMs = std::array<double, kFramePhases>;

struct FrameTraceSummary {
    std::size_t frames = 0;  // frames summarised (those after the skipped warm-up)
    double medianMs = 0;
    double maxMs = 0;
    long long maxFrame = -1;  // index of the longest frame
    double maxOverMedian = 0;
    FramePhase maxFramePhase = FramePhase::Count;  // the longest frame's longest part, if traced
};

class FrameTrace {
  public:
    void add(double ms, const FramePhaseMs& phases = {}) {
        ms_.push_back(ms);
        phases_.push_back(phases);
    }
    const std::vector<double>& milliseconds() const { return ms_; }
    const std::vector<FramePhaseMs>& phases() const { return phases_; }
    // Over the frames from `skip` on (the first frames build kernels and tune; they are in the CSV
    // but not in the figures).
    FrameTraceSummary summary(std::size_t skip) const;
    // "frame,ms,input_ms,...,frame_end_ms" then one line per frame. Throws clviz::Error when the
    // file cannot be written.
    void writeCsv(const std::string& path) const;

  private:
    std::vector<double> ms_;
    std::vector<FramePhaseMs> phases_;
};

// Splits one frame into its phases: mark(p) gives p the time since the previous mark (or start).
class FramePhaseClock {
  public:
    void start(double nowSeconds) {
        last_ = nowSeconds;
        ms_ = {};
    }
    void mark(FramePhase phase, double nowSeconds) {
        ms_[static_cast<std::size_t>(phase)] += 1e3 * (nowSeconds - last_);
        last_ = nowSeconds;
    }
    const FramePhaseMs& milliseconds() const { return ms_; }

  private:
    double last_ = 0;
    FramePhaseMs ms_{};
};

// "frame trace: 999 frames after the first 1, median 8.12 ms, max 9.80 ms (frame 512, most of it
// in present), max / median 1.21"
std::string describe(const FrameTraceSummary& s, std::size_t skip);

}  // namespace clviz
