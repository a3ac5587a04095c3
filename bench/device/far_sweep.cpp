// Probe for issue 31 rounds 7 and 8 (not part of the CMake build): the group walk's force error for
// several far-field angles (TreeForceOptions::thetaFar) on the presets of $FAR_PRESETS (default
// "collision plummer") of N bodies (TreeForce::accuracy: up to 4,096 sampled bodies against the
// device's direct sum), and the per-body list length, at each opening angle of $FAR_THETAS (default
// 0.5) and each expansion order of $FAR_ORDERS (TreeForceOptions::farOrder, default 4). tree-phases
// times the kernels; this checks the presets tree-phases does not build. Build as tree_phases.cpp
// says, with this file. Each tree computes $FAR_PASSES times (default 3) before its error is
// taken, as tree-phases does: on the H100 a fresh TreeForce's first pass at 1M gave other list
// lengths (and errors) than identical configurations' (issue 31 round 8); "first list" is the
// first pass's.
// Usage: [FAR_PRESETS="cube shell plummer disk collision"] [FAR_THETAS="0.5 0.55"]
//        [FAR_ORDERS="3 4"] [FAR_PASSES=3] far-sweep N THETA_FAR...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/tree/tree_force.hpp"
using namespace clviz;

namespace {
template <typename T>
std::vector<T> listFromEnv(const char* name, const char* fallback) {
    std::istringstream in(std::getenv(name) ? std::getenv(name) : fallback);
    std::vector<T> v;
    for (T x; in >> x;)
        v.push_back(x);
    return v;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || std::atoi(argv[1]) < 1) {
        std::fprintf(stderr, "usage: far-sweep N THETA_FAR...\n");
        return 2;
    }
    const auto thetas = listFromEnv<float>("FAR_THETAS", "0.5");
    const auto orders = listFromEnv<int>("FAR_ORDERS", "4");
    const auto passList = listFromEnv<int>("FAR_PASSES", "3");
    const int passes = passList.empty() ? 3 : std::max(1, passList[0]);
    auto cc = ComputeContext::create(DeviceRequest{});
    for (const std::string& name : listFromEnv<std::string>("FAR_PRESETS", "collision plummer")) {
        const NbodyPreset preset = parsePreset(name);
        const std::size_t n = std::atoi(argv[1]);
        const auto bodies = makePreset(preset, n, 1);
        std::vector<Float4> pos;
        for (const auto& b : bodies)
            pos.push_back(b.pos);
        const float eps = presetInfo(preset).softening;
        cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16),
            accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
        for (float theta : thetas)
            for (int order : orders)
                for (int a = 2; a < argc; ++a) {
                    TreeForceOptions o{TreeWalk::Group};
                    o.thetaFar = std::atof(argv[a]);
                    o.farOrder = order;
                    TreeForce t(*cc, o);
                    t.setTheta(theta);
                    t.compute(posBuf, n, eps, accBuf);
                    const double firstList = t.lastWalkStats().interactionsPerBody;
                    for (int pass = 1; pass < passes; ++pass)
                        t.compute(posBuf, n, eps, accBuf);
                    const auto acc = t.accuracy(posBuf, n, eps, accBuf,
                                                static_cast<int>(std::min<std::size_t>(n, 4096)));
                    std::printf(
                        "%s n=%zu theta=%.2f order=%d thetaFar=%.2f list %.0f median %.2e "
                        "p99 %.2e first list %.0f\n",
                        name.c_str(), n, theta, order, o.thetaFar,
                        t.lastWalkStats().interactionsPerBody, acc.median, acc.p99, firstList);
                    std::fflush(stdout);
                }
    }
}
