// Transpose, 3x3 mean and median, grayscale and equalization against the CPU reference. All are
// integer computations on both sides, so they must match exactly (no tolerance).
#include <gtest/gtest.h>

#include "compute/image/equalize.hpp"
#include "compute/image/grayscale.hpp"
#include "compute/image/noise_filters.hpp"
#include "compute/image/reference.hpp"
#include "compute/image/transpose.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

// 1 x 1, single rows/columns, primes, sizes around the 32 x 8 and 32 x 32 tiles, one large.
const std::pair<int, int> kSizes[] = {{1, 1},  {1, 19},  {23, 1},     {2, 2}, {37, 53},  {32, 8},
                                      {33, 9}, {31, 65}, {1031, 769}, {4, 3}, {128, 67}, {1032, 5}};

std::string where(int w, int h) {
    return std::to_string(w) + "x" + std::to_string(h) + ", " + seedNote();
}

template <class Device, class Reference>
void checkAllSizes(std::uint64_t salt, Device device, Reference reference) {
    for (auto [w, h] : kSizes) {
        SCOPED_TRACE(where(w, h));
        const Rgba8Image src = randomImage(w, h, ++salt);
        const Rgba8Image want = reference(src);
        const cl::Buffer in = upload(src);
        cl::Buffer out = deviceBuffer(want.size());
        device(in, src.size(), out).milliseconds();
        std::string at;
        ASSERT_EQ(maxDifference(download(out, want.size()), want, &at), 0) << at;
    }
}

}  // namespace

TEST(ImageFilters, TransposeIsExact) {
    ImageTranspose t(context());
    checkAllSizes(
        100,
        [&](const cl::Buffer& in, ImageSize s, const cl::Buffer& out) {
            return t.enqueue(in, s, out);
        },
        [](const Rgba8Image& src) { return reference::transpose(src); });
}

TEST(ImageFilters, Mean3IsExact) {
    ImageNoiseFilter f(context());
    checkAllSizes(
        200,
        [&](const cl::Buffer& in, ImageSize s, const cl::Buffer& out) {
            return f.enqueue(NoiseFilter::Mean3, in, s, out);
        },
        [](const Rgba8Image& src) { return reference::mean3(src); });
}

TEST(ImageFilters, Median3IsExact) {
    ImageNoiseFilter f(context());
    checkAllSizes(
        300,
        [&](const cl::Buffer& in, ImageSize s, const cl::Buffer& out) {
            return f.enqueue(NoiseFilter::Median3, in, s, out);
        },
        [](const Rgba8Image& src) { return reference::median3(src); });
}

TEST(ImageFilters, MedianRemovesSaltAndPepper) {
    // A flat grey image with isolated black and white pixels comes back flat.
    Rgba8Image img = solidImage(40, 30, {128, 128, 128, 255});
    for (int i = 0; i < 40; ++i) {
        std::uint8_t* p = img.at((i * 7) % 40, (i * 11) % 30);
        p[0] = p[1] = p[2] = (i % 2) ? 255 : 0;
    }
    ImageNoiseFilter f(context());
    cl::Buffer out = deviceBuffer(img.size());
    f.enqueue(NoiseFilter::Median3, upload(img), img.size(), out).milliseconds();
    EXPECT_EQ(maxDifference(download(out, img.size()), solidImage(40, 30, {128, 128, 128, 255})),
              0);
    EXPECT_THROW(f.enqueue(NoiseFilter::Median3, out, img.size(), out), Error);
}

TEST(ImageFilters, GrayscaleIsExact) {
    ImageGrayscale g(context());
    checkAllSizes(
        400,
        [&](const cl::Buffer& in, ImageSize s, const cl::Buffer& out) {
            return g.enqueue(in, s, out);
        },
        [](const Rgba8Image& src) { return reference::grayscale(src); });
}

TEST(ImageFilters, EqualizeIsExact) {
    ImageEqualize e(context());
    for (EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::PerChannel})
        for (HistogramVariant hv :
             {HistogramVariant::ByteSubHistograms, HistogramVariant::LocalAtomics,
              HistogramVariant::GlobalAtomics}) {
            SCOPED_TRACE(std::string(mode == EqualizeMode::Luma ? "luma " : "per-channel ") +
                         histogramVariantInfo(hv).id);
            EqualizeParams p{mode, hv};
            checkAllSizes(
                500,
                [&](const cl::Buffer& in, ImageSize s, const cl::Buffer& out) {
                    return e.enqueue(p, in, s, out);
                },
                [&](const Rgba8Image& src) { return reference::equalize(src, mode); });
        }
}

TEST(ImageFilters, EqualizeStretchesALowContrastImage) {
    // Values 100..103 only: equalized, they spread to 0..255.
    Rgba8Image img = randomImage(97, 31, 600);
    for (std::size_t i = 0; i < img.pixels.size(); ++i)
        if (i % 4 != 3) img.pixels[i] = static_cast<std::uint8_t>(100 + img.pixels[i] % 4);
    const Rgba8Image want = reference::equalize(img, EqualizeMode::PerChannel);
    ImageEqualize e(context());
    cl::Buffer buffer = upload(img);
    e.enqueue({EqualizeMode::PerChannel, HistogramVariant::LocalAtomics}, buffer, img.size(),
              buffer)
        .milliseconds();  // in place
    const Rgba8Image got = download(buffer, img.size());
    EXPECT_EQ(maxDifference(got, want), 0);
    int lo = 255, hi = 0;
    for (std::size_t i = 0; i < got.pixels.size(); i += 4) {
        lo = std::min<int>(lo, got.pixels[i]);
        hi = std::max<int>(hi, got.pixels[i]);
        EXPECT_EQ(got.pixels[i + 3], img.pixels[i + 3]) << "alpha is kept";
    }
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 255);
}

TEST(ImageFilters, EqualizeLeavesASingleValueAlone) {
    const Rgba8Image img = solidImage(9, 9, {77, 78, 79, 80});
    EXPECT_EQ(maxDifference(reference::equalize(img, EqualizeMode::PerChannel), img), 0);
    ImageEqualize e(context());
    cl::Buffer out = deviceBuffer(img.size());
    e.enqueue({EqualizeMode::Luma, HistogramVariant::ByteSubHistograms}, upload(img), img.size(),
              out)
        .milliseconds();
    EXPECT_EQ(maxDifference(download(out, img.size()), img), 0);
}
