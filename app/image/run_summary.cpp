#include "app/image/run_summary.hpp"

#include <cstdio>

namespace clviz {

void ImageRunSummary::add(double frameMs, double chainMs, double copyMs, double copyHostMs) {
    if (++seen_ <= kWarmupRuns) return;
    ++runs_;
    frameMs_ += frameMs;
    chainMs_ += chainMs;
    copyMs_ += copyMs;
    copyHostMs_ += copyHostMs;
}

std::string ImageRunSummary::line(const std::string& setup) const {
    const double n = runs_ > 0 ? double(runs_) : 1.0;
    const double frame = frameMs_ / n;
    // The hand-over's share of the frame: its host time plus its device time, which the chain's
    // own timing does not include.
    const double share = frame > 0 ? (copyMs_ + copyHostMs_) / n / frame : 0.0;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "image summary: %s runs=%lld mean_frame_ms=%.3f mean_chain_ms=%.3f "
                  "mean_copy_ms=%.3f mean_copy_host_ms=%.3f handover_share=%.4f",
                  setup.c_str(), runs_, frame, chainMs_ / n, copyMs_ / n, copyHostMs_ / n, share);
    return buf;
}

}  // namespace clviz
