// Host-copy interop: the device's buffer reaches GL through host memory every frame.
//
//   direct (CPU devices): clEnqueueReadBuffer writes straight into the persistently mapped,
//       coherent GL buffer: one copy in total.
//   pinned staging (GPU devices): the read lands in pinned memory (a mapped CL_MEM_ALLOC_HOST_PTR
//       buffer), then view() copies it into GL memory. A GPU can DMA into pinned memory
//       asynchronously; a read into the GL mapping, which the CL driver does not know is pinned,
//       would be a synchronous staged copy that stalls the CPU until the frame's kernels finish.
//   no glBufferStorage (GL < 4.4): the staged bytes go to GL with glBufferSubData.
#include <cstring>
#include <vector>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/bridge_paths.hpp"

namespace clviz {

namespace {

constexpr int kSlots = 3;  // GL may read one, the device writes another, one spare for latency 1

std::string glErrorText() {
    GLenum e = glGetError();
    while (glGetError() != GL_NO_ERROR) {
    }
    return e == GL_NO_ERROR ? std::string("no GL error reported") : "GL error " + std::to_string(e);
}

class HostCopyBridge final : public BufferBridge {
  public:
    HostCopyBridge(ComputeContext& cc, std::size_t capacity, bool persistent, bool pinned)
        : BufferBridge(cc, capacity, kSlots), persistent_(persistent), pinned_(pinned) {
        stride_ = slotStride(capacity);
        const GLsizeiptr total = GLsizeiptr(stride_ * kSlots);
        while (glGetError() != GL_NO_ERROR) {
        }
        glGenBuffers(1, &buffer_);
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
        if (persistent_) {
            const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
            glBufferStorage(GL_COPY_WRITE_BUFFER, total, nullptr, flags);
            mapped_ = static_cast<unsigned char*>(
                glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, total, flags));
            if (mapped_ == nullptr) {
                std::string why = glErrorText();
                glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
                glDeleteBuffers(1, &buffer_);
                throw Error("cannot map a persistent GL buffer of " + std::to_string(total) +
                            " bytes (" + why + ")");
            }
        } else {
            glBufferData(GL_COPY_WRITE_BUFFER, total, nullptr, GL_STREAM_DRAW);
        }
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        if (glGetError() != GL_NO_ERROR && !persistent_) {
            glDeleteBuffers(1, &buffer_);
            throw Error("cannot allocate a GL buffer of " + std::to_string(total) + " bytes");
        }
        try {
            allocateStaging(capacity);
        } catch (...) {
            releaseGl();
            throw;
        }
        for (int i = 0; i < kSlots; ++i) {
            slots_[i].buffer = buffer_;
            slots_[i].offset = GLintptr(stride_ * i);
        }
    }

    ~HostCopyBridge() override {
        drain();  // the device may still be writing into the mapping or the staging memory
        releaseStaging();
        releaseGl();
    }

    InteropPath path() const override { return InteropPath::HostCopy; }
    std::string description() const override {
        if (!pinned_ && persistent_)
            return "host copy: clEnqueueReadBuffer straight into a persistently mapped GL buffer, "
                   "3 slots";
        std::string s = pinned_ ? "host copy: clEnqueueReadBuffer into pinned memory, then "
                                : "host copy: clEnqueueReadBuffer into host memory, then ";
        return s + (persistent_ ? "memcpy into a persistently mapped GL buffer, 3 slots"
                                : "glBufferSubData (no ARB_buffer_storage)");
    }

  protected:
    void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) override {
        const int index = int(&slot - slots_);
        void* target;
        if (staged()) {
            target = staging_[index];  // GL never reads it: no fence to wait for
        } else {
            waitReadFence(slot);  // GL must be done drawing this region before it is overwritten
            target = mapped_ + slot.offset;
        }
        cl::Event done;
        cc_.queue().enqueueReadBuffer(source, CL_FALSE, 0, bytes, target, nullptr, &done);
        slot.first = done;
        slot.done = done;
    }

    void prepareForDraw(Slot& slot) override {
        if (!staged()) return;  // coherent mapping: the device's writes are already visible
        const int index = int(&slot - slots_);
        waitReadFence(slot);
        if (persistent_) {
            std::memcpy(mapped_ + slot.offset, staging_[index], slot.bytes);
        } else {
            glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
            glBufferSubData(GL_COPY_WRITE_BUFFER, slot.offset, GLsizeiptr(slot.bytes),
                            staging_[index]);
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        }
    }

  private:
    bool staged() const { return pinned_ || !persistent_; }

    void allocateStaging(std::size_t capacity) {
        if (!staged()) return;
        for (int i = 0; i < kSlots; ++i) {
            if (pinned_) {
                // The usual way to get pinned host memory in OpenCL: an ALLOC_HOST_PTR buffer,
                // mapped once and kept mapped; reads into that pointer are plain DMA.
                pinnedBuffers_[i] =
                    cl::Buffer(cc_.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, capacity);
                staging_[i] = cc_.queue().enqueueMapBuffer(pinnedBuffers_[i], CL_TRUE,
                                                           CL_MAP_READ | CL_MAP_WRITE, 0, capacity);
            } else {
                hostStaging_[i].resize(capacity);
                staging_[i] = hostStaging_[i].data();
            }
        }
    }

    void releaseStaging() {
        for (int i = 0; i < kSlots; ++i) {
            if (pinnedBuffers_[i]() != nullptr && staging_[i] != nullptr) {
                try {
                    cc_.queue().enqueueUnmapMemObject(pinnedBuffers_[i], staging_[i]);
                } catch (const cl::Error&) {
                }
            }
            staging_[i] = nullptr;
        }
        cc_.finishQuietly();
    }

    void releaseGl() {
        if (mapped_) {
            glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
            glUnmapBuffer(GL_COPY_WRITE_BUFFER);
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
            mapped_ = nullptr;
        }
        if (buffer_) glDeleteBuffers(1, &buffer_);
        buffer_ = 0;
    }

    bool persistent_;
    bool pinned_;
    std::size_t stride_ = 0;
    GLuint buffer_ = 0;
    unsigned char* mapped_ = nullptr;
    cl::Buffer pinnedBuffers_[kSlots];
    std::vector<unsigned char> hostStaging_[kSlots];
    void* staging_[kSlots] = {};
};

}  // namespace

std::unique_ptr<BufferBridge> makeHostCopyBridge(ComputeContext& cc, std::size_t capacity,
                                                 bool persistent, bool pinned) {
    return clBoundary("cannot allocate pinned staging memory for host copy", [&] {
        return std::unique_ptr<BufferBridge>(
            std::make_unique<HostCopyBridge>(cc, capacity, persistent, pinned));
    });
}

}  // namespace clviz
