#pragma once
// The spectral lab's pictures on the device: three rows of a cube, of MNF components or of
// denoised bands, each stretched from [lo, hi] to 0..255, as an RGBA8 buffer of the cube's
// samples x lines (the image lab's pixel layout, so SharedTexture takes it to GL). A grey band is
// the same row three times.
#include <array>

#include "compute/core/cl.hpp"
#include "compute/image/filter.hpp"

namespace clviz {

class ComputeContext;

struct ChannelStretch {
    int row = 0;
    float lo = 0, hi = 1;
};

class SpectralPicture {
  public:
    explicit SpectralPicture(ComputeContext& cc);

    // `src` holds rows of `pixels` values, uchar when `u8`, else float, row r starting at value
    // r * rowPitch (0: pixels). Writes RGBA8 into `out` (at least pixels * 4 bytes).
    EnqueuedWork enqueue(const cl::Buffer& src, bool u8, int pixels,
                         const std::array<ChannelStretch, 3>& channels, const cl::Buffer& out,
                         std::size_t rowPitch = 0);

  private:
    ComputeContext& cc_;
    cl::Kernel kernels_[2];  // [u8]
};

}  // namespace clviz
