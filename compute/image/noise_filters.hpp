#pragma once
// The 3 x 3 noise filters of course exercise 002 (kernels/noise_filters.cl), on all four channels.
// Each work-item makes a 4 x 4 block of pixels from 16-byte row loads, two channels per 32-bit
// operation. Borders replicate the edge pixel (clamp-to-edge), so the output has the source's
// size and no dark frame.
//   mean:   (sum of the 9 values + 4) / 9 in integers: the rounded mean, exact
//   median: the 5th of the 9 values, per channel, from the window's sorted columns
#include "compute/image/filter.hpp"
#include "compute/core/inline_ptx.hpp"

namespace clviz {

class ComputeContext;

enum class NoiseFilter { Mean3, Median3 };

class ImageNoiseFilter {
  public:
    explicit ImageNoiseFilter(ComputeContext& cc);

    // `src` and `dst` hold `size` RGBA8 pixels; they must be different buffers.
    EnqueuedWork enqueue(NoiseFilter filter, const cl::Buffer& src, ImageSize size,
                         const cl::Buffer& dst);

  private:
    // Built on first use per filter and per kind of width (a multiple of 4 or not).
    cl::Kernel& kernel(NoiseFilter filter, int width);

    ComputeContext& cc_;
    InlinePtxBuilds ptx_;       // the median's NVIDIA build
    cl::Kernel kernels_[2][2];  // [median][aligned rows]
};

}  // namespace clviz
