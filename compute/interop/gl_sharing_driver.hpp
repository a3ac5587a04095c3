#pragma once
// The cl_khr_gl_sharing entry points the gl-sharing path calls, behind one replaceable table.
//
// No driver clviz has run on offers the extension (PoCL, NVIDIA's OpenCL, Mesa's Rusticl: see the
// README), so the path would otherwise never execute. Tests put an emulation here that honours
// the extension's contract (tests/compute/interop/gl_sharing_gl_test.cpp) and check the call
// sequence and the bytes GL ends up with; the app always runs the real entry points.
#include <CL/cl_gl.h>

#include <functional>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

struct GlSharingDriver {
    using EnqueueGlObjects = std::function<cl_int(cl_command_queue, cl_uint, const cl_mem*, cl_uint,
                                                  const cl_event*, cl_event*)>;
    using EventFromGlSync = std::function<cl_event(cl_context, cl_GLsync, cl_int*)>;

    // Whether the platform or the device lists cl_khr_gl_sharing: nothing below is called when
    // not (some runtimes abort inside clCreateFromGLBuffer instead of returning an error).
    std::function<bool(const cl::Platform&, const cl::Device&)> supports;
    std::function<cl_mem(cl_context, cl_mem_flags, cl_GLuint, cl_int*)> createFromGlBuffer;
    std::function<cl_mem(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint, cl_int*)>
        createFromGlTexture;
    EnqueueGlObjects acquire;
    EnqueueGlObjects release;
    // clCreateEventFromGLsyncKHR (cl_khr_gl_event) of a platform; empty where it has none.
    std::function<EventFromGlSync(cl_platform_id)> eventFromGlSync;
};

// The table in use: the driver's own entry points unless a test replaced them.
const GlSharingDriver& glSharingDriver();

// Replaces the table while it lives (tests; one at a time, on the GL thread).
class GlSharingDriverOverride {
  public:
    explicit GlSharingDriverOverride(GlSharingDriver driver);
    ~GlSharingDriverOverride();
    GlSharingDriverOverride(const GlSharingDriverOverride&) = delete;
    GlSharingDriverOverride& operator=(const GlSharingDriverOverride&) = delete;

  private:
    GlSharingDriver saved_;
};

// Throws cl::Error(err, call) as the cl:: wrappers do, so callers handle both alike.
void checkGlSharingCall(cl_int err, const char* call);

// Acquires one shared object on `queue` after `waitFor`, or releases it, through `driver`;
// returns the command's event. Throws cl::Error on failure.
cl::Event acquireGlObject(const GlSharingDriver& driver, const cl::CommandQueue& queue,
                          const cl::Memory& object, const std::vector<cl::Event>& waitFor);
cl::Event releaseGlObject(const GlSharingDriver& driver, const cl::CommandQueue& queue,
                          const cl::Memory& object);

}  // namespace clviz
