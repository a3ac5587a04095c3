#include "compute/image/rotate.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr VariantInfo kVariants[kRotateVariantCount] = {
    {"buffer-nearest", "Buffer, nearest",
     "Inverse mapping from a plain buffer; each output pixel takes the source pixel under its "
     "centre."},
    {"buffer-bilinear", "Buffer, bilinear",
     "Inverse mapping from a plain buffer; the kernel blends the four nearest source pixels."},
    {"image-nearest", "Image + sampler, nearest",
     "Inverse mapping through an image object and a nearest sampler (texture cache)."},
    {"image-bilinear", "Image + sampler, bilinear",
     "Inverse mapping through an image object; the sampler's hardware bilinear filter blends."},
    {"forward", "Forward mapping (course original)",
     "Each source pixel is pushed to its rotated position: scattered writes, and holes where no "
     "source pixel lands."},
};

constexpr const char* kKernelNames[kRotateVariantCount] = {
    "rotate_buffer_nearest", "rotate_buffer_bilinear", "rotate_image_nearest",
    "rotate_image_bilinear", "rotate_forward"};

// Work-groups of 32 x 4 work-items (GROUP_X, GROUP_Y in rotate.cl). An inverse-mapping group
// makes a 16 x 32 tile of output pixels, 4 per work-item (TILE_W, TILE_H): the fastest shape
// measured on the H200 (see rotate.cl).
constexpr std::size_t kGroupX = 32, kGroupY = 4;
constexpr std::size_t kTileW = 16, kTileH = 32;

// Global size of an inverse-mapping launch for an output of `dst`.
cl::NDRange inverseGlobal(ImageSize dst) {
    auto groups = [](int n, std::size_t tile) {
        return (static_cast<std::size_t>(n) + tile - 1) / tile;
    };
    return cl::NDRange(groups(dst.width, kTileW) * kGroupX, groups(dst.height, kTileH) * kGroupY);
}

int index(RotateVariant v) {
    return static_cast<int>(v);
}

// cos and sin in float, exact at multiples of 90 degrees so those rotations move whole pixels.
void cosSin(double degrees, float& c, float& s) {
    if (!std::isfinite(degrees)) throw Error("the rotation angle must be a finite number");
    double d = std::fmod(degrees, 360.0);
    if (d < 0) d += 360.0;
    if (d == 0.0) {
        c = 1, s = 0;
    } else if (d == 90.0) {
        c = 0, s = 1;
    } else if (d == 180.0) {
        c = -1, s = 0;
    } else if (d == 270.0) {
        c = 0, s = -1;
    } else {
        const double r = d * std::numbers::pi / 180.0;
        c = static_cast<float>(std::cos(r));
        s = static_cast<float>(std::sin(r));
    }
}

cl_uchar4 toCl(Rgba8 c) {
    return {{c.r, c.g, c.b, c.a}};
}

}  // namespace

const VariantInfo& rotateVariantInfo(RotateVariant variant) {
    return kVariants[index(variant)];
}

bool rotateVariantUsesImages(RotateVariant variant) {
    return variant == RotateVariant::ImageNearest || variant == RotateVariant::ImageBilinear;
}

ImageSize rotatedSize(ImageSize src, double degrees, RotateFit fit) {
    if (fit == RotateFit::Crop) return src;
    float c = 1, s = 0;
    cosSin(degrees, c, s);
    const double ac = std::fabs(static_cast<double>(c)), as = std::fabs(static_cast<double>(s));
    // The epsilon absorbs float noise so e.g. 45.0000001 degrees does not add a pixel column.
    auto edge = [](double v) { return std::max(1, static_cast<int>(std::ceil(v - 1e-6))); };
    return {edge(src.width * ac + src.height * as), edge(src.width * as + src.height * ac)};
}

RotateGeometry rotateGeometry(ImageSize src, double degrees, RotateFit fit) {
    RotateGeometry g;
    g.src = src;
    g.dst = rotatedSize(src, degrees, fit);
    cosSin(degrees, g.c, g.s);
    g.srcCx = static_cast<float>(src.width) / 2.0f;
    g.srcCy = static_cast<float>(src.height) / 2.0f;
    g.dstCx = static_cast<float>(g.dst.width) / 2.0f;
    g.dstCy = static_cast<float>(g.dst.height) / 2.0f;
    return g;
}

ImageRotate::ImageRotate(ComputeContext& cc) : cc_(cc), ptx_(cc) {
    const DeviceInfo& info = cc.info();
    if (info.imageSupport) {
        std::vector<cl::ImageFormat> formats;
        cc.context().getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, &formats);
        images_ = std::any_of(formats.begin(), formats.end(), [](const cl::ImageFormat& f) {
            return f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNORM_INT8;
        });
        imageMaxWidth_ = info.image2dMaxWidth;
        imageMaxHeight_ = info.image2dMaxHeight;
    }
    // Build the plain set now, so a kernel that does not compile fails here, at start-up.
    for (int v = 0; v < kRotateVariantCount; ++v)
        if (images_ || !rotateVariantUsesImages(static_cast<RotateVariant>(v)))
            kernel(static_cast<RotateVariant>(v), 1);
}

bool ImageRotate::available(RotateVariant variant, ImageSize size, std::string* why) const {
    auto no = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    if (!rotateVariantUsesImages(variant)) return true;
    if (!cc_.info().imageSupport) return no(cc_.info().name + " has no image support");
    if (!images_) return no(cc_.info().name + " cannot read CL_RGBA / CL_UNORM_INT8 images");
    if (size.width > static_cast<long long>(imageMaxWidth_) ||
        size.height > static_cast<long long>(imageMaxHeight_))
        return no("the image is larger than " + cc_.info().name + "'s image2d limit (" +
                  std::to_string(imageMaxWidth_) + " x " + std::to_string(imageMaxHeight_) + ")");
    return true;
}

cl::Kernel& ImageRotate::kernel(RotateVariant variant, int outputWidth) {
    const bool aligned = outputWidth % 4 == 0;
    cl::Kernel& k = kernels_[aligned][index(variant)];
    if (!k()) {
        std::string options = images_ ? "-DCLVIZ_IMAGES" : "";
        if (aligned) options += " -DALIGNED_ROWS";
        k = ptx_.kernel("rotate.cl", kKernelNames[index(variant)], options);
    }
    return k;
}

cl::Image2D ImageRotate::createSourceImage(ImageSize size) const {
    std::string why;
    if (!available(RotateVariant::ImageBilinear, size, &why)) throw Error(why);
    return cl::Image2D(cc_.context(), CL_MEM_READ_ONLY, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                       size.width, size.height);
}

EnqueuedWork ImageRotate::enqueue(const RotateParams& params, const cl::Buffer& src, ImageSize size,
                                  const cl::Buffer& dst) {
    if (rotateVariantUsesImages(params.variant))
        throw Error(std::string("rotate variant '") + rotateVariantInfo(params.variant).id +
                    "' reads an image object, not a buffer");
    checkDeviceBufferFits(cc_.info(), size, "the image to rotate");
    const RotateGeometry g = rotateGeometry(size, params.degrees, params.fit);
    checkDeviceBufferFits(cc_.info(), g.dst, "the rotated image");
    const cl_float4 geom = {{g.c, g.s, g.srcCx, g.srcCy}};
    const cl_float2 dstCentre = {{g.dstCx, g.dstCy}};
    const cl_uchar4 background = toCl(params.background);

    cl::Kernel& k = kernel(params.variant, g.dst.width);
    setArgs(k, src, size.width, size.height, dst, g.dst.width, g.dst.height, geom, dstCentre);
    EnqueuedWork work;
    auto& queue = cc_.queue();
    if (params.variant == RotateVariant::Forward) {
        // Holes must show the background: fill first, then scatter over the source pixels.
        queue.enqueueFillBuffer(dst, background, 0, g.dst.bytes(), nullptr, &work.first);
        queue.enqueueNDRangeKernel(
            k, cl::NullRange,
            cl::NDRange(roundUp(size.width, kGroupX), roundUp(size.height, kGroupY)),
            cl::NDRange(kGroupX, kGroupY), nullptr, &work.last);
        return work;
    }
    k.setArg(8, background);
    queue.enqueueNDRangeKernel(k, cl::NullRange, inverseGlobal(g.dst),
                               cl::NDRange(kGroupX, kGroupY), nullptr, &work.last);
    work.first = work.last;
    return work;
}

EnqueuedWork ImageRotate::enqueue(const RotateParams& params, const cl::Image2D& src,
                                  const cl::Buffer& dst) {
    if (!rotateVariantUsesImages(params.variant))
        throw Error(std::string("rotate variant '") + rotateVariantInfo(params.variant).id +
                    "' reads a buffer, not an image object");
    const ImageSize size{static_cast<int>(src.getImageInfo<CL_IMAGE_WIDTH>()),
                         static_cast<int>(src.getImageInfo<CL_IMAGE_HEIGHT>())};
    std::string why;
    if (!available(params.variant, size, &why)) throw Error(why);
    const RotateGeometry g = rotateGeometry(size, params.degrees, params.fit);
    checkDeviceBufferFits(cc_.info(), g.dst, "the rotated image");
    const cl_float4 geom = {{g.c, g.s, g.srcCx, g.srcCy}};
    const cl_float2 dstCentre = {{g.dstCx, g.dstCy}};

    cl::Kernel& k = kernel(params.variant, g.dst.width);
    setArgs(k, src, dst, g.dst.width, g.dst.height, geom, dstCentre, toCl(params.background));
    EnqueuedWork work;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, inverseGlobal(g.dst),
                                     cl::NDRange(kGroupX, kGroupY), nullptr, &work.last);
    work.first = work.last;
    return work;
}

}  // namespace clviz
