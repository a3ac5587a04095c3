#pragma once
// Transpose through local-memory tiles (kernels/transpose.cl): output pixel (x, y) is source
// pixel (y, x), so a w x h image becomes h x w. Reads and writes stay coalesced because each
// work-group stages a 32 x 32 tile in local memory (padded against bank conflicts).
#include "compute/image/filter.hpp"

namespace clviz {

class ComputeContext;

class ImageTranspose {
  public:
    explicit ImageTranspose(ComputeContext& cc);

    // `src` holds `size` RGBA8 pixels; `dst` receives {size.height, size.width} pixels.
    EnqueuedWork enqueue(const cl::Buffer& src, ImageSize size, const cl::Buffer& dst);

  private:
    ComputeContext& cc_;
    cl::Kernel kernel_;
};

}  // namespace clviz
