// Probe for issue 31 round 7 (not part of the CMake build): the group walk's force error at
// theta 0.5 for several far-field angles (TreeForceOptions::thetaFar) on the colliding galaxies and
// on a Plummer sphere of N bodies (TreeForce::accuracy: 2,048 sampled bodies against the device's
// direct sum), and the per-body list length. tree-phases times the kernels; this checks the
// presets tree-phases does not build. Build as tree_phases.cpp says, with this file.
// Usage: far-sweep N THETA_FAR...
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/tree/tree_force.hpp"
using namespace clviz;

int main(int argc, char** argv) {
    if (argc < 3 || std::atoi(argv[1]) < 1) {
        std::fprintf(stderr, "usage: far-sweep N THETA_FAR...\n");
        return 2;
    }
    auto cc = ComputeContext::create(DeviceRequest{});
    for (NbodyPreset preset : {NbodyPreset::CollidingGalaxies, NbodyPreset::Plummer}) {
        const std::size_t n = std::atoi(argv[1]);
        const auto bodies = makePreset(preset, n, 1);
        std::vector<Float4> pos;
        for (const auto& b : bodies)
            pos.push_back(b.pos);
        const float eps = presetInfo(preset).softening;
        cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16),
            accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
        for (int a = 2; a < argc; ++a) {
            TreeForceOptions o{TreeWalk::Group};
            o.thetaFar = std::atof(argv[a]);
            TreeForce t(*cc, o);
            t.setTheta(0.5f);
            t.compute(posBuf, n, eps, accBuf);
            const auto acc = t.accuracy(posBuf, n, eps, accBuf, 2048);
            std::printf("%s n=%zu thetaFar=%.2f list %.0f median %.2e p99 %.2e\n",
                        preset == NbodyPreset::Plummer ? "plummer" : "collision", n, o.thetaFar,
                        t.lastWalkStats().interactionsPerBody, acc.median, acc.p99);
            std::fflush(stdout);
        }
    }
}
