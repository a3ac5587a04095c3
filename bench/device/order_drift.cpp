// Probe for issue 32 (not part of the CMake build): how far the tree's sorted order drifts from
// the bodies' slots after a renumbering (NbodySimulation::kTreeRenumberPasses), step by step, on
// the default device. Steps a Plummer sphere (the preset's dt) alone, so that it renumbers after
// its first pass, and prints for each step: the median, 99th and 99.9th percentile of
// |order[s] - s|, the share of sorted places whose next holds the next slot, and how many 32-byte
// sectors a warp's 32 consecutive places write when inverting the order (rank[order[s]] = s;
// 4 when the order is the identity): what invert_order and the gather after the walk pay.
// Build (from the repository root, after building clviz_compute in build/):
//   g++ -std=c++20 -O2 -I. -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
//     -DCL_HPP_ENABLE_EXCEPTIONS -DCL_TARGET_OPENCL_VERSION=300 bench/device/order_drift.cpp \
//     build/compute/nbody/libclviz_nbody.a build/compute/core/libclviz_compute_core.a \
//     build/common/libclviz_common.a -lOpenCL -pthread -o order-drift
// Usage: order-drift [N] [STEPS]   (262144, 15)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/tree/tree_force.hpp"

using namespace clviz;

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 262144;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 15;
    if (n < 64 || steps < 1) {
        std::fprintf(stderr, "usage: order-drift [N >= 64] [STEPS >= 1]\n");
        return 2;
    }
    auto cc = ComputeContext::create(DeviceRequest{});
    NbodySimulation sim(*cc);
    NbodyKernelConfig config;
    config.variant = NbodyVariant::Tree;
    sim.setKernelConfig(config);
    sim.load(makePreset(NbodyPreset::Plummer, n, 1));
    std::vector<cl_uint> order(n);
    for (int step = 1; step <= steps; ++step) {
        sim.step(1);
        cc->queue().enqueueReadBuffer(sim.splitTree().lastOrder(), CL_TRUE, 0, n * 4, order.data());
        std::vector<long> drift(n);
        std::size_t next = 0;
        for (std::size_t s = 0; s < n; ++s) {
            drift[s] = std::labs(static_cast<long>(order[s]) - static_cast<long>(s));
            if (s + 1 < n && order[s + 1] == order[s] + 1) ++next;
        }
        double sectors = 0;
        std::size_t warps = 0;
        for (std::size_t s = 0; s + 32 <= n; s += 32, ++warps) {
            std::vector<cl_uint> written(order.begin() + s, order.begin() + s + 32);
            for (cl_uint& w : written)
                w /= 8;  // 8 uints a sector
            std::sort(written.begin(), written.end());
            sectors += std::unique(written.begin(), written.end()) - written.begin();
        }
        std::sort(drift.begin(), drift.end());
        std::printf(
            "step %2d: |order[s] - s| median %ld, p99 %ld, p99.9 %ld; next slot next %.1f%%; "
            "sectors a warp writes %.1f\n",
            step, drift[n / 2], drift[n * 99 / 100], drift[n * 999 / 1000],
            100.0 * static_cast<double>(next) / static_cast<double>(n),
            sectors / static_cast<double>(warps));
    }
}
