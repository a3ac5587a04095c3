#pragma once
// What the N-body demo computes with: one device, the bodies split over several devices of the
// process (--devices; NbodyMultiDevice), or over the ranks of an MPI run (rank 0 of
// clviz --mpi --viewer; NbodyMpiLeader). All three are an NbodySystem: the demo reads kernel
// choice, notes and buffers from primary(), whose positions hold every body after each step, and
// sends whatever changes the state or the kernels through the system so every device gets it.
#include <memory>
#include <vector>

#include "compute/nbody/mpi/leader.hpp"
#include "compute/nbody/system.hpp"

namespace clviz {

class ComputeContext;
struct NbodyEnvironment;

// `drawing` draws (GL shares its buffers); `more` are the other devices of the split. With `mpi`
// the bodies are split over the MPI ranks instead.
std::unique_ptr<NbodySystem> makeNbodySystem(ComputeContext& drawing,
                                             const std::vector<ComputeContext*>& more,
                                             const NbodyEnvironment& env,
                                             const NbodyMpiLink* mpi = nullptr);

}  // namespace clviz
