// One-off probe for issue 13 (not part of the CMake build): times the device tree's stages on a
// Plummer sphere and, for the sort decision, Boost.Compute's radix sort_by_key on the same number
// of 64-bit keys with 32-bit values, on the same device and queue kind. Needs libboost-dev headers.
// Build (from the repository root, after building clviz_compute in build/):
//   g++ -std=c++20 -O2 -I. -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
//     -DCL_HPP_ENABLE_EXCEPTIONS -DCL_TARGET_OPENCL_VERSION=300 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS
//     \
//     bench/device/tree_probe.cpp build/compute/libclviz_compute.a -Wl,--as-needed -lOpenCL \
//     -pthread -o tree-probe
// ENERGY=N:STEPS also runs leapfrog on a Plummer sphere of N bodies for STEPS steps with the tree
// (theta 0.5) and with vectorized all-pairs, and prints the relative energy drift of each.
// Usage: TREE_CONFIGS="wg:leaf:theta:list:stack ..." tree-probe N... (one line per N and config;
// "boost" rows are skipped above 2^24 keys).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <boost/compute/algorithm/detail/radix_sort.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/container/vector.hpp>

#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/tree/tree_force.hpp"

using namespace clviz;
namespace bc = boost::compute;

int main(int argc, char** argv) {
    auto cc = ComputeContext::create(DeviceRequest{});
    std::printf("device: %s\n", cc->info().name.c_str());
    struct Config {
        int wg, leaf;
        float theta;
        int list, stack;
    };
    std::vector<Config> configs;
    std::istringstream in(std::getenv("TREE_CONFIGS") ? std::getenv("TREE_CONFIGS") : "64:4:0.5");
    for (std::string c; in >> c;) {
        Config k{64, 4, 0.5f, 256, 512};
        std::sscanf(c.c_str(), "%d:%d:%f:%d:%d", &k.wg, &k.leaf, &k.theta, &k.list, &k.stack);
        configs.push_back(k);
    }
    if (const char* e = std::getenv("ENERGY")) {
        std::size_t n = 0;
        int steps = 0;
        std::sscanf(e, "%zu:%d", &n, &steps);
        for (NbodyVariant v : {NbodyVariant::Tree, NbodyVariant::Vectorized}) {
            NbodySimulation sim(*cc);
            sim.load(makePreset(NbodyPreset::Plummer, n, 1));
            NbodyParams p;
            p.dt = presetInfo(NbodyPreset::Plummer).dt;
            p.softening = presetInfo(NbodyPreset::Plummer).softening;
            p.theta = 0.5f;
            sim.setParams(p);
            sim.setIntegrator(NbodyIntegrator::Leapfrog);
            sim.setVariant(v);
            sim.resetEnergyReference();
            const auto t0 = std::chrono::steady_clock::now();
            for (int s = 0; s < steps; s += 100) {
                sim.step(std::min(100, steps - s));
                cc->queue().finish();
            }
            const double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const NbodyDiagnostics d = sim.diagnostics();
            std::printf("energy %s N=%zu steps=%d dt=%g eps=%g theta=0.5 leapfrog: relative drift "
                        "%.3e (E0 %.6f, E %.6f), %.2f ms/step wall\n",
                        variantName(v), n, steps, p.dt, p.softening, d.relativeEnergyDrift,
                        d.initialEnergy, d.total, wall * 1e3 / steps);
            std::fflush(stdout);
        }
    }
    for (int a = 1; a < argc; ++a) {
        const std::size_t n = std::strtoull(argv[a], nullptr, 10);
        const auto bodies = makePreset(NbodyPreset::Plummer, n, 1);
        std::vector<Float4> pos;
        for (const auto& b : bodies)
            pos.push_back(b.pos);
        cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cl::Buffer accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
        for (const Config& cfg : configs) {
            TreeForce tree(*cc, TreeForceOptions{cfg.wg, cfg.leaf, cfg.list, cfg.stack});
            tree.setTheta(cfg.theta);
            std::vector<double> box, keys, sort, build, mom, walk, total, wall;
            for (int rep = 0; rep < 7; ++rep) {
                const auto t0 = std::chrono::steady_clock::now();
                tree.compute(posBuf, n, 0.05f, accBuf);
                cc->queue().finish();
                const double w =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
                const TreeStageTimes t = tree.lastTimes();
                if (rep < 2) continue;
                box.push_back(t.box), keys.push_back(t.keys), sort.push_back(t.sort);
                build.push_back(t.build), mom.push_back(t.moments), walk.push_back(t.walk);
                total.push_back(t.total()), wall.push_back(w);
            }
            const TreeWalkStats ws = tree.lastWalkStats();
            const TreeAccuracy acc = tree.accuracy(posBuf, n, 0.05f, accBuf, 256);
            std::printf(
                "tree n=%zu wg=%d leaf=%d list=%d stack=%d theta=%.2f box %.3f keys %.3f sort %.3f "
                "build %.3f "
                "moments %.3f walk %.3f total %.3f ms wall %.3f ms | list/body %.0f iter/group "
                "%.0f fallbacks %d | err median %.2e p99 %.2e\n",
                n, tree.groupSize(), cfg.leaf, cfg.list, cfg.stack, cfg.theta, median(box),
                median(keys), median(sort), median(build), median(mom), median(walk), median(total),
                median(wall), ws.interactionsPerBody, ws.iterationsPerGroup, ws.fallbacks,
                acc.median, acc.p99);
            std::fflush(stdout);
        }
        if (std::getenv("NO_BOOST")) continue;

        if (n > (std::size_t{1} << 24)) continue;
        bc::command_queue q(cc->queue()(), true);
        std::mt19937_64 rng(1);
        std::vector<cl_ulong> hostKeys(n);
        std::vector<cl_uint> hostVals(n);
        for (std::size_t i = 0; i < n; ++i)
            hostKeys[i] = rng() >> 1, hostVals[i] = cl_uint(i);
        bc::vector<cl_ulong> k(n, q.get_context());
        bc::vector<cl_uint> v(n, q.get_context());
        std::vector<double> ms;
        for (int rep = 0; rep < 5; ++rep) {
            bc::copy(hostKeys.begin(), hostKeys.end(), k.begin(), q);
            bc::copy(hostVals.begin(), hostVals.end(), v.begin(), q);
            q.finish();
            const auto t0 = std::chrono::steady_clock::now();
            bc::detail::radix_sort_by_key(k.begin(), k.end(), v.begin(), q);
            q.finish();
            if (rep >= 1)
                ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count());
        }
        std::printf("boost radix_sort_by_key n=%zu ulong keys + uint values: %.3f ms wall\n", n,
                    median(ms));
        std::fflush(stdout);
    }
}
