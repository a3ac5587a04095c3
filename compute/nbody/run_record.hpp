#pragma once
// The N-body force pass of one step() call as a run for the roofline chart (kernel_run_log.hpp).
// Flops follow the all-pairs convention every N-body figure in clviz uses: 20 per interaction,
// N² interactions per step (GPU Gems 3, ch. 31). The pairs variant computes each pair's force
// once, N (N - 1) / 2 of them, and adds it to both bodies: its point counts 26 flops a pair
// (countNbodyWork), since a chart of ceilings must show work done, not the all-pairs equivalent,
// which would put it at 1.5 times its rate. Bytes are the least a force pass moves: each body's
// position read and its acceleration (or velocity) written once.
#include <optional>

#include "common/roofline.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

// nullopt for the tree (it does not do N² interactions) and when nothing was timed.
std::optional<RooflinePoint> nbodyForceRun(const NbodyStepTimings& timings, NbodyVariant variant,
                                           NbodyPrecision precision);

}  // namespace clviz
