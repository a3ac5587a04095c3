#include "compute/core/compute_context.hpp"

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

ComputeContext::ComputeContext(const std::vector<PlatformInfo>& platforms,
                               const DeviceChoice& choice) {
    init(platforms, choice, {});
}

ComputeContext::ComputeContext(const std::vector<PlatformInfo>& platforms,
                               const DeviceChoice& choice,
                               const std::vector<cl_context_properties>& extraProperties) {
    init(platforms, choice, extraProperties);
}

ComputeContext::~ComputeContext() = default;

void ComputeContext::finishQuietly() {
    try {
        queue_.finish();
    } catch (const cl::Error&) {
    }
}

void ComputeContext::init(const std::vector<PlatformInfo>& platforms, const DeviceChoice& choice,
                          const std::vector<cl_context_properties>& extraProperties) {
    clBoundary([&] { return "cannot create an OpenCL context on " + info_.name; },
               [&] {
                   std::vector<cl::Platform> all;
                   cl::Platform::get(&all);
                   if (choice.platform < 0 || choice.platform >= static_cast<int>(all.size()))
                       throw Error("platform index out of range");
                   platform_ = all[choice.platform];
                   std::vector<cl::Device> devices;
                   platform_.getDevices(CL_DEVICE_TYPE_ALL, &devices);
                   if (choice.device < 0 || choice.device >= static_cast<int>(devices.size()))
                       throw Error("device index out of range");
                   device_ = devices[choice.device];
                   info_ = platforms.at(choice.platform).devices.at(choice.device);
                   choice_ = choice;
                   if (info_.version.rfind("OpenCL 1.0", 0) == 0 ||
                       info_.version.rfind("OpenCL 1.1", 0) == 0)
                       throw Error(info_.name + " reports " + info_.version +
                                   "; clviz needs OpenCL 1.2 or newer");

                   std::vector<cl_context_properties> props = {
                       CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_())};
                   props.insert(props.end(), extraProperties.begin(), extraProperties.end());
                   props.push_back(0);
                   context_ = cl::Context(device_, props.data());
                   queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE);
               });
    programs_ = std::make_unique<ProgramCache>(context_, device_);
}

std::unique_ptr<ComputeContext> ComputeContext::create(const DeviceRequest& request) {
    auto platforms = queryPlatforms();
    auto choice = chooseDevice(platforms, request);
    return std::make_unique<ComputeContext>(platforms, choice);
}

}  // namespace clviz
