#include "compute/interop/gl_device_query.hpp"

#include <sstream>

#include "common/error.hpp"
#include "compute/core/cl_error.hpp"

namespace clviz {

namespace {

bool namesGlSharing(const std::string& extensions) {
    return (" " + extensions + " ").find(" cl_khr_gl_sharing ") != std::string::npos;
}

}  // namespace

std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl) {
    return {CL_GL_CONTEXT_KHR, reinterpret_cast<cl_context_properties>(gl.context),
            gl.api == GlContextHandles::Api::Glx ? CL_GLX_DISPLAY_KHR : CL_EGL_DISPLAY_KHR,
            reinterpret_cast<cl_context_properties>(gl.display)};
}

bool supportsGlSharing(const cl::Platform& platform, const cl::Device& device) {
    try {
        return namesGlSharing(platform.getInfo<CL_PLATFORM_EXTENSIONS>()) ||
               namesGlSharing(device.getInfo<CL_DEVICE_EXTENSIONS>());
    } catch (const cl::Error&) {
        return false;
    }
}

GlDeviceQuery queryGlDevice(const GlContextHandles& gl) {
    GlDeviceQuery result;
    if (!gl.valid()) {
        result.detail = "no native GL context handles to ask about";
        return result;
    }
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error& e) {
        result.detail = ClError::describe("clGetPlatformIDs", e.what(), e.err());
        return result;
    }

    std::ostringstream notes;
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        std::string name = "?";
        std::vector<cl::Device> devices;
        try {
            name = platforms[p].getInfo<CL_PLATFORM_NAME>();
            platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error&) {
            // A platform with zero devices reports CL_DEVICE_NOT_FOUND: nothing to match.
        }
        bool sharing = false;
        try {
            sharing = namesGlSharing(platforms[p].getInfo<CL_PLATFORM_EXTENSIONS>());
        } catch (const cl::Error&) {
        }
        for (const auto& d : devices)
            sharing = sharing || supportsGlSharing(platforms[p], d);
        if (!sharing) {
            notes << (notes.tellp() > 0 ? "; " : "") << name << ": no cl_khr_gl_sharing";
            continue;
        }
        auto fn = reinterpret_cast<clGetGLContextInfoKHR_fn>(
            clGetExtensionFunctionAddressForPlatform(platforms[p](), "clGetGLContextInfoKHR"));
        if (fn == nullptr) {
            notes << (notes.tellp() > 0 ? "; " : "") << name
                  << ": clGetGLContextInfoKHR not exported";
            continue;
        }
        std::vector<cl_context_properties> props = glSharingProperties(gl);
        props.push_back(CL_CONTEXT_PLATFORM);
        props.push_back(reinterpret_cast<cl_context_properties>(platforms[p]()));
        props.push_back(0);
        cl_device_id current = nullptr;
        const cl_int err = fn(props.data(), CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof(current),
                              &current, nullptr);
        if (err != CL_SUCCESS || current == nullptr) {
            notes << (notes.tellp() > 0 ? "; " : "") << name << ": "
                  << (err != CL_SUCCESS ? ClError::describe("clGetGLContextInfoKHR", "", err)
                                        : std::string("no current device for this GL context"));
            continue;
        }
        for (std::size_t d = 0; d < devices.size(); ++d) {
            if (devices[d]() == current) {
                result.device = {static_cast<int>(p), static_cast<int>(d)};
                result.detail = name + " reports device " + std::to_string(p) + "." +
                                std::to_string(d) + " drives the GL context";
                return result;
            }
        }
        notes << (notes.tellp() > 0 ? "; " : "") << name
              << ": reported a device outside its own device list";
    }
    result.detail = platforms.empty() ? "no OpenCL platform" : notes.str();
    return result;
}

}  // namespace clviz
