// Host-copy interop: the device's buffer is read into GL-visible memory every frame. With
// glBufferStorage the read lands straight in a persistently mapped, coherent GL buffer (one copy
// in total); without it, into host memory and then glBufferSubData (two copies).
#include <cstring>
#include <vector>

#include "compute/compute_context.hpp"
#include "compute/error.hpp"
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
    HostCopyBridge(ComputeContext& cc, std::size_t capacity, bool persistent)
        : BufferBridge(cc, capacity, kSlots), persistent_(persistent) {
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
            for (auto& s : staging_)
                s.resize(capacity);
        }
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        if (glGetError() != GL_NO_ERROR && !persistent_) {
            glDeleteBuffers(1, &buffer_);
            throw Error("cannot allocate a GL buffer of " + std::to_string(total) + " bytes");
        }
        for (int i = 0; i < kSlots; ++i) {
            slots_[i].buffer = buffer_;
            slots_[i].offset = GLintptr(stride_ * i);
        }
    }

    ~HostCopyBridge() override {
        drain();  // the device may still be writing into the mapping
        if (mapped_) {
            glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
            glUnmapBuffer(GL_COPY_WRITE_BUFFER);
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        }
        glDeleteBuffers(1, &buffer_);
    }

    InteropPath path() const override { return InteropPath::HostCopy; }
    std::string description() const override {
        return persistent_ ? "host copy: clEnqueueReadBuffer into a persistently mapped GL buffer, "
                             "3 slots"
                           : "host copy: clEnqueueReadBuffer to host memory, then glBufferSubData";
    }

  protected:
    void enqueueCopy(Slot& slot, const cl::Buffer& source, std::size_t bytes) override {
        const int index = int(&slot - slots_);
        void* target;
        if (persistent_) {
            waitReadFence(slot);  // GL must be done drawing this region before it is overwritten
            target = mapped_ + slot.offset;
        } else {
            target = staging_[index].data();
        }
        cl::Event done;
        cc_.queue().enqueueReadBuffer(source, CL_FALSE, 0, bytes, target, nullptr, &done);
        slot.first = done;
        slot.done = done;
    }

    void prepareForDraw(Slot& slot) override {
        if (persistent_) return;  // coherent mapping: the device's writes are already visible
        waitReadFence(slot);
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
        glBufferSubData(GL_COPY_WRITE_BUFFER, slot.offset, GLsizeiptr(slot.bytes),
                        staging_[&slot - slots_].data());
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    }

  private:
    bool persistent_;
    std::size_t stride_ = 0;
    GLuint buffer_ = 0;
    unsigned char* mapped_ = nullptr;
    std::vector<unsigned char> staging_[kSlots];
};

}  // namespace

std::unique_ptr<BufferBridge> makeHostCopyBridge(ComputeContext& cc, std::size_t capacity,
                                                 bool persistent) {
    return std::make_unique<HostCopyBridge>(cc, capacity, persistent);
}

}  // namespace clviz
