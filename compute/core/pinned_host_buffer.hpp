#pragma once
// Host memory the device reads into without a bounce copy: a CL_MEM_ALLOC_HOST_PTR buffer mapped
// once (the usual way to get pinned memory in OpenCL), unmapped when it goes. Reads of small
// results the host waits for land here instead of in pageable vectors, which the driver would
// copy through its own staging buffer first.
#include <cstddef>

#include "compute/core/cl.hpp"

namespace clviz {

class PinnedHostBuffer {
  public:
    PinnedHostBuffer() = default;
    PinnedHostBuffer(const cl::Context& context, cl::CommandQueue& queue, std::size_t bytes);
    ~PinnedHostBuffer();
    PinnedHostBuffer(PinnedHostBuffer&& other) noexcept;
    PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept;
    PinnedHostBuffer(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

    void* data() const { return host_; }
    std::size_t bytes() const { return bytes_; }

  private:
    void release() noexcept;

    cl::CommandQueue queue_;
    cl::Buffer buffer_;
    void* host_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace clviz
