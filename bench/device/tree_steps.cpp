// Probe for issue 31 (not part of the CMake build; built as tree_phases.cpp, N and steps as
// arguments): steps a Plummer sphere with the tree (NbodySimulation, theta 0.55, the preset's dt
// and softening) and prints, after each step, the walk's list length per body, groups and
// iterations, aggregates of the state that rounding noise barely moves (mean radius, mean v^2,
// mean vx), the step's kernel time and its walk stage (find_groups, walk, scatter). Builds of
// two commits stepping the same sphere show whether their states part.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
using namespace clviz;
int main(int argc, char** argv) {
    const std::size_t n = std::strtoull(argv[1], nullptr, 10);
    const int steps = std::atoi(argv[2]);
    auto cc = ComputeContext::create(DeviceRequest{});
    NbodySimulation sim(*cc);
    NbodyParams p;
    p.dt = presetInfo(NbodyPreset::Plummer).dt;
    p.softening = presetInfo(NbodyPreset::Plummer).softening;
    p.theta = 0.55f;
    sim.setParams(p);
    sim.load(makePreset(NbodyPreset::Plummer, n, 1));
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    sim.setKernelConfig(c);
    for (int s = 0; s < steps; ++s) {
        sim.step(1);
        const NbodyStepTimings t = sim.lastStepTimings();
        double walk = 0;
        for (const auto& k : t.kernels)
            if (k.kernel == "tree-walk") walk += k.ms;
        const TreeWalkStats w = sim.treeWalkStats();
        auto b = sim.readBodies();
        double r = 0, v2 = 0, vx = 0;
        for (auto& x : b) {
            r += std::sqrt(double(x.pos.x) * x.pos.x + double(x.pos.y) * x.pos.y +
                           double(x.pos.z) * x.pos.z);
            v2 += double(x.vel.x) * x.vel.x + double(x.vel.y) * x.vel.y + double(x.vel.z) * x.vel.z;
            vx += x.vel.x;
        }
        std::printf(
            "step %d list %.2f groups %d iter/group %.2f mean r %.9f mean v2 %.9f mean vx "
            "%.3e step %.2f ms walk stage %.2f ms\n",
            s + 1, w.interactionsPerBody, w.groups, w.iterationsPerGroup, r / n, v2 / n, vx / n,
            t.kernelMs, walk);
    }
}
