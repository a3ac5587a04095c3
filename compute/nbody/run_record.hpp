#pragma once
// The N-body force pass of one step() call as a run for the roofline chart (kernel_run_log.hpp).
// Flops follow the all-pairs convention every N-body figure in clviz uses: 20 per interaction,
// N² interactions per step (GPU Gems 3, ch. 31). The pairs variant does each pair once, so for it
// the figure is the all-pairs equivalent, and the name says so. Bytes are the least a force pass
// moves: each body's position read and its acceleration (or velocity) written once.
#include <optional>

#include "common/roofline.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

// nullopt for the tree (it does not do N² interactions) and when nothing was timed.
std::optional<RooflinePoint> nbodyForceRun(const NbodyStepTimings& timings, NbodyVariant variant,
                                           NbodyPrecision precision);

}  // namespace clviz
