// cl_khr_gl_sharing interop: three GL buffers the device writes in place between acquire and
// release. The simulation keeps its own state buffer (its kernels read and write it in place), so
// each frame is one device-side clEnqueueCopyBuffer into the acquired GL buffer: N x 16 bytes at
// device bandwidth, microseconds, and the simulation stays GL-free.
#include <CL/cl_gl.h>

#include <vector>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/bridge_paths.hpp"
#include "compute/interop/gl_sharing_driver.hpp"

namespace clviz {

namespace {

constexpr int kSlots = 3;

class GlSharingBridge final : public BufferBridge {
  public:
    GlSharingBridge(ComputeContext& cc, std::size_t capacity, const InteropCaps& caps)
        : BufferBridge(cc, capacity, kSlots) {
        if (!caps.clGlSharing) throw Error("the OpenCL device has no cl_khr_gl_sharing");
        if (!caps.clContextSharesGl)
            throw Error("the OpenCL context was not created with the GL context's properties");
        // Trust the device, not only the caps handed in: some runtimes (PoCL) abort inside
        // clCreateFromGLBuffer instead of returning an error.
        if (!driver_.supports(cc.platform(), cc.device()))
            throw Error(cc.info().name + " does not list cl_khr_gl_sharing");
        if (caps.clGlEvent) fromGlSync_ = driver_.eventFromGlSync(cc.platform()());
        glGenBuffers(kSlots, buffers_);
        for (int i = 0; i < kSlots; ++i) {
            glBindBuffer(GL_COPY_WRITE_BUFFER, buffers_[i]);
            glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(capacity), nullptr, GL_DYNAMIC_COPY);
            slots_[i].buffer = buffers_[i];
            slots_[i].offset = 0;
        }
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glFinish();  // GL is done with the buffers before CL first acquires them
        try {
            for (int i = 0; i < kSlots; ++i) {
                cl_int err = CL_SUCCESS;
                cl_mem m = driver_.createFromGlBuffer(cc.context()(), CL_MEM_WRITE_ONLY,
                                                      buffers_[i], &err);
                checkGlSharingCall(err, "clCreateFromGLBuffer");
                shared_[i] = cl::BufferGL(m);  // takes ownership
            }
        } catch (const cl::Error& e) {
            for (auto& s : shared_)
                s = cl::BufferGL();
            glDeleteBuffers(kSlots, buffers_);
            throwClError("clCreateFromGLBuffer failed", e);
        }
    }

    ~GlSharingBridge() override {
        drain();
        for (auto& fences : consumed_)
            for (GLsync f : fences)
                glDeleteSync(f);
        for (auto& s : shared_)
            s = cl::BufferGL();  // release the CL side before the GL buffers
        glDeleteBuffers(kSlots, buffers_);
    }

    InteropPath path() const override { return InteropPath::GlSharing; }
    std::string description() const override {
        return std::string(
                   "gl-sharing: clCreateFromGLBuffer, acquire + device copy + release, "
                   "3 buffers; GL->CL sync ") +
               (fromGlSync_ ? "by GL fence as CL event (cl_khr_gl_event)" : "by GL fence on CPU") +
               ", CL->GL by release event";
    }

  protected:
    void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) override {
        const int index = int(&slot - slots_);
        // Fences handed to CL last time this slot was filled: that copy is done by now.
        if (slot.done() != nullptr) slot.done.wait();
        for (GLsync f : consumed_[index])
            glDeleteSync(f);
        consumed_[index].clear();

        std::vector<cl::Event> waitFor;
        if (slot.readFence && fromGlSync_) {
            glFlush();  // the fence must reach the GL server before CL can wait on it
            cl_int err = CL_SUCCESS;
            cl_event e =
                fromGlSync_(cc_.context()(), reinterpret_cast<cl_GLsync>(slot.readFence), &err);
            if (err != CL_SUCCESS || e == nullptr) {
                waitReadFence(slot);  // fall back to waiting on the CPU for this frame
            } else {
                waitFor.emplace_back(e);  // takes ownership
                consumed_[index].push_back(slot.readFence);
                slot.readFence = nullptr;
            }
        } else {
            waitReadFence(slot);
        }
        auto& q = cc_.queue();
        slot.first = acquireGlObject(driver_, q, shared_[index], waitFor);
        q.enqueueCopyBuffer(source, shared_[index], 0, 0, bytes);
        slot.done = releaseGlObject(driver_, q, shared_[index]);
    }

  private:
    GlSharingDriver driver_ = glSharingDriver();  // the entry points it was built with
    GLuint buffers_[kSlots] = {};
    cl::BufferGL shared_[kSlots];
    std::vector<GLsync> consumed_[kSlots];
    GlSharingDriver::EventFromGlSync fromGlSync_;
};

}  // namespace

std::unique_ptr<BufferBridge> makeGlSharingBridge(ComputeContext& cc, std::size_t capacity,
                                                  const InteropCaps& caps) {
    return std::make_unique<GlSharingBridge>(cc, capacity, caps);
}

}  // namespace clviz
