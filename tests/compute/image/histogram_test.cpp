// Every histogram variant against the CPU reference, exactly: random content on awkward sizes,
// flat images that overflow 8-bit counters many times over, and the statistics.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "compute/image/histogram.hpp"
#include "compute/image/reference.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

ImageHistogram& histogrammer() {
    static ImageHistogram h(context());
    return h;
}

const HistogramVariant kAll[] = {HistogramVariant::ByteSubHistograms,
                                 HistogramVariant::LocalAtomics, HistogramVariant::GlobalAtomics};

void expectSameBins(const Histogram& got, const Histogram& want) {
    for (int c = 0; c < kHistogramChannels; ++c)
        for (int v = 0; v < kHistogramBins; ++v)
            ASSERT_EQ(got.bins[c][v], want.bins[c][v]) << histogramChannelName(c) << " bin " << v;
}

}  // namespace

TEST(ImageHistogram, RandomImagesMatchTheReferenceExactly) {
    const std::pair<int, int> sizes[] = {{1, 1},   {1, 3},   {5, 1},     {37, 53},
                                         {256, 1}, {101, 7}, {1031, 769}};
    std::uint64_t salt = 0;
    for (auto [w, h] : sizes) {
        const Rgba8Image img = randomImage(w, h, ++salt);
        const Histogram want = reference::histogram(img);
        const cl::Buffer buffer = upload(img);
        for (HistogramVariant v : kAll) {
            SCOPED_TRACE(std::string(histogramVariantInfo(v).id) + " " + std::to_string(w) + "x" +
                         std::to_string(h) + ", " + seedNote());
            expectSameBins(histogrammer().compute(v, buffer, img.size()), want);
        }
    }
}

TEST(ImageHistogram, CountingOnlySomeBinsLeavesTheOthersAtZero) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 53}, std::pair{1031, 769}}) {
        const Rgba8Image img = randomImage(w, h, 77);
        const Histogram all = reference::histogram(img);
        const cl::Buffer buffer = upload(img);
        for (HistogramBins only : {HistogramBins::LumaOnly, HistogramBins::RgbOnly}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + ", " + seedNote());
            HistogramTuning t;
            t.bins = only;
            Histogram want = all;
            for (int c = 0; c < kHistogramChannels; ++c)
                if ((c == 3) != (only == HistogramBins::LumaOnly)) want.bins[c].fill(0);
            expectSameBins(histogrammer().compute(HistogramVariant::LocalAtomics, buffer,
                                                  img.size(), nullptr, t),
                           want);
        }
    }
}

TEST(ImageHistogram, FlatImagesOverflowByteCountersCorrectly) {
    // One group of work-items each counting hundreds of equal pixels: every byte counter wraps
    // past 255 several times. 8-bit counters without the carry would report count % 256.
    HistogramTuning oneGroup;
    oneGroup.groups = 1;
    for (auto [w, h] : {std::pair{211, 97}, std::pair{1031, 769}}) {
        const Rgba8 colour{200, 17, 255, 3};
        const Rgba8Image img = solidImage(w, h, colour);
        const cl::Buffer buffer = upload(img);
        for (HistogramVariant v : kAll)
            for (const HistogramTuning& t : {oneGroup, HistogramTuning{}}) {
                SCOPED_TRACE(std::string(histogramVariantInfo(v).id) + " " + std::to_string(w) +
                             "x" + std::to_string(h) + " groups=" + std::to_string(t.groups));
                const Histogram got = histogrammer().compute(v, buffer, img.size(), nullptr, t);
                const std::uint32_t n = static_cast<std::uint32_t>(img.size().pixels());
                EXPECT_EQ(got.bins[kRed][200], n);
                EXPECT_EQ(got.bins[kGreen][17], n);
                EXPECT_EQ(got.bins[kBlue][255], n);
                EXPECT_EQ(got.bins[kLuma][luma8(200, 17, 255)], n);
                expectSameBins(got, reference::histogram(img));
            }
    }
}

TEST(ImageHistogram, FewValuesWithManyRepeatsPerWorkItem) {
    // Values from a small set, so every counter passes 255 at different times per work-item.
    Rgba8Image img = randomImage(613, 419, 77);
    for (auto& b : img.pixels)
        b = static_cast<std::uint8_t>(b % 3 * 100);
    const cl::Buffer buffer = upload(img);
    const Histogram want = reference::histogram(img);
    for (int groups : {1, 3, 0})
        for (HistogramVariant v : kAll) {
            SCOPED_TRACE(std::string(histogramVariantInfo(v).id) +
                         " groups=" + std::to_string(groups) + ", " + seedNote());
            HistogramTuning t;
            t.groups = groups;
            expectSameBins(histogrammer().compute(v, buffer, img.size(), nullptr, t), want);
        }
}

TEST(ImageHistogram, TuningOptionsGiveTheSameBins) {
    const Rgba8Image img = randomImage(129, 67, 5);
    const cl::Buffer buffer = upload(img);
    const Histogram want = reference::histogram(img);
    for (int wg : {4, 64}) {
        HistogramTuning t;
        t.workGroupSize = wg;
        t.groups = 2;
        // Byte sub-histograms take wg KiB + 4 KiB of local memory: where that does not fit (64
        // on a 48 KiB GPU) the launch must be refused with a clear error instead.
        if (static_cast<std::size_t>(wg + 4) * 1024 <= context().info().localMemBytes)
            expectSameBins(histogrammer().compute(HistogramVariant::ByteSubHistograms, buffer,
                                                  img.size(), nullptr, t),
                           want);
        else
            EXPECT_THROW(histogrammer().compute(HistogramVariant::ByteSubHistograms, buffer,
                                                img.size(), nullptr, t),
                         Error);
        for (int replicas : {1, 8}) {
            t.replicas = replicas;
            expectSameBins(histogrammer().compute(HistogramVariant::LocalAtomics, buffer,
                                                  img.size(), nullptr, t),
                           want);
        }
        expectSameBins(
            histogrammer().compute(HistogramVariant::GlobalAtomics, buffer, img.size(), nullptr, t),
            want);
    }
    HistogramTuning tooBig;  // local atomics are built for their size: above the device's, refused
    tooBig.workGroupSize = static_cast<int>(context().info().maxWorkGroupSize) * 2;
    EXPECT_THROW(
        histogrammer().compute(HistogramVariant::LocalAtomics, buffer, img.size(), nullptr, tooBig),
        Error);
    HistogramTuning bad;
    bad.workGroupSize = 6;  // not a multiple of 4
    EXPECT_THROW(histogrammer().compute(HistogramVariant::ByteSubHistograms, buffer, img.size(),
                                        nullptr, bad),
                 Error);
}

TEST(ImageHistogram, BinsNeedNoClearingAndLaunchesLeaveNothingBehind) {
    // The kernels write every bin through running totals that the last work-group of each launch
    // hands over and resets: a dirty bins buffer must not matter, and launches of any variant and
    // group count one after another must each count only their own image.
    const Rgba8Image a = randomImage(97, 61, 21), b = solidImage(40, 7, Rgba8{9, 8, 7, 6});
    const cl::Buffer bufferA = upload(a), bufferB = upload(b);
    const Histogram wantA = reference::histogram(a), wantB = reference::histogram(b);
    cl::Buffer bins(context().context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes());
    int round = 0;
    for (int groups : {1, 5, 0, 2})
        for (HistogramVariant v : kAll) {
            const bool useA = ++round % 2 == 1;
            SCOPED_TRACE(std::string(histogramVariantInfo(v).id) +
                         " groups=" + std::to_string(groups) + (useA ? " random" : " solid"));
            context().queue().enqueueFillBuffer(bins, cl_uint(0xdeadbeef), 0,
                                                ImageHistogram::binsBytes());
            HistogramTuning t;
            t.groups = groups;
            histogrammer().enqueue(v, useA ? bufferA : bufferB, useA ? a.size() : b.size(), bins,
                                   t);
            Histogram got;
            context().queue().enqueueReadBuffer(bins, CL_TRUE, 0, ImageHistogram::binsBytes(),
                                                got.bins.data());
            expectSameBins(got, useA ? wantA : wantB);
        }
}

TEST(ImageHistogram, BackToBackLaunchesEachCountExactly) {
    // Many work-groups finishing close together, launch after launch: the hand-over of the
    // running totals must see every group's counts, and leave none for the next launch.
    const Rgba8Image img = randomImage(1031, 769, 33);
    const cl::Buffer buffer = upload(img);
    const Histogram want = reference::histogram(img);
    cl::Buffer bins[2] = {
        cl::Buffer(context().context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes()),
        cl::Buffer(context().context(), CL_MEM_READ_WRITE, ImageHistogram::binsBytes())};
    for (HistogramVariant v :
         {HistogramVariant::LocalAtomics, HistogramVariant::ByteSubHistograms}) {
        const int launches = v == HistogramVariant::LocalAtomics ? 40 : 6;
        for (int i = 0; i < launches; i += 2) {
            // Two launches queued back to back before either is read.
            histogrammer().enqueue(v, buffer, img.size(), bins[0]);
            histogrammer().enqueue(v, buffer, img.size(), bins[1]);
            for (const cl::Buffer& b : bins) {
                Histogram got;
                context().queue().enqueueReadBuffer(b, CL_TRUE, 0, ImageHistogram::binsBytes(),
                                                    got.bins.data());
                SCOPED_TRACE(std::string(histogramVariantInfo(v).id) + " launch " +
                             std::to_string(i));
                expectSameBins(got, want);
            }
        }
    }
}

TEST(ImageHistogram, ReportsDeviceTime) {
    const Rgba8Image img = randomImage(64, 64, 9);
    double ms = -1;
    histogrammer().compute(HistogramVariant::LocalAtomics, upload(img), img.size(), &ms);
    EXPECT_GE(ms, 0.0);
}

TEST(ImageHistogram, Statistics) {
    Histogram h;
    EXPECT_EQ(h.stats(kRed).count, 0u);
    // Values 10 (x3), 20 (x1), 250 (x4): min 10, max 250, mean 1110 / 8, lower median 20.
    h.bins[kRed][10] = 3;
    h.bins[kRed][20] = 1;
    h.bins[kRed][250] = 4;
    const ChannelStats s = h.stats(kRed);
    EXPECT_EQ(s.count, 8u);
    EXPECT_EQ(s.min, 10);
    EXPECT_EQ(s.max, 250);
    EXPECT_DOUBLE_EQ(s.mean, (30 + 20 + 1000) / 8.0);
    EXPECT_EQ(s.median, 20);
    h.bins[kBlue][0] = 1;
    EXPECT_EQ(h.stats(kBlue).median, 0);
    EXPECT_EQ(h.stats(kBlue).max, 0);
    EXPECT_STREQ(histogramChannelName(kLuma), "Luma");
}

TEST(ImageHistogram, LumaWeightsKeepWhiteAndBlack) {
    EXPECT_EQ(luma8(255, 255, 255), 255);
    EXPECT_EQ(luma8(0, 0, 0), 0);
    EXPECT_EQ(luma8(0, 255, 0), 182);  // 0.7152 * 255 = 182.4
}

// A rotated picture's histogram leaves the fill out: every variant counts only the pixels whose
// centre maps inside the source, matching the reference exactly, and with a source that has no
// zero channel anywhere, bin 0 of R, G and B stays empty though the fill is black.
TEST(ImageHistogram, RotatedImagesCountOnlyPixelsFromTheSource) {
    const std::pair<int, int> sizes[] = {{1, 1}, {2, 3}, {37, 53}, {101, 7}};
    std::uint64_t salt = 40;
    for (auto [w, h] : sizes)
        for (double degrees : {0.0, 17.0, 90.0, 211.0})
            for (RotateFit fit : {RotateFit::Crop, RotateFit::Expand}) {
                Rgba8Image src = randomImage(w, h, ++salt);
                for (std::size_t i = 0; i < src.pixels.size(); ++i)
                    if (i % 4 != 3) src.pixels[i] = std::max<std::uint8_t>(src.pixels[i], 1);
                RotateParams params;
                params.degrees = degrees;
                params.fit = fit;
                params.variant = RotateVariant::BufferNearest;
                params.background = {0, 0, 0, 255};
                const Rgba8Image rotated = reference::rotate(src, params);
                const RotateGeometry g = rotateGeometry(src.size(), degrees, fit);
                const Histogram want = reference::histogram(rotated, g);
                for (int c = 0; c < 3; ++c)
                    ASSERT_EQ(want.bins[c][0], 0u) << "the reference counted fill";
                HistogramTuning t;
                t.coverage = g;
                const cl::Buffer buffer = upload(rotated);
                for (HistogramVariant v : kAll) {
                    SCOPED_TRACE(std::string(histogramVariantInfo(v).id) + " " + std::to_string(w) +
                                 "x" + std::to_string(h) + " at " + std::to_string(degrees) + ", " +
                                 seedNote());
                    expectSameBins(histogrammer().compute(v, buffer, rotated.size(), nullptr, t),
                                   want);
                }
            }
    // A tilted, expanded picture has fill to leave out.
    const RotateGeometry g = rotateGeometry({37, 53}, 17.0, RotateFit::Expand);
    EXPECT_LT(reference::histogram(Rgba8Image(g.dst.width, g.dst.height), g).stats(kRed).count,
              g.dst.pixels());
}

TEST(ImageHistogram, CoverageOfAnotherSizeIsRefused) {
    const Rgba8Image img = randomImage(9, 9, 3);
    HistogramTuning t;
    t.coverage = rotateGeometry({5, 5}, 30.0, RotateFit::Crop);
    EXPECT_THROW(
        histogrammer().compute(HistogramVariant::LocalAtomics, upload(img), img.size(), nullptr, t),
        Error);
}
