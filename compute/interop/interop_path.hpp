#pragma once
// How OpenCL results reach OpenGL, and the pure logic that picks the path. Shared by the N-body
// buffers and the image lab's textures: detect what the CL device and GL context offer, then
// choose. No GL or CL calls here, so every combination is unit-tested with made-up capabilities.
#include <string>
#include <vector>

namespace clviz {

enum class InteropPath {
    GlSharing,       // cl_khr_gl_sharing: CL writes GL objects in place (acquire / release)
    HostCopy,        // CL computes in its own memory; each frame is copied through the host
    ExternalMemory,  // Vulkan-allocated memory imported by CL (cl_khr_external_memory_opaque_fd)
                     // and GL (GL_EXT_memory_object_fd): zero copy without gl_sharing
};

// "gl-sharing", "host-copy", "external-memory"
const char* interopPathName(InteropPath path);

// What the user asked for: --interop auto|gl-sharing|host-copy|external-memory.
enum class InteropRequest { Auto, GlSharing, HostCopy, ExternalMemory };

// Parses the strings above; throws clviz::Error listing the valid values otherwise.
InteropRequest parseInteropRequest(const std::string& text);
const char* interopRequestName(InteropRequest request);

// What the CL device and the GL context offer. Filled by detectClInteropCaps() (from the device's
// extension list) and detectGlInteropCaps() (glad's GLAD_GL_* flags, needs a current context).
struct InteropCaps {
    // OpenCL device
    bool clGlSharing = false;            // cl_khr_gl_sharing
    bool clGlEvent = false;              // cl_khr_gl_event: clCreateEventFromGLsyncKHR
    bool clExternalMemoryFd = false;     // cl_khr_external_memory_opaque_fd
    bool clExternalSemaphoreFd = false;  // cl_khr_external_semaphore_opaque_fd
    // Set by the app when the CL context was created with the GL context's properties (sharing
    // needs that at context creation; a plain context cannot share even if the device could).
    bool clContextSharesGl = false;
    // OpenGL context
    bool glBufferStorage = false;   // GL 4.4 or ARB_buffer_storage: persistent mapping
    bool glMemoryObjectFd = false;  // GL_EXT_memory_object + GL_EXT_memory_object_fd
    bool glSemaphoreFd = false;     // GL_EXT_semaphore + GL_EXT_semaphore_fd
    bool glSync = true;             // GL 3.2 fence syncs (always true on a 3.3 core context)
    // Set by probeExternalMemory() (external_memory.hpp): a Vulkan device on the GPU of both the
    // CL device and the GL context (matched by UUID) exports memory. The probe's one-line
    // finding either way (why not, or which device) is kept for the chooser and the panel.
    bool externalMemoryDevice = false;
    std::string externalMemoryProbe;
    // Also set by the probe: whether that device's semaphores can order GL and CL on the GPU
    // (both semaphore extensions and a Vulkan device that exports them), else why not; without
    // them the external-memory path synchronises on the CPU (CL events and GL fences).
    bool externalSemaphores = false;
    std::string externalSyncProbe;
};

// CL side from a device's extension strings.
InteropCaps detectClInteropCaps(const std::vector<std::string>& clExtensions);

// Fills the GL fields of `caps` from glad's flags; needs a current GL context (gl_interop_caps.cpp,
// the only part of this header that touches GL).
void detectGlInteropCaps(InteropCaps& caps);

struct InteropChoice {
    InteropPath path = InteropPath::HostCopy;
    std::string reason;  // one line for the Interop panel and stderr: why this path
};

// Picks a path. Auto prefers gl-sharing (the device has it and the context was created for it),
// then external memory (both extensions and a matching Vulkan device), then host copy, and the
// reason names what ruled out each faster path. A forced path that is not available falls back
// to host copy and the reason says why.
InteropChoice chooseInteropPath(InteropRequest request, const InteropCaps& caps);

// One-line summary of the caps for the panel: "CL: gl_sharing no, gl_event yes, ...".
std::string describeInteropCaps(const InteropCaps& caps);

}  // namespace clviz
