#include "compute/interop/interop_path.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace clviz {

const char* interopPathName(InteropPath path) {
    switch (path) {
        case InteropPath::GlSharing:
            return "gl-sharing";
        case InteropPath::HostCopy:
            return "host-copy";
        case InteropPath::ExternalMemory:
            return "external-memory";
    }
    return "?";
}

const char* interopRequestName(InteropRequest request) {
    switch (request) {
        case InteropRequest::Auto:
            return "auto";
        case InteropRequest::GlSharing:
            return "gl-sharing";
        case InteropRequest::HostCopy:
            return "host-copy";
        case InteropRequest::ExternalMemory:
            return "external-memory";
    }
    return "?";
}

InteropRequest parseInteropRequest(const std::string& text) {
    if (text == "auto") return InteropRequest::Auto;
    if (text == "gl-sharing") return InteropRequest::GlSharing;
    if (text == "host-copy") return InteropRequest::HostCopy;
    if (text == "external-memory") return InteropRequest::ExternalMemory;
    throw Error("unknown interop path '" + text +
                "' (expected auto, gl-sharing, host-copy or external-memory)");
}

InteropCaps detectClInteropCaps(const std::vector<std::string>& clExtensions) {
    auto has = [&](const char* name) {
        return std::find(clExtensions.begin(), clExtensions.end(), name) != clExtensions.end();
    };
    InteropCaps caps;
    caps.clGlSharing = has("cl_khr_gl_sharing");
    caps.clGlEvent = has("cl_khr_gl_event");
    caps.clExternalMemoryFd = has("cl_khr_external_memory_opaque_fd");
    caps.clExternalSemaphoreFd = has("cl_khr_external_semaphore_opaque_fd");
    return caps;
}

namespace {

// Why gl-sharing cannot be used, or empty when it can.
std::string glSharingBlocker(const InteropCaps& caps) {
    if (!caps.clGlSharing) return "the OpenCL device has no cl_khr_gl_sharing";
    if (!caps.clContextSharesGl)
        return "the OpenCL context was not created with the GL context's properties";
    return {};
}

std::string externalMemoryBlocker(const InteropCaps& caps) {
    if (!caps.clExternalMemoryFd)
        return "the OpenCL device has no cl_khr_external_memory_opaque_fd";
    if (!caps.glMemoryObjectFd) return "the GL context has no GL_EXT_memory_object_fd";
    if (!caps.externalMemoryDevice)
        return caps.externalMemoryProbe.empty()
                   ? "no Vulkan device was matched to the OpenCL device and GL context"
                   : caps.externalMemoryProbe;
    return {};
}

// How the external-memory path will synchronise, for its reason line.
std::string externalSyncHow(const InteropCaps& caps) {
    if (caps.externalSemaphores) return "; synchronised by exported semaphores";
    return "; synchronised on the CPU (" +
           (caps.externalSyncProbe.empty() ? std::string("no exported semaphores")
                                           : caps.externalSyncProbe) +
           ")";
}

std::string hostCopyHow(const InteropCaps& caps) {
    return caps.glBufferStorage ? "host copy into a persistently mapped GL buffer"
                                : "host copy with glBufferSubData (no ARB_buffer_storage)";
}

}  // namespace

InteropChoice chooseInteropPath(InteropRequest request, const InteropCaps& caps) {
    switch (request) {
        case InteropRequest::HostCopy:
            return {InteropPath::HostCopy, "forced: " + hostCopyHow(caps)};
        case InteropRequest::GlSharing: {
            std::string blocker = glSharingBlocker(caps);
            if (blocker.empty())
                return {InteropPath::GlSharing, "forced: cl_khr_gl_sharing on a shared context"};
            return {InteropPath::HostCopy,
                    "gl-sharing requested but " + blocker + "; using " + hostCopyHow(caps)};
        }
        case InteropRequest::ExternalMemory: {
            std::string blocker = externalMemoryBlocker(caps);
            if (blocker.empty())
                return {InteropPath::ExternalMemory,
                        "forced: Vulkan memory imported by CL and GL (" + caps.externalMemoryProbe +
                            ")" + externalSyncHow(caps)};
            return {InteropPath::HostCopy,
                    "external-memory requested but " + blocker + "; using " + hostCopyHow(caps)};
        }
        case InteropRequest::Auto:
            break;
    }
    std::string sharing = glSharingBlocker(caps);
    if (sharing.empty())
        return {InteropPath::GlSharing,
                "auto: cl_khr_gl_sharing available, buffers shared in place"};
    std::string external = externalMemoryBlocker(caps);
    if (external.empty())
        return {InteropPath::ExternalMemory,
                "auto: no gl-sharing (" + sharing + "); Vulkan memory imported by CL and GL (" +
                    caps.externalMemoryProbe + ")" + externalSyncHow(caps)};
    return {InteropPath::HostCopy, "auto: no gl-sharing (" + sharing + "), no external memory (" +
                                       external + "); using " + hostCopyHow(caps)};
}

std::string describeInteropCaps(const InteropCaps& caps) {
    auto yn = [](bool b) { return b ? "yes" : "no"; };
    std::string s = "CL: gl_sharing ";
    s += yn(caps.clGlSharing);
    s += ", gl_event ";
    s += yn(caps.clGlEvent);
    s += ", external_memory_opaque_fd ";
    s += yn(caps.clExternalMemoryFd);
    s += ", external_semaphore_opaque_fd ";
    s += yn(caps.clExternalSemaphoreFd);
    s += ", context shares GL ";
    s += yn(caps.clContextSharesGl);
    s += " | GL: buffer_storage ";
    s += yn(caps.glBufferStorage);
    s += ", memory_object_fd ";
    s += yn(caps.glMemoryObjectFd);
    s += ", semaphore_fd ";
    s += yn(caps.glSemaphoreFd);
    s += " | Vulkan: ";
    s += caps.externalMemoryProbe.empty() ? (caps.externalMemoryDevice ? "matched" : "not probed")
                                          : caps.externalMemoryProbe;
    return s;
}

}  // namespace clviz
