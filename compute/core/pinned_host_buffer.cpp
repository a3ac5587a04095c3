#include "compute/core/pinned_host_buffer.hpp"

#include <utility>

namespace clviz {

PinnedHostBuffer::PinnedHostBuffer(const cl::Context& context, cl::CommandQueue& queue,
                                   std::size_t bytes)
    : queue_(queue),
      buffer_(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes),
      bytes_(bytes) {
    host_ = queue_.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes);
}

PinnedHostBuffer::~PinnedHostBuffer() {
    release();
}

PinnedHostBuffer::PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
    : queue_(std::move(other.queue_)),
      buffer_(std::move(other.buffer_)),
      host_(std::exchange(other.host_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

PinnedHostBuffer& PinnedHostBuffer::operator=(PinnedHostBuffer&& other) noexcept {
    if (this != &other) {
        release();
        queue_ = std::move(other.queue_);
        buffer_ = std::move(other.buffer_);
        host_ = std::exchange(other.host_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void PinnedHostBuffer::release() noexcept {
    if (host_ == nullptr) return;
    try {
        queue_.enqueueUnmapMemObject(buffer_, host_);
    } catch (...) {  // a destructor must not throw; the buffer goes with its context anyway
    }
    host_ = nullptr;
}

}  // namespace clviz
