#pragma once
// CPU references for every image-lab filter: what the tests compare the kernels with, and the
// multi-threaded C++ baseline of the benchmark. Plain loops, written to be obviously right; the
// documented conventions live in the filter headers.
#include <vector>

#include "compute/image/equalize.hpp"
#include "compute/image/histogram.hpp"
#include "compute/image/image.hpp"
#include "compute/image/rotate.hpp"

namespace clviz::reference {

// threads <= 0: std::thread::hardware_concurrency(). Rows are split between threads.

// Inverse-mapped rotation; params.variant picks nearest (BufferNearest, ImageNearest) or
// bilinear (BufferBilinear, ImageBilinear). Nearest is exact; bilinear blends in double and
// rounds half to even. Forward is refused here (see rotateForwardSources).
Rgba8Image rotate(const Rgba8Image& src, const RotateParams& params, int threads = 1);

// Forward mapping has write races (two source pixels may land on one output pixel, and either
// may win), so its reference is the set of source pixels landing on each output pixel:
// result[y * w + x] lists source pixel indices (y * srcWidth + x); empty means a hole.
std::vector<std::vector<std::size_t>> rotateForwardSources(ImageSize src, const RotateParams& p);

Histogram histogram(const Rgba8Image& image, int threads = 1);
// Only the pixels of `image` (made by the rotate `coverage` describes) whose centre maps inside
// its source, in the kernels' float arithmetic: HistogramTuning::coverage.
Histogram histogram(const Rgba8Image& image, const RotateGeometry& coverage);

Rgba8Image transpose(const Rgba8Image& src);
Rgba8Image mean3(const Rgba8Image& src);
Rgba8Image median3(const Rgba8Image& src);
Rgba8Image grayscale(const Rgba8Image& src);
Rgba8Image equalize(const Rgba8Image& src, EqualizeMode mode);
// After the rotate `coverage` describes: the tables from the covered pixels' histogram (above),
// applied to every pixel.
Rgba8Image equalize(const Rgba8Image& src, EqualizeMode mode, const RotateGeometry& coverage);

// The 256-entry tables equalize() uses, per channel R, G, B (formula in
// compute/image/equalize.hpp).
std::array<std::array<std::uint8_t, 256>, 3> equalizeTables(const Histogram& h, EqualizeMode mode);

}  // namespace clviz::reference
