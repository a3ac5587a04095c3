#include "compute/nbody/multi/device_timings.hpp"

#include "compute/nbody/simulation.hpp"

namespace clviz {

std::vector<std::pair<std::string, double>> kernelPhases(const NbodyStepTimings& t) {
    std::vector<std::pair<std::string, double>> phases;
    auto add = [&](const std::string& phase, double ms) {
        for (auto& p : phases)
            if (p.first == phase) {
                p.second += ms;
                return;
            }
        phases.push_back({phase, ms});
    };
    const double steps = t.steps > 0 ? t.steps : 1;
    for (const NbodyKernelTime& k : t.kernels) {
        // "tree-scatter": a split's accelerations back to the body order with the closing kick.
        const std::string phase = k.kernel == "tree-walk"           ? "tree walk"
                                  : k.kernel == "tree-kick"         ? "integrate"
                                  : k.kernel == "tree-scatter"      ? "integrate"
                                  : k.kernel.rfind("tree-", 0) == 0 ? "tree build"
                                  : k.kernel.rfind("force", 0) == 0 ? "force"
                                                                    : "integrate";
        add(phase, k.ms / steps);
    }
    return phases;
}

}  // namespace clviz
