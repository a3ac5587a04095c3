#include "compute/interop/external_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "compute/core/cl_error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/external_sync.hpp"

namespace clviz {

namespace {

void drainGlErrors() {
    for (int guard = 0; guard < 32 && glGetError() != GL_NO_ERROR; ++guard) {
    }
}

std::string glErrorText(GLenum err) {
    return err == GL_OUT_OF_MEMORY ? "GL_OUT_OF_MEMORY" : "GL error " + std::to_string(err);
}

}  // namespace

std::vector<DeviceUuid> glDeviceUuids() {
    std::vector<DeviceUuid> out;
    if (!GLAD_GL_EXT_memory_object || !glad_glGetUnsignedBytei_vEXT) return out;
    drainGlErrors();
    GLint count = 0;
    glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &count);
    for (GLint i = 0; i < count && i < 16; ++i) {
        DeviceUuid u{};
        glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, GLuint(i), u.data());
        out.push_back(u);
    }
    if (glGetError() != GL_NO_ERROR) out.clear();
    return out;
}

std::optional<DeviceUuid> glDriverUuid() {
    if (!GLAD_GL_EXT_memory_object || !glad_glGetUnsignedBytevEXT) return std::nullopt;
    drainGlErrors();
    DeviceUuid u{};
    glGetUnsignedBytevEXT(GL_DRIVER_UUID_EXT, u.data());
    if (glGetError() != GL_NO_ERROR) return std::nullopt;
    return u;
}

std::optional<DeviceUuid> clDeviceUuid(const cl::Device& device) {
    const std::string extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
    if (extensions.find("cl_khr_device_uuid") == std::string::npos) return std::nullopt;
    DeviceUuid u{};
    if (clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, u.size(), u.data(), nullptr) != CL_SUCCESS)
        return std::nullopt;
    return u;
}

std::shared_ptr<VulkanExporter> exporterFor(const ComputeContext& cc) {
    const auto glUuids = glDeviceUuids();
    if (glUuids.empty()) throw Error("the GL context reports no device UUID");
    DeviceUuid target = glUuids[0];
    if (const auto clUuid = clDeviceUuid(cc.device())) {
        if (std::find(glUuids.begin(), glUuids.end(), *clUuid) == glUuids.end())
            throw Error("the GL context runs on another device (GL UUID " + formatUuid(glUuids[0]) +
                        ", CL UUID " + formatUuid(*clUuid) + ")");
        target = *clUuid;
    } else if (glUuids.size() != 1) {
        // Without cl_khr_device_uuid the CL device can only be assumed to be GL's single GPU.
        throw Error("the OpenCL device reports no UUID (no cl_khr_device_uuid) and GL spans " +
                    std::to_string(glUuids.size()) + " devices");
    }
    auto exporter = VulkanExporter::shared(target);
    checkGlCanImport(*exporter);
    return exporter;
}

void checkGlCanImport(const VulkanExporter& exporter) {
    // GL_EXT_memory_object: memory imports only between matching device and driver UUIDs.
    const auto glDriver = glDriverUuid();
    if (!glDriver) throw Error("the GL context reports no driver UUID");
    if (*glDriver != exporter.driverUuid())
        throw Error("GL and Vulkan drivers differ (GL driver UUID " + formatUuid(*glDriver) +
                    ", Vulkan " + exporter.deviceName() + " driver UUID " +
                    formatUuid(exporter.driverUuid()) + "): GL would refuse the memory");
}

void probeExternalMemory(const ComputeContext& cc, InteropCaps& caps) {
    caps.externalMemoryDevice = false;
    caps.externalMemoryProbe.clear();
    caps.externalSemaphores = false;
    caps.externalSyncProbe.clear();
    if (!caps.clExternalMemoryFd) {
        caps.externalMemoryProbe = "the OpenCL device has no cl_khr_external_memory_opaque_fd";
        return;
    }
    if (!caps.glMemoryObjectFd) {
        caps.externalMemoryProbe = "the GL context has no GL_EXT_memory_object_fd";
        return;
    }
    try {
        auto exporter = exporterFor(cc);
        caps.externalMemoryDevice = true;
        caps.externalMemoryProbe = "Vulkan device " + exporter->deviceName() + " " +
                                   formatUuid(exporter->deviceUuid()) + " exports memory";
        caps.externalSyncProbe = externalSyncProblem(caps, *exporter);
        caps.externalSemaphores = caps.externalSyncProbe.empty();
        if (caps.externalSemaphores) caps.externalSyncProbe = "exported semaphores";
    } catch (const std::exception& e) {
        caps.externalMemoryProbe = e.what();
    }
}

GlMemoryBuffer::GlMemoryBuffer(const ExportedMemory& memory, std::size_t bytes) {
    if (!GLAD_GL_EXT_memory_object_fd || !glad_glImportMemoryFdEXT)
        throw Error("the GL context has no GL_EXT_memory_object_fd");
    if (bytes == 0 || bytes > memory.allocationSize())
        throw Error("GL import of " + std::to_string(bytes) + " bytes from a " +
                    std::to_string(memory.allocationSize()) + "-byte allocation");
    drainGlErrors();
    glCreateMemoryObjectsEXT(1, &memoryObject_);
    if (memory.dedicated()) {
        const GLint on = GL_TRUE;
        glMemoryObjectParameterivEXT(memoryObject_, GL_DEDICATED_MEMORY_OBJECT_EXT, &on);
    }
    const int fd = memory.exportFd();
    glImportMemoryFdEXT(memoryObject_, GLuint64(memory.allocationSize()),
                        GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    if (GLenum err = glGetError(); err != GL_NO_ERROR) {
        close(fd);  // ownership passes to GL only on success
        glDeleteMemoryObjectsEXT(1, &memoryObject_);
        throw Error("glImportMemoryFdEXT refused the Vulkan memory (" + glErrorText(err) + ")");
    }
    glGenBuffers(1, &buffer_);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
    glBufferStorageMemEXT(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), memoryObject_, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    if (GLenum err = glGetError(); err != GL_NO_ERROR) {
        glDeleteBuffers(1, &buffer_);
        glDeleteMemoryObjectsEXT(1, &memoryObject_);
        throw Error("glBufferStorageMemEXT failed (" + glErrorText(err) + ")");
    }
}

GlMemoryBuffer::~GlMemoryBuffer() {
    if (buffer_) glDeleteBuffers(1, &buffer_);
    if (memoryObject_) glDeleteMemoryObjectsEXT(1, &memoryObject_);
}

cl::Buffer importClBuffer(const ComputeContext& cc, const ExportedMemory& memory,
                          std::size_t bytes) {
    if (!cc.info().hasExtension("cl_khr_external_memory_opaque_fd"))
        throw Error("the OpenCL device has no cl_khr_external_memory_opaque_fd");
    const int fd = memory.exportFd();
    const cl_mem_properties props[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
                                       cl_mem_properties(fd),
                                       CL_DEVICE_HANDLE_LIST_KHR,
                                       cl_mem_properties(cc.device()()),
                                       CL_DEVICE_HANDLE_LIST_END_KHR,
                                       0};
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBufferWithProperties(cc.context()(), props, CL_MEM_READ_WRITE, bytes,
                                              nullptr, &err);
    if (err != CL_SUCCESS || mem == nullptr) {
        close(fd);
        throw ClError("the Vulkan memory was refused", "clCreateBufferWithProperties", err);
    }
    return cl::Buffer(mem);  // takes ownership of the cl_mem
}

ExternalBuffer::ExternalBuffer(const ComputeContext& cc, std::shared_ptr<VulkanExporter> exporter,
                               std::size_t bytes)
    : exporter_(std::move(exporter)), bytes_(bytes) {
    memory_ = exporter_->allocate(bytes);
    gl_ = std::make_unique<GlMemoryBuffer>(*memory_, bytes);
    cl_ = importClBuffer(cc, *memory_, bytes);
}

ExternalBuffer::~ExternalBuffer() {
    cl_ = cl::Buffer();  // the CL alias first, then GL's, then the Vulkan memory itself
    gl_.reset();
    memory_.reset();
}

}  // namespace clviz
