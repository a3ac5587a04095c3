#pragma once
// Grayscale (kernels/grayscale.cl): R = G = B = luma8(R, G, B), alpha kept. Exact integer math,
// so the device matches the CPU bit for bit.
#include "compute/image/filter.hpp"

namespace clviz {

class ComputeContext;

class ImageGrayscale {
  public:
    explicit ImageGrayscale(ComputeContext& cc);

    // `src` and `dst` hold `size` RGBA8 pixels (they may be the same buffer).
    EnqueuedWork enqueue(const cl::Buffer& src, ImageSize size, const cl::Buffer& dst);

  private:
    ComputeContext& cc_;
    cl::Kernel kernel_;
};

}  // namespace clviz
