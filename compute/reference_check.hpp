#pragma once
// The correctness guard of live reload: after editing a kernel, check a small sample of what the
// demo is running right now against the CPU reference, so a broken physics or filter shows at
// once. Cheap enough for a button: O(samples * N) for N-body, a crop of at most 256x256 pixels
// for the image lab.
#include <string>
#include <vector>

#include "compute/nbody/body.hpp"

namespace clviz {

class NbodySimulation;
class ImagePipeline;
class ComputeContext;

struct ReferenceCheck {
    bool ok = false;
    std::string message;  // one line: what was compared and the worst error
};

// Accelerations of `samples` bodies spread over the current state (device force kernel, current
// variant and N) against double-precision sums over all N; then one step of those bodies alone
// (same integrator, parameters and variant) against referenceStep(). Leaves the state alone.
ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, int samples = 64);
// The same when the state is split over devices: `bodies` and `acc` (4 doubles per body) are the
// whole system's, read from every owner; `sim` runs the sample's step and gives the settings.
ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, const std::vector<Body>& bodies,
                                          const std::vector<double>& acc, int samples = 64);

// The enabled filters, one at a time, on a centred crop (at most maxSide x maxSide) of the
// current source, each against its CPU reference, with the tolerances the tests use.
ReferenceCheck checkImageAgainstReference(ComputeContext& cc, const ImagePipeline& live,
                                          int maxSide = 256);

}  // namespace clviz
