// Every rotate variant against the CPU reference: nearest exactly, bilinear within one level per
// channel, forward mapping against the set of source pixels that land on each output pixel.
#include <gtest/gtest.h>

#include <cmath>

#include "compute/core/program_cache.hpp"
#include "compute/image/reference.hpp"
#include "compute/image/rotate.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

ImageRotate& rotator() {
    static ImageRotate r(context());
    return r;
}

struct Case {
    int w, h;
    double degrees;
    RotateFit fit;
};

// Awkward sizes (1 x 1, single rows and columns, primes, sizes off the 16 x 32 tile, widths that
// are multiples of 4 (16-byte stores) and are not) and angles (none, quarter turns, negative,
// above 360, irrational-ish).
std::vector<Case> cases() {
    std::vector<Case> out;
    const std::pair<int, int> sizes[] = {{1, 1},  {1, 13}, {17, 1},  {37, 53},
                                         {64, 8}, {33, 9}, {20, 35}, {4, 4}};
    const double angles[] = {0, 30, 90, -45, 180, 270, 137.5, 725.25};
    for (auto [w, h] : sizes)
        for (double a : angles)
            for (RotateFit fit : {RotateFit::Crop, RotateFit::Expand})
                out.push_back({w, h, a, fit});
    out.push_back({1031, 769, 33.3, RotateFit::Expand});  // large, not a multiple of anything
    out.push_back({1031, 769, -90, RotateFit::Crop});
    return out;
}

std::string describe(const Case& c, RotateVariant v) {
    return std::string(rotateVariantInfo(v).id) + " " + std::to_string(c.w) + "x" +
           std::to_string(c.h) + " at " + std::to_string(c.degrees) + " deg " +
           (c.fit == RotateFit::Crop ? "crop" : "expand") + ", " + seedNote();
}

Rgba8Image runOnDevice(const RotateParams& p, const Rgba8Image& src) {
    ImageRotate& r = rotator();
    const ImageSize out = rotatedSize(src.size(), p.degrees, p.fit);
    cl::Buffer dst = deviceBuffer(out);
    if (rotateVariantUsesImages(p.variant)) {
        cl::Image2D image = r.createSourceImage(src.size());
        context().queue().enqueueWriteImage(image, CL_TRUE, {0, 0, 0},
                                            {std::size_t(src.width), std::size_t(src.height), 1}, 0,
                                            0, src.pixels.data());
        r.enqueue(p, image, dst).milliseconds();
    } else {
        r.enqueue(p, upload(src), src.size(), dst).milliseconds();
    }
    return download(dst, out);
}

void checkInverseVariant(RotateVariant variant, int tolerance) {
    if (!rotator().available(variant, {64, 64})) GTEST_SKIP() << "device has no image support";
    std::uint64_t salt = 100 * static_cast<int>(variant);
    for (const Case& c : cases()) {
        SCOPED_TRACE(describe(c, variant));
        const Rgba8Image src = randomImage(c.w, c.h, ++salt);
        RotateParams p;
        p.degrees = c.degrees;
        p.variant = variant;
        p.fit = c.fit;
        p.background = {static_cast<std::uint8_t>(salt * 37), 200, 13, 77};
        const Rgba8Image want = reference::rotate(src, p);
        const Rgba8Image got = runOnDevice(p, src);
        std::string where;
        ASSERT_LE(maxDifference(got, want, &where), tolerance) << where;
    }
}

}  // namespace

TEST(ImageRotate, BufferNearestIsExact) {
    checkInverseVariant(RotateVariant::BufferNearest, 0);
}
TEST(ImageRotate, ImageNearestIsExact) {
    checkInverseVariant(RotateVariant::ImageNearest, 0);
}
TEST(ImageRotate, BufferBilinearWithinOneLevel) {
    checkInverseVariant(RotateVariant::BufferBilinear, 1);
}
TEST(ImageRotate, ImageBilinearWithinTexturePrecision) {
    // GPU texture units may blend with fixed-point weights (NVIDIA: 8 fractional bits), which
    // costs up to about one level per axis at a full-range edge; CPU drivers filter in float.
    const bool gpu = context().info().kind == DeviceKind::Gpu;
    checkInverseVariant(RotateVariant::ImageBilinear, gpu ? 3 : 1);
}

TEST(ImageRotate, ForwardMatchesTheSourcesLandingOnEachPixel) {
    std::uint64_t salt = 900;
    std::size_t holes = 0;
    for (const Case& c : cases()) {
        SCOPED_TRACE(describe(c, RotateVariant::Forward));
        const Rgba8Image src = randomImage(c.w, c.h, ++salt);
        RotateParams p;
        p.degrees = c.degrees;
        p.variant = RotateVariant::Forward;
        p.fit = c.fit;
        p.background = {1, 2, 3, 4};
        const Rgba8Image got = runOnDevice(p, src);
        const auto sources = reference::rotateForwardSources(src.size(), p);
        ASSERT_EQ(sources.size(), got.size().pixels());
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const std::uint8_t* g = got.pixels.data() + 4 * i;
            if (sources[i].empty()) {
                ++holes;
                ASSERT_TRUE(g[0] == 1 && g[1] == 2 && g[2] == 3 && g[3] == 4)
                    << "pixel " << i << " should keep the background";
                continue;
            }
            bool fromASource = false;
            for (std::size_t s : sources[i])
                fromASource |= std::equal(g, g + 4, src.pixels.data() + 4 * s);
            ASSERT_TRUE(fromASource) << "pixel " << i << " is not one of its source pixels";
        }
    }
    EXPECT_GT(holes, 0u) << "forward mapping at odd angles leaves holes";
}

TEST(ImageRotate, QuarterTurnsMoveWholePixels) {
    // 90 degrees counter-clockwise: the top-right pixel becomes the top-left one.
    Rgba8Image src = randomImage(5, 3, 7);
    RotateParams p;
    p.degrees = 90;
    p.fit = RotateFit::Expand;
    for (RotateVariant v : {RotateVariant::BufferNearest, RotateVariant::BufferBilinear}) {
        p.variant = v;
        const Rgba8Image got = runOnDevice(p, src);
        ASSERT_EQ(got.width, 3);
        ASSERT_EQ(got.height, 5);
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 3; ++x)
                ASSERT_TRUE(std::equal(got.at(x, y), got.at(x, y) + 4, src.at(4 - y, x)))
                    << rotateVariantInfo(v).id << " at (" << x << ", " << y << ")";
    }
}

TEST(ImageRotate, ExpandedSizeHoldsTheWholePicture) {
    EXPECT_EQ(rotatedSize({100, 50}, 0, RotateFit::Expand), (ImageSize{100, 50}));
    EXPECT_EQ(rotatedSize({100, 50}, 90, RotateFit::Expand), (ImageSize{50, 100}));
    EXPECT_EQ(rotatedSize({100, 50}, -270, RotateFit::Expand), (ImageSize{50, 100}));
    EXPECT_EQ(rotatedSize({100, 50}, 180, RotateFit::Expand), (ImageSize{100, 50}));
    const double r = std::sqrt(2.0) / 2;
    EXPECT_EQ(rotatedSize({100, 100}, 45, RotateFit::Expand),
              (ImageSize{int(std::ceil(200 * r)), int(std::ceil(200 * r))}));
    EXPECT_EQ(rotatedSize({100, 50}, 33, RotateFit::Crop), (ImageSize{100, 50}));
    EXPECT_EQ(rotatedSize({1, 1}, 45, RotateFit::Expand), (ImageSize{2, 2}));
    EXPECT_THROW(rotatedSize({10, 10}, NAN, RotateFit::Expand), Error);
}

TEST(ImageRotate, VariantsAreNamedAndImageNeedsAreDeclared) {
    for (int v = 0; v < kRotateVariantCount; ++v) {
        const auto& info = rotateVariantInfo(static_cast<RotateVariant>(v));
        EXPECT_STRNE(info.id, "");
        EXPECT_STRNE(info.name, "");
        EXPECT_STRNE(info.description, "");
    }
    EXPECT_TRUE(rotateVariantUsesImages(RotateVariant::ImageBilinear));
    EXPECT_FALSE(rotateVariantUsesImages(RotateVariant::Forward));
}

TEST(ImageRotate, WrongEntryPointIsAClearError) {
    RotateParams p;
    p.variant = RotateVariant::ImageBilinear;
    cl::Buffer b = deviceBuffer({4, 4});
    EXPECT_THROW(rotator().enqueue(p, b, {4, 4}, b), Error);
    EXPECT_THROW(rotator().enqueue(p, b, {0, 4}, b), Error);
}

TEST(ImageRotate, ImageLimitsAreReported) {
    const auto& info = context().info();
    std::string why;
    if (!info.imageSupport) {
        EXPECT_FALSE(rotator().available(RotateVariant::ImageNearest, {8, 8}, &why));
        EXPECT_NE(why.find("image support"), std::string::npos) << why;
        return;
    }
    const int tooWide = static_cast<int>(info.image2dMaxWidth) + 1;
    EXPECT_FALSE(rotator().available(RotateVariant::ImageNearest, {tooWide, 1}, &why));
    EXPECT_NE(why.find("image2d"), std::string::npos) << why;
    EXPECT_TRUE(rotator().available(RotateVariant::BufferNearest, {tooWide, 1}));
}

TEST(ImageRotate, BuildsWithoutImageSupport) {
    // Devices without images build rotate.cl without CLVIZ_IMAGES: the buffer kernels must not
    // depend on anything image-related.
    const cl::Program& program = context().programs().get("rotate.cl", "");
    cl::Kernel nearest(program, "rotate_buffer_nearest");
    EXPECT_THROW(cl::Kernel(program, "rotate_image_bilinear"), cl::Error);
}
