#pragma once
// What the split pairs and tree force passes share between one process's devices and MPI ranks:
// adding the devices' partial accelerations, and the time the balancer follows.
#include <cstddef>
#include <vector>

#include "compute/nbody/multi/slice_plan.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

// parts[d] holds device d's part of every body's acceleration (4 floats a body). For each device's
// slice, the sum over all parts, added in device order 0, 1, ... (the same order on every run),
// is written into that device's own part. Threads split the bodies when there are many.
void sumSharedAccelerations(const std::vector<float*>& parts, const std::vector<BodySlice>& slices);

// The force time a device's share costs: the tree's walk alone (every device builds the whole
// tree, so the build does not shrink with the share), otherwise the whole force pass.
double balancedForceMs(const NbodyStepTimings& t);

}  // namespace clviz
