#pragma once
// Where each N-body frame's time went: rolling series for the Timings panel's plots, and run
// totals for the summary line printed at exit (what the lead's headless frame-time measurement
// reads). Pure bookkeeping, unit-tested.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace clviz {

// The last kHistory values of one quantity, oldest first for ImGui::PlotLines.
class RollingSeries {
  public:
    static constexpr std::size_t kHistory = 300;  // 5 s at 60 FPS

    void add(float value);
    std::size_t count() const { return count_; }
    float last() const;
    float mean() const;
    float max() const;
    const float* data() const { return values_.data(); }
    int offset() const { return int(next_); }  // values_offset for PlotLines
    int size() const { return int(kHistory); }

  private:
    std::array<float, kHistory> values_{};
    std::size_t next_ = 0;
    std::size_t count_ = 0;
};

// One frame as measured. Negative means "not measured this frame" (e.g. no GL timer).
struct NbodyFrameSample {
    double frameMs = -1;     // wall time since the previous frame
    double kernelMs = -1;    // all simulation kernels of this frame's steps (CL profiling)
    double forceMs = -1;     // the force kernel alone
    double copyMs = -1;      // interop hand-over on the device (read or acquire..release)
    double copyHostMs = -1;  // CPU time in the interop calls (fence waits, uploads)
    double renderMs = -1;    // particle drawing on the GPU (GL_TIME_ELAPSED)
    int steps = 0;           // simulation steps this frame
    double bodies = 0;       // N
    // Interactions one step computed as counted (NbodyStepTimings::interactionsPerStep; 0: N^2)
    // and the flops each costs: the tree and pairs do fewer than N^2.
    double interactionsPerStep = 0;
    double flopsPerInteraction = 20;
};

class NbodyTimingLog {
  public:
    // Frames before this many steps are left out of the totals: the first frames build
    // kernels and fill the pipeline.
    static constexpr int kWarmupFrames = 5;

    void add(const NbodyFrameSample& s);
    void clearTotals();  // after N or the path changes, so the summary describes one setup

    const RollingSeries& frameMs() const { return frame_; }
    const RollingSeries& kernelMs() const { return kernel_; }
    const RollingSeries& copyMs() const { return copy_; }
    const RollingSeries& renderMs() const { return render_; }
    const RollingSeries& interactionsPerSecond() const { return rate_; }

    struct Totals {
        long long frames = 0;  // measured frames (after warm-up)
        double meanFrameMs = 0, medianFrameMs = 0;
        double meanKernelMs = 0, meanForceMs = 0;
        double meanCopyMs = 0, meanCopyHostMs = 0, meanRenderMs = 0;
        double interactionsPerSecond = 0;  // sum of computed interactions / sum kernel time
        double gflops = 0;                 // their flops (as counted per variant)
        double stepsPerFrame = 0;
    };
    Totals totals() const;

    // "nbody summary: frames=.. mean_frame_ms=.. ..." - one line, key=value, for scripts.
    std::string summaryLine(const std::string& setup) const;

  private:
    RollingSeries frame_, kernel_, copy_, render_, rate_;
    long long seen_ = 0;
    double flops_ = 0;  // summed with interactions_
    struct Sum {
        double sum = 0;
        long long n = 0;
        void add(double v) {
            if (v >= 0) sum += v, ++n;
        }
        double mean() const { return n ? sum / double(n) : 0; }
    };
    Sum frameSum_, kernelSum_, forceSum_, copySum_, copyHostSum_, renderSum_, stepsSum_;
    double interactions_ = 0, interactionKernelMs_ = 0;
    std::vector<float> frameTimes_;  // for the median; capped
    long long measured_ = 0;
};

}  // namespace clviz
