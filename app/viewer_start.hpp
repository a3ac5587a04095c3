#pragma once
// What the viewer starts with, decided once by runApp before any window opens (so a bad
// --platform, --device or --demo fails fast, even without a display): the platforms, the OpenCL
// device, and the first demo. The Application takes them as they are.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/device_info.hpp"
#include "compute/core/device_select.hpp"

namespace clviz {

struct AppOptions;

struct ViewerStart {
    std::vector<PlatformInfo> platforms;
    DeviceChoice device;
    int demo = -1;  // index into registeredDemos(); -1 when none is registered
};

// Queries the platforms, chooses the device and resolves --demo. Throws UsageError for an
// unknown --demo or a device the command line names that the machine lacks (exit 2), clviz::Error
// when there is no usable device at all (exit 1).
ViewerStart chooseViewerStart(const AppOptions& options);

// The devices a command line names (-p, -d, --device-type, --devices) exist: throws UsageError
// with chooseDevice's reason when they do not. Nothing is checked without such flags or without
// platforms (then no device is the machine's problem, not the command line's). `devices` is a
// device set (the benchmark's --devices); "" for none.
void checkNamedDevices(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                       const std::string& devices);
// The same for the viewer's command line: -p/-d/--device-type and the demos' flags that name
// devices (DemoFlag::checkDevices, e.g. the N-body's --devices).
void checkNamedDevices(const std::vector<PlatformInfo>& platforms, const AppOptions& options);

// Once the window exists: the device that drives its GL context (`glDevice`, from
// clGetGLContextInfoKHR) can share buffers with it, so when the command line named no platform and
// no device, and it is of the requested type, it replaces the choice. Otherwise `chosen` stays.
DeviceChoice preferGlDevice(const std::vector<PlatformInfo>& platforms,
                            const DeviceRequest& request, DeviceChoice chosen,
                            const std::optional<std::pair<int, int>>& glDevice);

}  // namespace clviz
