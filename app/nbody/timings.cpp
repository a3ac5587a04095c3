#include "app/nbody/timings.hpp"

#include <algorithm>
#include <cstdio>

namespace clviz {

void RollingSeries::add(float value) {
    values_[next_] = value;
    next_ = (next_ + 1) % kHistory;
    count_ = std::min(count_ + 1, kHistory);
}

float RollingSeries::last() const {
    return count_ ? values_[(next_ + kHistory - 1) % kHistory] : 0.0f;
}

float RollingSeries::mean() const {
    if (!count_) return 0;
    double s = 0;
    for (std::size_t i = 0; i < count_; ++i)
        s += values_[(next_ + kHistory - 1 - i) % kHistory];
    return float(s / double(count_));
}

float RollingSeries::max() const {
    float m = 0;
    for (std::size_t i = 0; i < count_; ++i)
        m = std::max(m, values_[(next_ + kHistory - 1 - i) % kHistory]);
    return m;
}

void NbodyTimingLog::add(const NbodyFrameSample& s) {
    const double perStep = s.interactionsPerStep > 0 ? s.interactionsPerStep : s.bodies * s.bodies;
    auto orZero = [](double v) { return float(v > 0 ? v : 0); };
    if (s.frameMs > 0) frame_.add(float(s.frameMs));
    if (s.steps > 0) {
        kernel_.add(orZero(s.kernelMs));
        if (s.kernelMs > 0) rate_.add(float(perStep * s.steps / (s.kernelMs * 1e-3)));
    }
    if (s.copyMs >= 0) copy_.add(float(s.copyMs));
    if (s.renderMs >= 0) render_.add(float(s.renderMs));

    if (++seen_ <= kWarmupFrames) return;
    ++measured_;
    if (s.frameMs > 0) {
        frameSum_.add(s.frameMs);
        if (frameTimes_.size() < 1'000'000) frameTimes_.push_back(float(s.frameMs));
    }
    stepsSum_.add(s.steps);
    if (s.steps > 0) {
        kernelSum_.add(s.kernelMs);
        forceSum_.add(s.forceMs);
        if (s.kernelMs > 0) {
            interactions_ += perStep * s.steps;
            flops_ += perStep * s.steps * s.flopsPerInteraction;
            interactionKernelMs_ += s.kernelMs;
        }
    }
    copySum_.add(s.copyMs);
    copyHostSum_.add(s.copyHostMs);
    renderSum_.add(s.renderMs);
}

void NbodyTimingLog::clearTotals() {
    seen_ = 0;
    measured_ = 0;
    frameSum_ = kernelSum_ = forceSum_ = copySum_ = copyHostSum_ = renderSum_ = stepsSum_ = {};
    interactions_ = interactionKernelMs_ = flops_ = 0;
    frameTimes_.clear();
}

NbodyTimingLog::Totals NbodyTimingLog::totals() const {
    Totals t;
    t.frames = measured_;
    t.meanFrameMs = frameSum_.mean();
    if (!frameTimes_.empty()) {
        std::vector<float> v = frameTimes_;
        auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        t.medianFrameMs = *mid;
        if (v.size() % 2 == 0) {
            float lower = *std::max_element(v.begin(), mid);
            t.medianFrameMs = (t.medianFrameMs + lower) / 2;
        }
    }
    t.meanKernelMs = kernelSum_.mean();
    t.meanForceMs = forceSum_.mean();
    t.meanCopyMs = copySum_.mean();
    t.meanCopyHostMs = copyHostSum_.mean();
    t.meanRenderMs = renderSum_.mean();
    t.stepsPerFrame = stepsSum_.mean();
    if (interactionKernelMs_ > 0) {
        t.interactionsPerSecond = interactions_ / (interactionKernelMs_ * 1e-3);
        t.gflops = flops_ / (interactionKernelMs_ * 1e-3) * 1e-9;
    }
    return t;
}

std::string NbodyTimingLog::summaryLine(const std::string& setup) const {
    const Totals t = totals();
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "nbody summary: %s frames=%lld steps_per_frame=%.2f mean_frame_ms=%.3f "
                  "median_frame_ms=%.3f mean_kernel_ms=%.3f mean_force_ms=%.3f mean_copy_ms=%.3f "
                  "mean_copy_host_ms=%.3f mean_render_ms=%.3f interactions_per_s=%.4g "
                  "gflops=%.2f frame_over_kernel=%.3f",
                  setup.c_str(), t.frames, t.stepsPerFrame, t.meanFrameMs, t.medianFrameMs,
                  t.meanKernelMs, t.meanForceMs, t.meanCopyMs, t.meanCopyHostMs, t.meanRenderMs,
                  t.interactionsPerSecond, t.gflops,
                  t.meanKernelMs > 0 ? t.meanFrameMs / t.meanKernelMs : 0.0);
    return buf;
}

}  // namespace clviz
