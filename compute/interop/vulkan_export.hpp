#pragma once
// A minimal Vulkan device whose only job is to allocate memory that OpenGL and OpenCL can both
// import (neither can allocate exportable memory itself). The Vulkan loader is opened at run time
// (dlopen of libvulkan.so.1), so clviz runs on machines without one and says why external memory
// is unavailable instead of failing to start.
//
// Ownership: ExportedMemory keeps the device alive (shared_ptr), so whatever order the holders are
// destroyed in, memory goes before its device and the device before the instance. The GL and CL
// objects that alias the memory must be released before the ExportedMemory (the bridges do).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clviz {

using DeviceUuid = std::array<std::uint8_t, 16>;

// "0f1e2d3c-..." as Vulkan tools print it.
std::string formatUuid(const DeviceUuid& uuid);

struct VulkanDeviceState;  // instance, device and entry points (vulkan_export.cpp)

class ExportedMemory {
  public:
    ~ExportedMemory();
    ExportedMemory(const ExportedMemory&) = delete;
    ExportedMemory& operator=(const ExportedMemory&) = delete;

    // Size of the allocation (at least what was asked for): what GL's import must be told.
    std::size_t allocationSize() const { return allocationSize_; }
    // True when the driver only exports dedicated allocations (GL must then be told so).
    bool dedicated() const { return dedicated_; }
    // A new file descriptor for the memory, owned by the caller until an import succeeds.
    // Throws clviz::Error.
    int exportFd() const;
    // Host pointer (host-visible allocations only, see VulkanExporter::allocate); for tests.
    void* map();

  private:
    friend class VulkanExporter;
    ExportedMemory() = default;
    std::shared_ptr<VulkanDeviceState> device_;
    std::uint64_t buffer_ = 0;  // VkBuffer
    std::uint64_t memory_ = 0;  // VkDeviceMemory
    std::size_t allocationSize_ = 0;
    bool dedicated_ = false;
    void* mapped_ = nullptr;
};

// A binary semaphore that GL (GL_EXT_semaphore_fd) and CL (cl_khr_external_semaphore_opaque_fd)
// both import, so each can wait on the GPU for the other's work on shared memory. Vulkan itself
// never signals or waits on it.
class ExportedSemaphore {
  public:
    ~ExportedSemaphore();
    ExportedSemaphore(const ExportedSemaphore&) = delete;
    ExportedSemaphore& operator=(const ExportedSemaphore&) = delete;
    // A new file descriptor for the semaphore, owned by the caller until an import succeeds.
    // Throws clviz::Error.
    int exportFd() const;

  private:
    friend class VulkanExporter;
    ExportedSemaphore() = default;
    std::shared_ptr<VulkanDeviceState> device_;
    std::uint64_t semaphore_ = 0;  // VkSemaphore
};

class VulkanExporter {
  public:
    // Opens the loader, an instance and the physical device whose deviceUUID is `uuid` (any
    // device that can export memory when `uuid` is empty), with VK_KHR_external_memory_fd.
    // Throws clviz::Error with a one-line reason: no loader, no device, no match (listing what
    // was found), no export support.
    static std::shared_ptr<VulkanExporter> open(const std::optional<DeviceUuid>& uuid);

    // The process-wide exporter for `uuid`: opened once, shared by every bridge, closed when the
    // last holder lets go.
    static std::shared_ptr<VulkanExporter> shared(const DeviceUuid& uuid);

    const std::string& deviceName() const;
    const DeviceUuid& deviceUuid() const;
    const DeviceUuid& driverUuid() const;

    // Exportable memory for at least `bytes`. Device-local unless `hostVisible` (tests read and
    // write it through map()). Throws clviz::Error.
    std::unique_ptr<ExportedMemory> allocate(std::size_t bytes, bool hostVisible = false);

    // Empty when the device exports binary semaphores as opaque fds, else the one-line reason.
    const std::string& semaphoreExportProblem() const;
    // An exportable binary semaphore; throws clviz::Error (with the reason above) when there is
    // none.
    std::unique_ptr<ExportedSemaphore> createSemaphore();

  private:
    VulkanExporter() = default;
    std::shared_ptr<VulkanDeviceState> device_;
};

// Name of the loader library that open() loads: $CLVIZ_VULKAN_LIBRARY when set (tests point it at
// a missing file to exercise the fallback), else libvulkan.so.1.
std::string vulkanLibraryName();

}  // namespace clviz
