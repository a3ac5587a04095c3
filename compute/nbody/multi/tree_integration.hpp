#pragma once
// Who integrates the tree's bodies when it is split over the devices of one process. After the
// tree's exchange every device holds every body's acceleration (each device's Morton domain
// arrives in every sorted buffer), so:
//   owners:     each device kicks and drifts the bodies it owns by index, then the positions are
//               all-gathered before the next build (16 bytes a body reach every device);
//   replicated: every device kicks and drifts every body itself. The integration kernels are
//               elementwise, so identical devices (same name, vendor, device and driver version,
//               the same integration programs: build options and source) compute bit-identical
//               positions and velocities from the same inputs, and the all-gather disappears.
// Mixed devices keep the owners (two compilers may contract a multiply-add differently, and one
// differing bit would give the devices different trees, whose sorted slices no longer fit).
#include <string>
#include <vector>

namespace clviz {

class ComputeContext;

enum class NbodyTreeIntegration { Auto, Owners, Replicated };

const char* treeIntegrationName(NbodyTreeIntegration m);  // "auto", "owners", "replicated"
// Throws clviz::Error naming the accepted values for anything else.
NbodyTreeIntegration parseTreeIntegration(const std::string& text);
std::string treeIntegrationChoiceText();  // "auto|owners|replicated"

// What must agree between two devices for their elementwise kernels to give the same bits.
struct NbodyDeviceIdentity {
    std::string name, vendor, version, driverVersion;
    std::string programs;  // the integration programs each device built: file, options, source
};

// The identity of the device behind `cc`, with the programs its cache has built so far of the
// files whose kernels move the bodies when every device integrates.
NbodyDeviceIdentity deviceIdentity(ComputeContext& cc);

struct NbodyTreeIntegrationChoice {
    bool replicated = false;
    std::string why;  // one line for the log and the benchmark's note
};

// The choice for `mode` over these devices; `tree`: the split runs the tree (the only split whose
// exchange brings every acceleration to every device). Replicated only where every device is
// identical to the first; otherwise the owners, with the first difference as the reason (also
// for mode Replicated: the caller refuses that where it must, see NbodyMultiDevice).
NbodyTreeIntegrationChoice chooseTreeIntegration(NbodyTreeIntegration mode,
                                                 const std::vector<NbodyDeviceIdentity>& devices,
                                                 bool tree);

}  // namespace clviz
