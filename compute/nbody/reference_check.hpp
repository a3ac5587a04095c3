#pragma once
// Live reload's check of the N-body kernels: O(samples * N) against double-precision sums.
#include <vector>

#include "compute/core/reference_check.hpp"
#include "compute/nbody/body.hpp"

namespace clviz {

class NbodySimulation;

// Accelerations of `samples` bodies spread over the current state (device force kernel, current
// variant and N) against double-precision sums over all N; then one step of those bodies alone
// (same integrator, parameters and variant) against referenceStep(). The tree at theta > 0
// approximates those sums: its sample runs at theta 0 (forces and step judged), and the whole
// system's error is reported as its approximation, judged only to be finite. Leaves the state
// alone.
ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, int samples = 64);
// The same when the state is split over devices: `bodies` and `acc` (4 doubles per body) are the
// whole system's, read from every owner; `sim` runs the sample's step and gives the settings.
ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, const std::vector<Body>& bodies,
                                          const std::vector<double>& acc, int samples = 64);

}  // namespace clviz
