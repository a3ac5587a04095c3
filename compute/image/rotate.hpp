#pragma once
// Rotation about the image centre by any angle (kernels/rotate.cl).
//
// Geometry (shared bit for bit by the kernels and the CPU reference, so nearest sampling matches
// exactly): pixel (x, y) covers [x, x+1) x [y, y+1) and its centre is (x + 0.5, y + 0.5); the
// rotation centre is (width / 2, height / 2) of each image. Positive angles turn the picture
// counter-clockwise as seen on screen (rows top to bottom). For an output pixel centre offset
// (dx, dy) from the output centre, the source position is
//     sx = fma(c, dx, fma(-s, dy, srcCx)),  sy = fma(s, dx, fma(c, dy, srcCy))
// in single precision with explicit fma (the kernels disable FP contraction), c and s being
// cos and sin of the angle rounded to float (exactly 0 and +-1 at multiples of 90 degrees).
//   nearest:  source pixel (floor(sx), floor(sy)); outside the source -> background colour.
//   bilinear: the four pixels around (sx - 0.5, sy - 0.5) weighted as usual; neighbours outside
//             the source count as the background colour, so edges are anti-aliased against it.
//             The image variant lets the sampler blend: CPU drivers do it in float (within one
//             level of the reference); GPU texture units may use fixed-point weights (NVIDIA: 8
//             fractional bits), up to about one more level per axis at hard edges.
//   forward:  each source pixel is pushed to output pixel floor(forward position of its
//             centre); output pixels nobody lands on keep the background (the holes).
#include <cstdint>
#include <vector>

#include "compute/image/filter.hpp"
#include "compute/core/inline_ptx.hpp"

namespace clviz {

class ComputeContext;

enum class RotateVariant {
    BufferNearest,   // inverse mapping, plain buffer reads, nearest
    BufferBilinear,  // inverse mapping, plain buffer reads, bilinear in the kernel
    ImageNearest,    // inverse mapping, image object + sampler, nearest
    ImageBilinear,   // inverse mapping, image object + sampler, hardware bilinear
    Forward,         // the course's original forward mapping: scatter, holes visible
};
constexpr int kRotateVariantCount = 5;

// Indexed by RotateVariant.
const VariantInfo& rotateVariantInfo(RotateVariant variant);
bool rotateVariantUsesImages(RotateVariant variant);

enum class RotateFit {
    Crop,    // output has the source's size; corners are cut off
    Expand,  // output grows to hold the whole rotated picture
};

struct RotateParams {
    double degrees = 0;
    RotateVariant variant = RotateVariant::BufferBilinear;
    RotateFit fit = RotateFit::Crop;
    Rgba8 background{0, 0, 0, 255};
};

// Everything the kernels need, computed once on the host.
struct RotateGeometry {
    ImageSize src, dst;
    float c = 1, s = 0;          // cos, sin of the angle
    float srcCx = 0, srcCy = 0;  // source centre (width / 2, height / 2)
    float dstCx = 0, dstCy = 0;  // output centre
};
RotateGeometry rotateGeometry(ImageSize src, double degrees, RotateFit fit);

// Output size: the source size for Crop; for Expand the bounding box of the rotated picture
// (ceil(w|c| + h|s|) x ceil(w|s| + h|c|), at least 1 x 1).
ImageSize rotatedSize(ImageSize src, double degrees, RotateFit fit);

class ImageRotate {
  public:
    explicit ImageRotate(ComputeContext& cc);

    // Whether `variant` can run on this device for a source of `size`; when not, `why` says so
    // ("the device has no image support", "wider than CL_DEVICE_IMAGE2D_MAX_WIDTH (8192)").
    bool available(RotateVariant variant, ImageSize size, std::string* why = nullptr) const;

    // Buffer variants (BufferNearest, BufferBilinear, Forward): `src` holds `size` RGBA8 pixels,
    // `dst` receives rotatedSize(size, ...) pixels. Throws clviz::Error for an image variant.
    EnqueuedWork enqueue(const RotateParams& params, const cl::Buffer& src, ImageSize size,
                         const cl::Buffer& dst);

    // Image variants (ImageNearest, ImageBilinear): `src` is a CL_RGBA / CL_UNORM_INT8 image
    // (for example wrapped from a GL texture, acquired by the caller). Throws clviz::Error for a
    // buffer variant or when the device has no image support.
    EnqueuedWork enqueue(const RotateParams& params, const cl::Image2D& src, const cl::Buffer& dst);

    // A CL_RGBA / CL_UNORM_INT8 read-only image of `size` for the image variants.
    cl::Image2D createSourceImage(ImageSize size) const;

  private:
    // Built on first use, once with 16-byte row stores (output width a multiple of 4) and once
    // without (ALIGNED_ROWS in rotate.cl).
    cl::Kernel& kernel(RotateVariant variant, int outputWidth);

    ComputeContext& cc_;
    InlinePtxBuilds ptx_;  // byte permutes for the bilinear buffer variant on NVIDIA
    bool images_ = false;
    std::size_t imageMaxWidth_ = 0, imageMaxHeight_ = 0;
    cl::Kernel kernels_[2][kRotateVariantCount];  // [aligned rows][variant]
};

}  // namespace clviz
