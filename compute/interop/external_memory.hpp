#pragma once
// Vulkan-allocated memory seen by both OpenGL and OpenCL: the external-memory interop path.
//
//   Vulkan (vulkan_export.hpp) allocates exportable device memory on the GPU whose UUID the CL
//   device (cl_khr_device_uuid) and the GL context (GL_EXT_memory_object's GL_DEVICE_UUID_EXT)
//   report; one opaque fd goes to GL (GL_EXT_memory_object_fd -> glBufferStorageMemEXT), another
//   to CL (clCreateBufferWithProperties with CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR).
//
// A successful import owns its fd (GL_EXT_memory_object_fd says so; NVIDIA's CL, built on CUDA,
// takes it like cudaImportExternalMemory does), so fds are closed here only when an import fails.
// Release order: CL buffer, GL buffer, GL memory object, then the Vulkan memory.
#include <glad/gl.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/interop/vulkan_export.hpp"

namespace clviz {

class ComputeContext;

// UUIDs of the devices behind the current GL context (empty without GL_EXT_memory_object).
std::vector<DeviceUuid> glDeviceUuids();
// The GL driver's UUID (GL_DRIVER_UUID_EXT), or nothing without GL_EXT_memory_object.
std::optional<DeviceUuid> glDriverUuid();
// Throws clviz::Error unless the GL driver's UUID equals the Vulkan driver's: the spec only
// promises imports between matching drivers, and Mesa refuses the others (Debian's lavapipe and
// llvmpipe are separate binaries with different driver UUIDs). GL context current.
void checkGlCanImport(const VulkanExporter& exporter);
// The CL device's UUID (cl_khr_device_uuid), or nothing when the device does not report one.
std::optional<DeviceUuid> clDeviceUuid(const cl::Device& device);

// Decides whether external memory can work here: both extensions, a CL UUID that one of the GL
// context's devices shares, and a Vulkan device with that UUID that exports memory. Sets
// caps.externalMemoryDevice, or caps.externalMemoryProbe to the one-line reason it cannot. Opens
// Vulkan only when the CL and GL extensions are there. Never throws. GL context current.
void probeExternalMemory(const ComputeContext& cc, InteropCaps& caps);

// The Vulkan exporter on the CL device's GPU, checked against the GL context (a CL device without
// cl_khr_device_uuid is taken to be the GL context's GPU when GL reports exactly one). Throws
// clviz::Error with the reason when there is none.
std::shared_ptr<VulkanExporter> exporterFor(const ComputeContext& cc);

// Exported memory imported into GL as a buffer (the GL half alone: runs on Mesa too).
class GlMemoryBuffer {
  public:
    // Imports `memory` (its first `bytes`) as a GL buffer; throws clviz::Error when GL refuses.
    GlMemoryBuffer(const ExportedMemory& memory, std::size_t bytes);
    ~GlMemoryBuffer();
    GlMemoryBuffer(const GlMemoryBuffer&) = delete;
    GlMemoryBuffer& operator=(const GlMemoryBuffer&) = delete;
    GLuint buffer() const { return buffer_; }

  private:
    GLuint memoryObject_ = 0;
    GLuint buffer_ = 0;
};

// Exported memory imported into OpenCL as a buffer; throws clviz::Error when CL refuses.
cl::Buffer importClBuffer(const ComputeContext& cc, const ExportedMemory& memory,
                          std::size_t bytes);

// `bytes` of device memory that CL writes and GL reads with no copy between them.
class ExternalBuffer {
  public:
    ExternalBuffer(const ComputeContext& cc, std::shared_ptr<VulkanExporter> exporter,
                   std::size_t bytes);
    ~ExternalBuffer();
    ExternalBuffer(const ExternalBuffer&) = delete;
    ExternalBuffer& operator=(const ExternalBuffer&) = delete;

    GLuint glBuffer() const { return gl_->buffer(); }
    const cl::Buffer& clBuffer() const { return cl_; }
    std::size_t bytes() const { return bytes_; }
    const std::string& deviceName() const { return exporter_->deviceName(); }

  private:
    std::shared_ptr<VulkanExporter> exporter_;
    std::unique_ptr<ExportedMemory> memory_;
    std::unique_ptr<GlMemoryBuffer> gl_;
    cl::Buffer cl_;
    std::size_t bytes_;
};

}  // namespace clviz
