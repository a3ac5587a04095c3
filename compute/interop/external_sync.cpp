#include "compute/interop/external_sync.hpp"

#include <unistd.h>

#include <cstdio>

#include "common/error.hpp"
#include "compute/core/cl_error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/vulkan_export.hpp"

namespace clviz {

struct ExternalSync::ClEntryPoints {
    clCreateSemaphoreWithPropertiesKHR_fn create = nullptr;
    clEnqueueWaitSemaphoresKHR_fn wait = nullptr;
    clEnqueueSignalSemaphoresKHR_fn signal = nullptr;
    clReleaseSemaphoreKHR_fn release = nullptr;
};

struct ExternalSync::Semaphore {
    std::unique_ptr<ExportedSemaphore> vulkan;
    GLuint gl = 0;
    cl_semaphore_khr cl = nullptr;
    clReleaseSemaphoreKHR_fn releaseCl = nullptr;
    ~Semaphore() {
        if (cl) releaseCl(cl);
        if (gl) glDeleteSemaphoresEXT(1, &gl);
        vulkan.reset();  // last: GL and CL hold references to its payload until released
    }
};

namespace {

template <class F>
F clEntryPoint(const ComputeContext& cc, const char* name) {
    auto f = reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(cc.platform()(), name));
    if (!f) throw Error(std::string("the OpenCL platform has no ") + name);
    return f;
}

void drainGlErrors() {
    for (int guard = 0; guard < 32 && glGetError() != GL_NO_ERROR; ++guard) {
    }
}

std::string hex(unsigned value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%x", value);
    return text;
}

// CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR as text, for the error message.
std::string importHandleTypes(const ComputeContext& cc) {
    std::size_t bytes = 0;
    if (clGetDeviceInfo(cc.device()(), CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, 0, nullptr,
                        &bytes) != CL_SUCCESS)
        return "not reported";
    std::vector<cl_external_semaphore_handle_type_khr> types(bytes / sizeof(cl_uint) + 1);
    clGetDeviceInfo(cc.device()(), CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR, bytes, types.data(),
                    nullptr);
    std::string out;
    for (std::size_t i = 0; i < bytes / sizeof(cl_external_semaphore_handle_type_khr); ++i)
        out += (out.empty() ? "" : " ") + hex(types[i]);
    return out.empty() ? "none" : out;
}

// The Vulkan semaphore as a CL semaphore. A successful import owns its fd. The device list is
// optional in a one-device context and not every driver takes it, so the import is tried
// without it first.
cl_semaphore_khr importClSemaphore(const ComputeContext& cc, const ExportedSemaphore& semaphore,
                                   clCreateSemaphoreWithPropertiesKHR_fn create) {
    cl_int err = CL_SUCCESS;
    for (bool deviceList : {false, true}) {
        const int fd = semaphore.exportFd();
        std::vector<cl_semaphore_properties_khr> props = {
            CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
            cl_semaphore_properties_khr(fd)};
        if (deviceList)
            props.insert(props.end(),
                         {CL_DEVICE_HANDLE_LIST_KHR, cl_semaphore_properties_khr(cc.device()()),
                          CL_DEVICE_HANDLE_LIST_END_KHR});
        props.push_back(0);
        cl_semaphore_khr out = create(cc.context()(), props.data(), &err);
        if (err == CL_SUCCESS && out) return out;
        close(fd);
        if (err != CL_INVALID_PROPERTY) break;
    }
    throw ClError("the Vulkan semaphore was refused (the device imports semaphore handle types " +
                      importHandleTypes(cc) + "; an opaque fd is " +
                      hex(CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR) + ")",
                  "clCreateSemaphoreWithPropertiesKHR", err);
}

}  // namespace

std::string externalSyncProblem(const InteropCaps& caps, const VulkanExporter& exporter) {
    if (!caps.clExternalSemaphoreFd)
        return "the OpenCL device has no cl_khr_external_semaphore_opaque_fd";
    if (!caps.glSemaphoreFd) return "the GL context has no GL_EXT_semaphore_fd";
    return exporter.semaphoreExportProblem();
}

ExternalSync::ExternalSync(ComputeContext& cc, VulkanExporter& exporter, int slots, GLuint buffer)
    : cc_(cc), buffer_(buffer), schedule_(slots), cl_(std::make_unique<ClEntryPoints>()) {
    cl_->create = clEntryPoint<clCreateSemaphoreWithPropertiesKHR_fn>(
        cc, "clCreateSemaphoreWithPropertiesKHR");
    cl_->wait = clEntryPoint<clEnqueueWaitSemaphoresKHR_fn>(cc, "clEnqueueWaitSemaphoresKHR");
    cl_->signal = clEntryPoint<clEnqueueSignalSemaphoresKHR_fn>(cc, "clEnqueueSignalSemaphoresKHR");
    cl_->release = clEntryPoint<clReleaseSemaphoreKHR_fn>(cc, "clReleaseSemaphoreKHR");
    for (int i = 0; i < 2 * slots; ++i) {
        auto s = std::make_unique<Semaphore>();
        s->releaseCl = cl_->release;
        s->vulkan = exporter.createSemaphore();

        // GL: a successful import owns the fd (GL_EXT_semaphore_fd).
        drainGlErrors();
        glGenSemaphoresEXT(1, &s->gl);
        int fd = s->vulkan->exportFd();
        glImportSemaphoreFdEXT(s->gl, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
        if (GLenum err = glGetError(); err != GL_NO_ERROR) {
            close(fd);
            throw Error("glImportSemaphoreFdEXT refused the Vulkan semaphore (GL error " +
                        std::to_string(err) + ")");
        }

        s->cl = importClSemaphore(cc, *s->vulkan, cl_->create);
        semaphores_.push_back(std::move(s));
    }
}

ExternalSync::~ExternalSync() = default;

ExternalSync::Semaphore& ExternalSync::semaphore(int slot, bool toCl) {
    return *semaphores_[std::size_t(2 * slot + (toCl ? 0 : 1))];
}

void ExternalSync::run(const std::vector<SyncStep>& steps) {
    for (const SyncStep& step : steps) {
        cl_command_queue queue = cc_.queue()();
        switch (step.op) {
            case SyncOp::GlSignalToCl: {
                const GLenum layout = GL_NONE;  // no textures in the barrier list
                glSignalSemaphoreEXT(semaphore(step.slot, true).gl, 1, &buffer_, 0, nullptr,
                                     &layout);
                glFlush();  // a binary semaphore's signal must be submitted before its wait
                break;
            }
            case SyncOp::ClWaitForGl: {
                cl_semaphore_khr s = semaphore(step.slot, true).cl;
                if (cl_int err = cl_->wait(queue, 1, &s, nullptr, 0, nullptr, nullptr))
                    throw ClError("waiting for GL on the device", "clEnqueueWaitSemaphoresKHR",
                                  err);
                break;
            }
            case SyncOp::ClSignalToGl: {
                cl_semaphore_khr s = semaphore(step.slot, false).cl;
                if (cl_int err = cl_->signal(queue, 1, &s, nullptr, 0, nullptr, nullptr))
                    throw ClError("signalling GL from the device", "clEnqueueSignalSemaphoresKHR",
                                  err);
                cc_.queue().flush();
                break;
            }
            case SyncOp::GlWaitForCl: {
                const GLenum layout = GL_NONE;
                glWaitSemaphoreEXT(semaphore(step.slot, false).gl, 1, &buffer_, 0, nullptr,
                                   &layout);
                break;
            }
        }
    }
}

}  // namespace clviz
