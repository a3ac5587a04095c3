#pragma once
// Asks OpenCL which device drives the current OpenGL context (cl_khr_gl_sharing's
// clGetGLContextInfoKHR), and builds the context properties that share objects with it.
// Handles are opaque here, so this layer needs no X11, GLX or EGL headers.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

// Native handles of the current GL context, as the window system gives them.
struct GlContextHandles {
    enum class Api { Glx, Egl };
    Api api = Api::Glx;
    void* context = nullptr;  // GLXContext or EGLContext
    void* display = nullptr;  // X11 Display* or EGLDisplay
    bool valid() const { return context != nullptr && display != nullptr; }
};

struct GlDeviceQuery {
    // (platform, device) indices in queryPlatforms() order, when some platform could tell.
    std::optional<std::pair<int, int>> device;
    // What happened, for the device panel: why no platform could tell, or which one did.
    std::string detail;
};

// Never throws: a platform without cl_khr_gl_sharing (PoCL, NVIDIA's current drivers) or a
// failing query just leaves `device` empty and says why in `detail`.
GlDeviceQuery queryGlDevice(const GlContextHandles& gl);

// Properties to append to CL_CONTEXT_PLATFORM for a context that shares with `gl`
// (CL_GL_CONTEXT_KHR plus CL_GLX_DISPLAY_KHR or CL_EGL_DISPLAY_KHR), without the final 0.
std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl);

// True when the platform's or the device's extension string names cl_khr_gl_sharing.
bool supportsGlSharing(const cl::Platform& platform, const cl::Device& device);

}  // namespace clviz
