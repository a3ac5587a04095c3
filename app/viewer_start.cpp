#include "app/viewer_start.hpp"

#include "app/cli.hpp"
#include "app/demo_registry.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

bool ofType(const DeviceInfo& device, DeviceTypeFilter type) {
    return type == DeviceTypeFilter::All ||
           device.kind == (type == DeviceTypeFilter::Gpu ? DeviceKind::Gpu : DeviceKind::Cpu);
}

int startDemo(const std::string& id) {
    const auto& demos = registeredDemos();
    if (id.empty()) return demos.empty() ? -1 : 0;
    const DemoEntry* entry = findDemo(id);
    if (!entry)
        throw UsageError("unknown --demo " + quotedPath(id) + " (available: " + demoIdList() + ")");
    return static_cast<int>(entry - demos.data());
}

}  // namespace

void checkNamedDevices(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                       const std::string& devices) {
    const bool named = request.platform || request.device ||
                       request.type != DeviceTypeFilter::All || !devices.empty();
    if (!named || platforms.empty()) return;
    try {
        chooseDevice(platforms, request);
        if (!devices.empty()) chooseDevices(platforms, devices, request.platform);
    } catch (const UsageError&) {
        throw;
    } catch (const Error& e) {
        throw UsageError(e.what());
    }
}

void checkNamedDevices(const std::vector<PlatformInfo>& platforms, const AppOptions& options) {
    checkNamedDevices(platforms, options.device, "");
    if (platforms.empty()) return;
    for (const DemoFlag& f : registeredDemoFlags()) {
        if (!f.checkDevices) continue;
        for (const auto& kv : options.settings) {
            if (kv.key != f.key) continue;
            try {
                f.checkDevices(platforms, options.device, kv.value);
            } catch (const UsageError&) {
                throw;
            } catch (const Error& e) {
                throw UsageError(e.what());
            }
        }
    }
}

ViewerStart chooseViewerStart(const AppOptions& options) {
    ViewerStart start;
    start.demo = startDemo(options.demo);
    start.platforms = queryPlatforms();
    // A device the command line names but the machine lacks is a bad command line (exit 2, as
    // --help says); without such flags a failure means no usable device at all (exit 1).
    checkNamedDevices(start.platforms, options);
    start.device = chooseDevice(start.platforms, options.device);
    return start;
}

DeviceChoice preferGlDevice(const std::vector<PlatformInfo>& platforms,
                            const DeviceRequest& request, DeviceChoice chosen,
                            const std::optional<std::pair<int, int>>& glDevice) {
    if (request.platform || request.device || !glDevice) return chosen;
    const auto [p, d] = *glDevice;
    if (p < 0 || p >= static_cast<int>(platforms.size()) || d < 0 ||
        d >= static_cast<int>(platforms[p].devices.size()) ||
        !ofType(platforms[p].devices[d], request.type))
        return chosen;
    return {p, d, "it drives the OpenGL context (clGetGLContextInfoKHR)"};
}

}  // namespace clviz
