#include "bench/split_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>

namespace clviz::bench {

namespace {

double norm(double x, double y, double z) {
    return std::sqrt(x * x + y * y + z * z);
}

std::string figure(const char* format, double a, double b) {
    char text[160];
    std::snprintf(text, sizeof text, format, a, b);
    return text;
}

}  // namespace

ForceDeviation forceDeviation(const std::vector<Float4>& a, const std::vector<Float4>& ref) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (a.size() != ref.size()) return {kInf, kInf};
    if (a.empty()) return {};
    double squares = 0;
    for (const Float4& r : ref)
        squares += double(r.x) * r.x + double(r.y) * r.y + double(r.z) * r.z;
    const double rms = std::sqrt(squares / double(ref.size()));
    std::vector<double> e(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double diff =
            norm(double(a[i].x) - ref[i].x, double(a[i].y) - ref[i].y, double(a[i].z) - ref[i].z);
        const double scale = std::max(norm(ref[i].x, ref[i].y, ref[i].z), rms);
        e[i] = diff == 0 ? 0 : diff / scale;  // 0 / 0 (all accelerations 0, equal) is agreement
        if (!std::isfinite(e[i])) return {kInf, kInf};
    }
    ForceDeviation d;
    d.max = *std::max_element(e.begin(), e.end());
    std::nth_element(e.begin(), e.begin() + std::ptrdiff_t(e.size() / 2), e.end());
    d.median = e[e.size() / 2];
    return d;
}

double worstPairsRoundingRatio(const std::vector<Float4>& a, const std::vector<Float4>& ref,
                               const std::vector<Float4>& positions, float softening, int samples) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const std::size_t n = positions.size();
    if (a.size() != n || ref.size() != n) return kInf;
    if (n == 0 || samples <= 0) return 0;
    const std::size_t count = std::min<std::size_t>(n, std::size_t(samples));
    const double nu = double(n) * 0x1p-24;
    const double gamma = nu / (1 - nu);
    const double eps2 = double(softening) * softening;
    std::vector<double> ratio(count, 0.0);
    auto sample = [&](std::size_t s) {
        const std::size_t i = s * n / count;
        double scale[3] = {0, 0, 0};  // sum_j |a_ij| per component
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const double d[3] = {double(positions[j].x) - positions[i].x,
                                 double(positions[j].y) - positions[i].y,
                                 double(positions[j].z) - positions[i].z};
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
            if (r2 == 0) continue;
            const double f = std::abs(double(positions[j].w)) / (r2 * std::sqrt(r2));
            for (int c = 0; c < 3; ++c)
                scale[c] += f * std::abs(d[c]);
        }
        const double got[3] = {a[i].x, a[i].y, a[i].z}, want[3] = {ref[i].x, ref[i].y, ref[i].z};
        double worst = 0;
        for (int c = 0; c < 3; ++c) {
            const double diff = std::abs(got[c] - want[c]);
            if (!std::isfinite(diff)) return kInf;
            if (diff == 0) continue;
            const double bound = 2 * gamma * scale[c];
            worst = std::max(worst, bound > 0 ? diff / bound : kInf);
        }
        return worst;
    };
    // count x N pair terms: threads for the benchmark's sizes (256 x 1M is 2.7e8).
    const std::size_t threads = std::clamp<std::size_t>(
        std::min<std::size_t>(count, std::thread::hardware_concurrency()), 1, 16);
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t s = t; s < count; s += threads)
                ratio[s] = sample(s);
        });
    for (auto& th : pool)
        th.join();
    return *std::max_element(ratio.begin(), ratio.end());
}

SplitVerdict judgeTreeSplit(const ForceDeviation& split, const ForceDeviation& rerun) {
    const double maxLimit = std::max(kTreeSpreadFactor * rerun.max, kTreeExactFloor);
    const double medianLimit = std::max(kTreeSpreadFactor * rerun.median, kTreeExactFloor);
    if (split.max <= maxLimit && split.median <= medianLimit) return {true, "ok"};
    return {false, "WRONG (" + figure("|da|/|a| median %.3g, max %.3g", split.median, split.max) +
                       figure(" above %gx one device's rerun spread", kTreeSpreadFactor, 0) +
                       figure(" %.3g, %.3g)", rerun.median, rerun.max)};
}

SplitVerdict judgePairsSplit(double worstRoundingRatio) {
    if (worstRoundingRatio <= 1) return {true, "ok"};
    char text[96];
    std::snprintf(text, sizeof text, "WRONG (|da| %.3g x the rounding bound)", worstRoundingRatio);
    return {false, text};
}

SplitVerdict judgeExactSplit(const ForceDeviation& split) {
    if (split.max == 0) return {true, "ok"};
    return {false, figure("WRONG (|da|/|a| max %.3g, median %.3g; all-pairs must be bit-equal)",
                          split.max, split.median)};
}

SplitAgreement checkSplitForces(NbodyVariant variant, const std::vector<Float4>& split,
                                const std::vector<Float4>& alone, const std::vector<Body>& bodies,
                                float softening,
                                const std::function<std::vector<Float4>()>& rerun) {
    SplitAgreement r;
    const ForceDeviation d = forceDeviation(split, alone);
    r.metrics.push_back({"|da|/|a| median vs one device", d.median});
    r.metrics.push_back({"|da|/|a| max vs one device", d.max});
    if (variant == NbodyVariant::Tree) {
        const ForceDeviation spread = forceDeviation(rerun(), alone);
        r.metrics.push_back({"|da|/|a| median one-device rerun", spread.median});
        r.metrics.push_back({"|da|/|a| max one-device rerun", spread.max});
        r.verdict = judgeTreeSplit(d, spread);
    } else if (variant == NbodyVariant::Pairs) {
        std::vector<Float4> pos;
        pos.reserve(bodies.size());
        for (const Body& b : bodies)
            pos.push_back(b.pos);
        const double ratio = worstPairsRoundingRatio(split, alone, pos, softening, kPairsSamples);
        const std::size_t sampled = std::min<std::size_t>(bodies.size(), kPairsSamples);
        r.metrics.push_back(
            {"|da|/rounding bound max (" + std::to_string(sampled) + " bodies)", ratio});
        r.verdict = judgePairsSplit(ratio);
    } else {
        r.verdict = judgeExactSplit(d);
    }
    return r;
}

}  // namespace clviz::bench
