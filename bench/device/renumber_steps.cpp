// Probe for issue 32 (not part of the CMake build): what renumbering the bodies into the tree's
// Morton order (NbodySimulation::kTreeRenumberPasses) costs and saves, step by step. Steps a
// Plummer sphere (the preset's dt and softening, theta 0.5, far field 0.55) with the tree, once
// renumbering and once not (setRenumbering(false)), and prints each step's kernel time and the
// stages the order touches: tree-build (its first kernel gathers the positions into the tree's
// order), tree-walk (ends with the scatter of the accelerations back) and renumber.
// Build (from the repository root, after building clviz_compute in build/):
//   g++ -std=c++20 -O2 -I. -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
//     -DCL_HPP_ENABLE_EXCEPTIONS -DCL_TARGET_OPENCL_VERSION=300 \
//     -DCL_USE_DEPRECATED_OPENCL_1_2_APIS bench/device/renumber_steps.cpp \
//     build/compute/nbody/libclviz_nbody.a build/compute/core/libclviz_compute_core.a \
//     build/common/libclviz_common.a -lOpenCL -pthread -o renumber-steps
// Usage: renumber-steps N STEPS
#include <cstdio>
#include <cstdlib>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"

using namespace clviz;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: renumber-steps N STEPS\n");
        return 2;
    }
    const std::size_t n = std::strtoull(argv[1], nullptr, 10);
    const int steps = std::atoi(argv[2]);
    auto cc = ComputeContext::create(DeviceRequest{});
    std::printf("device: %s, N = %zu\n", cc->info().name.c_str(), n);
    const auto bodies = makePreset(NbodyPreset::Plummer, n, 1);
    for (bool renumber : {true, false}) {
        NbodySimulation sim(*cc);
        NbodyParams p;
        p.dt = presetInfo(NbodyPreset::Plummer).dt;
        p.softening = presetInfo(NbodyPreset::Plummer).softening;
        p.theta = 0.5f;
        p.thetaFar = presetInfo(NbodyPreset::Plummer).thetaFar;
        sim.setParams(p);
        NbodyKernelConfig c;
        c.variant = NbodyVariant::Tree;
        sim.setKernelConfig(c);
        sim.setRenumbering(renumber);
        sim.load(bodies);
        double sum = 0;
        for (int s = 0; s < steps; ++s) {
            sim.step(1);
            const NbodyStepTimings t = sim.lastStepTimings();
            double build = 0, walk = 0, renum = 0;
            for (const auto& k : t.kernels) {
                if (k.kernel == "tree-build") build += k.ms;
                if (k.kernel == "tree-walk") walk += k.ms;
                if (k.kernel == "renumber") renum += k.ms;
            }
            if (s > 0) sum += t.kernelMs;  // the first step holds the load's renumbering
            std::printf("%s step %2d kernels %.3f ms build %.3f walk %.3f renumber %.3f\n",
                        renumber ? "renumbering" : "plain", s + 1, t.kernelMs, build, walk, renum);
        }
        std::printf("%s: steps 2..%d mean %.3f ms\n", renumber ? "renumbering" : "plain", steps,
                    steps > 1 ? sum / (steps - 1) : 0.0);
    }
}
