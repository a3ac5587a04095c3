// The roofline ceilings are measured, positive and physically possible on this device, and the
// arithmetic intensity of a GEMM follows its formula.
#include <gtest/gtest.h>

#include "compute/linalg/roofline.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

TEST(Roofline, CeilingsAreMeasuredAndPossible) {
    const RooflineCeilings c = measureRooflineCeilings(context(), std::size_t(16) << 20);
    const DeviceInfo& info = context().info();
    EXPECT_GT(c.readGBs, 0.1);
    EXPECT_GT(c.fp32Gflops, 0.1);
    // No device issues more than 2 flops per FMA x 1024 lanes per compute unit per clock.
    const double bound =
        2.0 * 1024 * std::max(1u, info.computeUnits) * std::max(1000u, info.clockMHz) * 1e-3;
    EXPECT_LT(c.fp32Gflops, bound);
    EXPECT_GT(c.ridgeFp32(), 0);
    if (!info.hasExtension("cl_nv_compiler_options")) {
        EXPECT_EQ(c.tf32Gflops, 0);
        EXPECT_FALSE(c.tf32Note.empty());
    } else {
        EXPECT_GT(c.tf32Gflops, c.fp32Gflops);
    }
}

TEST(Roofline, GemmArithmeticIntensity) {
    // 2 n^3 / (12 n^2) = n / 6 for square matrices, beta = 0.
    EXPECT_DOUBLE_EQ(gemmArithmeticIntensity({600, 600, 600}), 100.0);
    EXPECT_DOUBLE_EQ(gemmArithmeticIntensity({600, 600, 600}, true),
                     2.0 * 600 * 600 * 600 / (4.0 * 4 * 600 * 600));
    EXPECT_DOUBLE_EQ(gemmArithmeticIntensity({0, 0, 0}), 0.0);
}
