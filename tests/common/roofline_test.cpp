// The roofline model: rates and intensity from counted flops, bytes and seconds, the attainable
// bound on both sides of the ridge, placements, log axes and the units in the labels.
#include "common/roofline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace clviz {
namespace {

TEST(Roofline, RatesAndIntensityFromCounts) {
    // A 512^3 GEMM: 2·512^3 flops; A, B read and C written once in float.
    const double n = 512;
    RooflinePoint p{"gemm", 2 * n * n * n, 3 * n * n * 4, 1e-3, ""};
    EXPECT_NEAR(gflopsPerSecond(p), 2 * n * n * n / 1e-3 / 1e9, 1e-9);
    EXPECT_NEAR(gigabytesPerSecond(p), 3 * n * n * 4 / 1e-3 / 1e9, 1e-12);
    EXPECT_NEAR(intensity(p), n / 6.0, 1e-12);  // 2n^3 / 12n^2
    EXPECT_TRUE(placeable(p));
    EXPECT_TRUE(hasBandwidth(p));
}

TEST(Roofline, RunsWithoutCountsAreNotPlaced) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    RooflinePoint bytesOnly{"copy", 0, 1e6, 1e-3, ""};
    EXPECT_FALSE(placeable(bytesOnly));
    EXPECT_TRUE(hasBandwidth(bytesOnly));
    EXPECT_EQ(gflopsPerSecond(bytesOnly), 0.0);
    EXPECT_EQ(intensity(bytesOnly), 0.0);
    EXPECT_FALSE(placeOnRoofline(bytesOnly, 100, 1000).has_value());
    for (double bad : {0.0, -1.0, inf, nan}) {
        EXPECT_FALSE(placeable({"x", 1e9, 1e6, bad, ""})) << bad;
        EXPECT_FALSE(placeable({"x", bad, 1e6, 1.0, ""})) << bad;
        EXPECT_FALSE(placeable({"x", 1e9, bad, 1.0, ""})) << bad;
        EXPECT_EQ(gflopsPerSecond({"x", 1e9, 1e6, bad, ""}), 0.0) << bad;
    }
}

TEST(Roofline, AttainableIsTheLowerOfSlopeAndPeak) {
    // 4,000 GB/s and 56,000 GFLOP/s: the ridge at 14 FLOP/byte.
    EXPECT_DOUBLE_EQ(ridgeIntensity(4000, 56000), 14.0);
    EXPECT_DOUBLE_EQ(attainableGflops(4000, 56000, 0.25), 1000.0);     // on the slope
    EXPECT_DOUBLE_EQ(attainableGflops(4000, 56000, 14.0), 56000.0);    // at the ridge
    EXPECT_DOUBLE_EQ(attainableGflops(4000, 56000, 1000.0), 56000.0);  // under the peak
    EXPECT_EQ(attainableGflops(0, 56000, 1), 0.0);
    EXPECT_EQ(attainableGflops(4000, 0, 1), 0.0);
    EXPECT_EQ(attainableGflops(4000, 56000, 0), 0.0);
    EXPECT_EQ(ridgeIntensity(0, 1), 0.0);
}

TEST(Roofline, PlacementSaysWhichSideAndHowFar) {
    // 100 GB/s and 1,000 GFLOP/s: the ridge at 10 FLOP/byte. At 1 FLOP/byte the bound is
    // 100 GFLOP/s, so a 1 GFLOP/s run is at 1% of it.
    RooflinePoint slow{"memory", 1e9, 1e9, 1.0, ""};  // 1 GFLOP/s at 1 FLOP/byte
    auto m = placeOnRoofline(slow, 100, 1000);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->bound, RooflineBound::Memory);
    EXPECT_DOUBLE_EQ(m->intensity, 1.0);
    EXPECT_DOUBLE_EQ(m->gflops, 1.0);
    EXPECT_DOUBLE_EQ(m->attainable, 100.0);
    EXPECT_DOUBLE_EQ(m->fraction, 0.01);
    RooflinePoint dense{"compute", 1e12, 1e9, 2.0, ""};  // 500 GFLOP/s at 1000 FLOP/byte
    auto c = placeOnRoofline(dense, 100, 1000);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->bound, RooflineBound::Compute);
    EXPECT_DOUBLE_EQ(c->attainable, 1000.0);
    EXPECT_DOUBLE_EQ(c->fraction, 0.5);
    EXPECT_STREQ(rooflineBoundName(c->bound), "compute-bound");
    EXPECT_FALSE(placeOnRoofline(dense, 0, 1000));
    EXPECT_FALSE(placeOnRoofline(dense, 100, 0));
}

TEST(Roofline, CeilingsPeakAndLookup) {
    RooflineCeilings c;
    EXPECT_EQ(c.peakGflops(), 0.0);
    c.bandwidthGBs = 4000;
    c.compute = {{"FP32 FMA", 56000}, {"TF32 mma.sync", 322000}, {"broken", std::nan("")}};
    EXPECT_DOUBLE_EQ(c.peakGflops(), 322000);
    ASSERT_TRUE(c.ceiling("FP32 FMA"));
    EXPECT_DOUBLE_EQ(*c.ceiling("FP32 FMA"), 56000);
    EXPECT_FALSE(c.ceiling("FP64"));
}

TEST(Roofline, ShareOfBoundUsesEachRunsOwnCeiling) {
    // The H100's figures from the lab's table: a TF32 run at 128 TFLOP/s is 40% of its tensor
    // ceiling, not 224% of FP32's; an FP32 run at 50 TFLOP/s 87% of FP32's.
    RooflineCeilings c;
    c.bandwidthGBs = 2930;
    c.compute = {{"FP32 FMA", 57200}, {"TF32 mma.sync", 318000}};
    const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0, bytes = 3.0 * 4096 * 4096 * 4;
    RooflinePoint fp32{"gemm-pipelined", flops, bytes, flops / 49.76e12, ""};
    RooflinePoint tf32{"gemm-tf32 (mma.sync)", flops, bytes, flops / 128.2e12, "", "TF32 mma.sync"};
    EXPECT_EQ(shareOfBound(fp32, c, "FP32 FMA"), "87% FP32");
    EXPECT_EQ(shareOfBound(tf32, c, "FP32 FMA"), "40% TF32");
    // A memory-bound run (no flops: a reduction) gets its share of the bandwidth.
    RooflinePoint reduce{"reduce-tree", 0, 256.0 * 1024 * 1024, 256.0 * 1024 * 1024 / 2445e9, ""};
    EXPECT_EQ(shareOfBound(reduce, c, "FP32 FMA"), "83% mem");
    // Low intensity with flops: memory-bound on the chart too.
    RooflinePoint stream{"axpy", 1e9, 12e9, 12e9 / 2000e9, ""};
    EXPECT_EQ(shareOfBound(stream, c, "FP32 FMA"), "68% mem");
    // Its own ceiling unmeasured (no tensor cores): no compute share, never FP32's in its place.
    c.compute = {{"FP32 FMA", 57200}};
    EXPECT_EQ(shareOfBound(tf32, c, "FP32 FMA"), "6% mem");
    c.bandwidthGBs = 0;
    EXPECT_EQ(shareOfBound(tf32, c, "FP32 FMA"), "");
}

TEST(Roofline, LogAxisCoversWholeDecades) {
    LogAxis a = logAxisCovering({0.3, 42.0, 0.0, -5.0});
    EXPECT_DOUBLE_EQ(a.lo, 0.1);
    EXPECT_DOUBLE_EQ(a.hi, 100.0);
    EXPECT_EQ(a.decades(), 3);
    EXPECT_DOUBLE_EQ(a.fraction(0.1), 0.0);
    EXPECT_DOUBLE_EQ(a.fraction(100.0), 1.0);
    EXPECT_NEAR(a.fraction(1.0), 1.0 / 3.0, 1e-12);
    EXPECT_EQ(a.fraction(1e6), 1.0);  // clamped
    EXPECT_EQ(a.fraction(0.0), 0.0);
    // One value on a decade mark still spans a decade; no positive value keeps the fallback.
    LogAxis one = logAxisCovering({10.0});
    EXPECT_DOUBLE_EQ(one.lo, 10.0);
    EXPECT_DOUBLE_EQ(one.hi, 100.0);
    LogAxis none = logAxisCovering({0.0, -1.0}, {1, 1000});
    EXPECT_DOUBLE_EQ(none.lo, 1);
    EXPECT_DOUBLE_EQ(none.hi, 1000);
}

TEST(Roofline, LabelsNameTheUnits) {
    EXPECT_EQ(formatFlopRate(56000), "56 TFLOP/s");
    EXPECT_EQ(formatFlopRate(12.3), "12.3 GFLOP/s");
    EXPECT_EQ(formatFlopRate(0.5), "500 MFLOP/s");
    EXPECT_EQ(formatByteRate(4094), "4.09 TB/s");
    EXPECT_EQ(formatByteRate(21.5), "21.5 GB/s");
}

}  // namespace
}  // namespace clviz
