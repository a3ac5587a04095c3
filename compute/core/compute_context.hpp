#pragma once
// The OpenCL context, device and in-order profiling queue every pipeline shares.
#include <memory>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/device_select.hpp"

namespace clviz {

class ProgramCache;

class ComputeContext {
  public:
    // Creates a plain context on the chosen device. Throws clviz::Error.
    ComputeContext(const std::vector<PlatformInfo>& platforms, const DeviceChoice& choice);
    // Creates a context with extra properties (GL sharing); `choice` still describes the device.
    ComputeContext(const std::vector<PlatformInfo>& platforms, const DeviceChoice& choice,
                   const std::vector<cl_context_properties>& extraProperties);
    ~ComputeContext();
    ComputeContext(const ComputeContext&) = delete;
    ComputeContext& operator=(const ComputeContext&) = delete;

    // Chooses with chooseDevice() and creates the context: the usual headless entry point.
    static std::unique_ptr<ComputeContext> create(const DeviceRequest& request);

    const cl::Context& context() const { return context_; }
    const cl::Device& device() const { return device_; }
    const cl::Platform& platform() const { return platform_; }
    cl::CommandQueue& queue() { return queue_; }
    // queue().finish() with OpenCL errors swallowed: for shutdown and fallback paths that must go
    // on (the failing command has already reported its error where it was waited for).
    void finishQuietly();
    const DeviceInfo& info() const { return info_; }
    const DeviceChoice& choice() const { return choice_; }
    ProgramCache& programs() { return *programs_; }

  private:
    void init(const std::vector<PlatformInfo>& platforms, const DeviceChoice& choice,
              const std::vector<cl_context_properties>& extraProperties);

    cl::Platform platform_;
    cl::Device device_;
    cl::Context context_;
    cl::CommandQueue queue_;
    DeviceInfo info_;
    DeviceChoice choice_;
    std::unique_ptr<ProgramCache> programs_;
};

}  // namespace clviz
