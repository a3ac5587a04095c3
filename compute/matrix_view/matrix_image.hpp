#pragma once
// Pictures of float matrices for the linear-algebra lab, made on the device: each element one
// RGBA8 pixel (row-major, top row first, as SharedTexture takes them). Values map to a diverging
// blue-white-red scale; an error picture maps |C - reference| to a log-scaled translucent yellow
// for drawing over C.
#include <cstddef>

#include "compute/core/cl.hpp"

namespace clviz {

class ComputeContext;

class MatrixImage {
  public:
    explicit MatrixImage(ComputeContext& cc);

    // `count` floats of `matrix` into `rgba` (count × 4 bytes); |value| >= scale saturates.
    // Throws clviz::Error when scale is not positive or a buffer is too small.
    cl::Event colour(const cl::Buffer& matrix, std::size_t count, float scale,
                     const cl::Buffer& rgba);
    // |c - reference| / scale per element into `rgba`: transparent at 1e-8 and below, opaque
    // at 1e-2 and above; non-finite errors magenta.
    cl::Event error(const cl::Buffer& c, const cl::Buffer& reference, std::size_t count,
                    float scale, const cl::Buffer& rgba);

    // Fetches the kernels again (live reload).
    void reloadKernels();

  private:
    ComputeContext& cc_;
    cl::Kernel colour_;
    cl::Kernel error_;
};

}  // namespace clviz
