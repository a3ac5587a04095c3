#include "compute/nbody/multi/shared_forces.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>

namespace clviz {

namespace {

void sumRange(const std::vector<float*>& parts, std::size_t owner, std::size_t from,
              std::size_t to) {
    float* out = parts[owner];
    for (std::size_t f = 4 * from; f < 4 * to; ++f) {
        float s = parts[0][f];
        for (std::size_t d = 1; d < parts.size(); ++d)
            s += parts[d][f];
        out[f] = s;
    }
}

}  // namespace

void sumSharedAccelerations(const std::vector<float*>& parts,
                            const std::vector<BodySlice>& slices) {
    constexpr std::size_t kBodiesPerThread = std::size_t{1} << 18;
    // The bodies to add up: from the first non-empty slice's start to the last one's end (an MPI
    // rank passes its own slice alone, wherever it lies).
    std::size_t bodies = 0, first = SIZE_MAX, last = 0;
    for (const BodySlice& s : slices) {
        bodies += s.count;
        if (s.count) first = std::min(first, s.begin), last = std::max(last, s.end());
    }
    if (!bodies) return;
    const std::size_t threads =
        std::clamp<std::size_t>(bodies / kBodiesPerThread, 1,
                                std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
    if (threads == 1) {
        for (std::size_t d = 0; d < slices.size(); ++d)
            sumRange(parts, d, slices[d].begin, slices[d].end());
        return;
    }
    // Each thread takes an equal run of the bodies in index order, split at slice boundaries.
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const std::size_t span = last - first;
            const std::size_t lo = first + span * t / threads;
            const std::size_t hi = first + span * (t + 1) / threads;
            for (std::size_t d = 0; d < slices.size(); ++d) {
                const std::size_t from = std::max(lo, slices[d].begin);
                const std::size_t to = std::min(hi, slices[d].end());
                if (from < to) sumRange(parts, d, from, to);
            }
        });
    for (auto& th : pool)
        th.join();
}

double balancedForceMs(const NbodyStepTimings& t) {
    double walk = 0;
    bool tree = false;
    for (const NbodyKernelTime& k : t.kernels)
        if (k.kernel == "tree-walk") walk += k.ms, tree = true;
    return tree ? walk : t.forceMs;
}

}  // namespace clviz
