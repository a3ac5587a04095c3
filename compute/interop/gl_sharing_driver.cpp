#include "compute/interop/gl_sharing_driver.hpp"

#include <utility>

#include "compute/interop/gl_device_query.hpp"

namespace clviz {

namespace {

using CreateEventFromGlSyncFn = cl_event(CL_API_CALL*)(cl_context, cl_GLsync, cl_int*);

GlSharingDriver realDriver() {
    GlSharingDriver d;
    d.supports = supportsGlSharing;
    d.createFromGlBuffer = clCreateFromGLBuffer;
    d.createFromGlTexture = clCreateFromGLTexture;
    d.acquire = clEnqueueAcquireGLObjects;
    d.release = clEnqueueReleaseGLObjects;
    d.eventFromGlSync = [](cl_platform_id platform) -> GlSharingDriver::EventFromGlSync {
        auto fn = reinterpret_cast<CreateEventFromGlSyncFn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clCreateEventFromGLsyncKHR"));
        if (fn == nullptr) return {};
        return fn;
    };
    return d;
}

GlSharingDriver& current() {
    static GlSharingDriver driver = realDriver();
    return driver;
}

}  // namespace

const GlSharingDriver& glSharingDriver() {
    return current();
}

GlSharingDriverOverride::GlSharingDriverOverride(GlSharingDriver driver)
    : saved_(std::exchange(current(), std::move(driver))) {}

GlSharingDriverOverride::~GlSharingDriverOverride() {
    current() = std::move(saved_);
}

void checkGlSharingCall(cl_int err, const char* call) {
    if (err != CL_SUCCESS) throw cl::Error(err, call);
}

}  // namespace clviz
