#include "compute/nbody/multi/slice_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/error.hpp"

namespace clviz {

std::vector<BodySlice> planSlices(std::size_t n, const std::vector<double>& weights) {
    if (weights.empty()) throw Error("no devices to share the bodies among");
    double total = 0;
    for (double w : weights) {
        if (!(w >= 0) || !std::isfinite(w))
            throw Error("device weights must be finite and >= 0 (got " + std::to_string(w) + ")");
        total += w;
    }
    if (total <= 0) throw Error("at least one device needs a weight above 0");

    // Floors first, then the leftover bodies one each to the largest remainders (ties: lower
    // index), so the plan is deterministic and the counts add up to n.
    std::vector<std::size_t> counts(weights.size());
    std::vector<double> remainders(weights.size());
    std::size_t given = 0;
    for (std::size_t d = 0; d < weights.size(); ++d) {
        const double exact = static_cast<double>(n) * (weights[d] / total);
        counts[d] = std::min(n, static_cast<std::size_t>(std::floor(exact)));
        remainders[d] = weights[d] > 0 ? exact - std::floor(exact) : -1;
        given += counts[d];
    }
    std::vector<std::size_t> order(weights.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
    for (std::size_t k = 0; given < n; k = (k + 1) % order.size()) {
        if (weights[order[k]] <= 0) continue;
        ++counts[order[k]];
        ++given;
    }
    while (given > n) {  // floating-point floors can only overshoot by rounding; take back
        auto it = std::max_element(counts.begin(), counts.end());
        --*it;
        --given;
    }

    std::vector<BodySlice> slices(weights.size());
    std::size_t begin = 0;
    for (std::size_t d = 0; d < weights.size(); ++d) {
        slices[d] = {begin, counts[d]};
        begin += counts[d];
    }
    return slices;
}

std::vector<double> measuredSpeeds(const std::vector<BodySlice>& slices,
                                   const std::vector<double>& forceMs,
                                   const std::vector<double>& previous) {
    std::vector<double> speeds(slices.size(), 0.0);
    double sum = 0;
    int known = 0;
    for (std::size_t d = 0; d < slices.size(); ++d) {
        const double ms = d < forceMs.size() ? forceMs[d] : 0.0;
        if (slices[d].count > 0 && ms > 0 && std::isfinite(ms)) {
            speeds[d] = static_cast<double>(slices[d].count) / ms;
            sum += speeds[d];
            ++known;
        }
    }
    const double mean = known ? sum / known : 1.0;
    for (std::size_t d = 0; d < slices.size(); ++d)
        if (speeds[d] == 0) speeds[d] = d < previous.size() && previous[d] > 0 ? previous[d] : mean;
    return speeds;
}

namespace {
// The slowest device's force time for these slices at these speeds (bodies per ms).
double makespan(const std::vector<BodySlice>& slices, const std::vector<double>& speeds) {
    double worst = 0;
    for (std::size_t d = 0; d < slices.size(); ++d)
        if (slices[d].count > 0)
            worst = std::max(worst, static_cast<double>(slices[d].count) / speeds[d]);
    return worst;
}
}  // namespace

bool worthRebalancing(const std::vector<BodySlice>& slices, const std::vector<double>& speeds,
                      double minGain) {
    if (slices.size() < 2 || speeds.size() != slices.size()) return false;
    std::size_t n = 0;
    for (const BodySlice& s : slices)
        n += s.count;
    if (n == 0) return false;
    const double now = makespan(slices, speeds);
    const double best = makespan(planSlices(n, speeds), speeds);
    return now > best * (1 + minGain);
}

void SliceBalancer::reset() {
    summedMs_.clear();
    steps_ = 0;
    calls_ = 0;
}

std::optional<std::vector<BodySlice>> SliceBalancer::update(const std::vector<BodySlice>& slices,
                                                            const std::vector<double>& forceMs,
                                                            int steps) {
    if (slices.size() < 2 || forceMs.size() != slices.size() || steps <= 0) return std::nullopt;
    summedMs_.resize(slices.size(), 0.0);
    for (std::size_t d = 0; d < slices.size(); ++d)
        summedMs_[d] += forceMs[d];
    steps_ += steps;
    if (++calls_ < 3) return std::nullopt;
    for (std::size_t d = 0; d < slices.size(); ++d)
        if (slices[d].count > 0 && summedMs_[d] < 20) return std::nullopt;
    std::vector<double> perStep(summedMs_);
    for (double& ms : perStep)
        ms /= static_cast<double>(steps_);
    const std::vector<double> speeds = measuredSpeeds(slices, perStep, {});
    if (!worthRebalancing(slices, speeds, 0.10)) return std::nullopt;
    std::size_t n = 0;
    for (const BodySlice& s : slices)
        n += s.count;
    reset();
    return planSlices(n, speeds);
}

std::string describeSlices(const std::vector<BodySlice>& slices) {
    std::size_t n = 0;
    for (const BodySlice& s : slices)
        n += s.count;
    std::string out;
    for (std::size_t d = 0; d < slices.size(); ++d) {
        char share[32];
        std::snprintf(
            share, sizeof share, " (%.1f%%)",
            n ? 100.0 * static_cast<double>(slices[d].count) / static_cast<double>(n) : 0.0);
        if (d) out += ", ";
        out += std::to_string(d) + ": " + std::to_string(slices[d].begin) + " + " +
               std::to_string(slices[d].count) + share;
    }
    return out;
}

std::vector<BodySlice> cutIntoPieces(const BodySlice& slice, std::size_t pieces, bool halving) {
    pieces = std::max<std::size_t>(1, pieces);
    std::vector<BodySlice> out;
    std::size_t at = slice.begin;
    for (std::size_t k = 0; k < pieces; ++k) {
        const std::size_t left = slice.end() - at;
        const std::size_t count = k + 1 == pieces ? left
                                  : halving       ? left / 2
                                            : slice.begin + slice.count * (k + 1) / pieces - at;
        if (count) out.push_back({at, count});
        at += count;
    }
    return out;
}

}  // namespace clviz
