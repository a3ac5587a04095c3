#include "compute/nbody/multi/tree_integration.hpp"

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

namespace {

// The programs whose kernels touch the state when every device integrates: the kick-drift and
// Taylor updates, and the tree (its build must match for the sorted slices to fit, its
// scatter_accelerations returns them to the body order). The closing kick is nbody_pairs.cl's
// nbody_pairs_kick, built with fixed options on every device.
constexpr const char* kStateFiles[] = {"nbody_integrate.cl", "nbody_tree.cl"};

}  // namespace

const char* treeIntegrationName(NbodyTreeIntegration m) {
    switch (m) {
        case NbodyTreeIntegration::Owners:
            return "owners";
        case NbodyTreeIntegration::Replicated:
            return "replicated";
        case NbodyTreeIntegration::Auto:
            break;
    }
    return "auto";
}

std::string treeIntegrationChoiceText() {
    return "auto|owners|replicated";
}

NbodyTreeIntegration parseTreeIntegration(const std::string& text) {
    for (NbodyTreeIntegration m : {NbodyTreeIntegration::Auto, NbodyTreeIntegration::Owners,
                                   NbodyTreeIntegration::Replicated})
        if (text == treeIntegrationName(m)) return m;
    throw Error("the tree's integration must be one of " + treeIntegrationChoiceText() + ", got '" +
                text + "'");
}

NbodyDeviceIdentity deviceIdentity(ComputeContext& cc) {
    const DeviceInfo& info = cc.info();
    NbodyDeviceIdentity id{info.name, info.vendor, info.version, info.driverVersion, ""};
    for (const char* file : kStateFiles)
        for (const std::string& options : cc.programs().optionsOf(file)) {
            const auto hash = cc.programs().sourceHashOf(file, options);
            id.programs += std::string(file) + " [" + options + "] #" +
                           std::to_string(hash ? *hash : 0) + "; ";
        }
    return id;
}

NbodyTreeIntegrationChoice chooseTreeIntegration(NbodyTreeIntegration mode,
                                                 const std::vector<NbodyDeviceIdentity>& devices,
                                                 bool tree) {
    if (devices.size() < 2) return {false, "one device: it moves every body"};
    if (!tree)
        return {false,
                "owners: only the tree's exchange brings every acceleration to every device"};
    if (mode == NbodyTreeIntegration::Owners) return {false, "owners (asked)"};
    const NbodyDeviceIdentity& first = devices.front();
    for (std::size_t d = 1; d < devices.size(); ++d) {
        const NbodyDeviceIdentity& other = devices[d];
        auto differs = [&](const char* what, const std::string& a, const std::string& b) {
            return NbodyTreeIntegrationChoice{false, "owners: device " + std::to_string(d) +
                                                         " differs from device 0 in " + what +
                                                         " ('" + b + "' against '" + a + "')"};
        };
        if (other.name != first.name) return differs("name", first.name, other.name);
        if (other.vendor != first.vendor) return differs("vendor", first.vendor, other.vendor);
        if (other.version != first.version) return differs("version", first.version, other.version);
        if (other.driverVersion != first.driverVersion)
            return differs("driver version", first.driverVersion, other.driverVersion);
        if (other.programs != first.programs)
            return differs("the integration programs", first.programs, other.programs);
    }
    return {true, "replicated: " + std::to_string(devices.size()) +
                      " identical devices (name, vendor, driver, programs) each move every body"};
}

}  // namespace clviz
