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

cl::Event acquireGlObject(const GlSharingDriver& driver, const cl::CommandQueue& queue,
                          const cl::Memory& object, const std::vector<cl::Event>& waitFor) {
    std::vector<cl_event> handles;
    for (const auto& e : waitFor)
        handles.push_back(e());
    const cl_mem mem = object();
    cl_event event = nullptr;
    checkGlSharingCall(driver.acquire(queue(), 1, &mem, cl_uint(handles.size()),
                                      handles.empty() ? nullptr : handles.data(), &event),
                       "clEnqueueAcquireGLObjects");
    return cl::Event(event);  // takes ownership
}

cl::Event releaseGlObject(const GlSharingDriver& driver, const cl::CommandQueue& queue,
                          const cl::Memory& object) {
    const cl_mem mem = object();
    cl_event event = nullptr;
    checkGlSharingCall(driver.release(queue(), 1, &mem, 0, nullptr, &event),
                       "clEnqueueReleaseGLObjects");
    return cl::Event(event);  // takes ownership
}

}  // namespace clviz
