#pragma once
// Run totals of the image lab for the summary line printed at exit, as the N-body demo prints its
// own: what headless frame-time measurements (bench/device/) read. Only frames that ran the
// filter chain count, after a warm-up that builds the kernels and textures.
#include <string>

namespace clviz {

class ImageRunSummary {
  public:
    static constexpr int kWarmupRuns = 5;

    // One frame that ran the chain: its wall time, the chain's kernels (CL profiling) and the
    // hand-over of the result to the texture (device and host time).
    void add(double frameMs, double chainMs, double copyMs, double copyHostMs);
    long long runs() const { return runs_; }

    // "image summary: SETUP runs=.. mean_frame_ms=.. mean_chain_ms=.. mean_copy_ms=..
    // mean_copy_host_ms=.. handover_share=.." (key=value, for scripts).
    std::string line(const std::string& setup) const;

  private:
    long long seen_ = 0, runs_ = 0;
    double frameMs_ = 0, chainMs_ = 0, copyMs_ = 0, copyHostMs_ = 0;
};

}  // namespace clviz
