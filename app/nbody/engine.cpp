#include "app/nbody/engine.hpp"

#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

std::unique_ptr<NbodySystem> makeNbodySystem(ComputeContext& drawing,
                                             const std::vector<ComputeContext*>& more,
                                             const NbodyEnvironment& env, const NbodyMpiLink* mpi) {
    if (mpi) return std::make_unique<NbodyMpiLeader>(drawing, *mpi, env);
    if (more.empty()) return std::make_unique<NbodySimulation>(drawing, env);
    std::vector<ComputeContext*> all{&drawing};
    all.insert(all.end(), more.begin(), more.end());
    return std::make_unique<NbodyMultiDevice>(all, env);
}

}  // namespace clviz
