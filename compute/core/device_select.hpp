#pragma once
// Chooses the OpenCL device clviz runs on, from the user's request and what the machine has.
#include <optional>
#include <string>
#include <vector>

#include "compute/core/device_info.hpp"

namespace clviz {

enum class DeviceTypeFilter { All, Gpu, Cpu };

// Parses "cpu", "gpu" or "all"; throws clviz::Error otherwise.
DeviceTypeFilter parseDeviceTypeFilter(const std::string& text);

struct DeviceRequest {
    std::optional<std::string> platform;  // index ("1") or case-insensitive name part ("nvidia")
    std::optional<std::string> device;    // index within the platform, or name part
    DeviceTypeFilter type = DeviceTypeFilter::All;
    // The device that drives the GL context, when clGetGLContextInfoKHR could tell.
    std::optional<std::pair<int, int>> glDevice;
};

struct DeviceChoice {
    int platform = 0;
    int device = 0;
    std::string reason;  // shown to the user: why this device
};

// Throws clviz::Error with a message that says what was available when nothing fits.
DeviceChoice chooseDevice(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request);

// Several devices at once (`--devices`), in the order given:
//   all        every device (of --platform when given, else of every platform)
//   gpu, cpu   every device of that kind (same platform rule)
//   0,1        devices 0 and 1 of --platform, else of the first platform with a device
//   0.1,1.0    platform.device pairs as --list-devices numbers them (platforms may differ)
// Throws clviz::Error for an empty result, an unknown or repeated device, or bad syntax, naming
// what exists.
// The device of one MPI rank: `localRank` (its place among the ranks of its host) picks among the
// devices the request allows: the one -d names (ranks then share it), else every device of the
// requested type (and --platform) in order, taken round-robin.
DeviceChoice deviceForRank(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                           int localRank);

std::vector<DeviceChoice> chooseDevices(const std::vector<PlatformInfo>& platforms,
                                        const std::string& spec,
                                        const std::optional<std::string>& platform = {});

}  // namespace clviz
