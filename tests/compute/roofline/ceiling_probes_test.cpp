// The device-ceiling probes on the test device (PoCL here): each gives a positive, finite rate
// from a run it checked itself, the sizes stay bounded off the GPU, and the tensor probe is
// absent, with its reason, where inline PTX does not build.
#include "compute/roofline/ceiling_probes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/inline_ptx.hpp"
#include "tests/support/device_context.hpp"

namespace clviz {
namespace {

using test::context;

bool positiveFinite(double v) {
    return std::isfinite(v) && v > 0;
}

TEST(CeilingProbes, CopyBandwidthCountsReadAndWrite) {
    // An odd number of uint4s, and bytes that are not a multiple of 16 (rounded down).
    const ProbeResult r = probeCopyBandwidth(context(), 16 * 4099 + 7, 2);
    EXPECT_DOUBLE_EQ(r.work, 2.0 * 16 * 4099);
    EXPECT_TRUE(positiveFinite(r.seconds));
    EXPECT_TRUE(positiveFinite(r.rate));
    EXPECT_NEAR(r.rate, r.work / r.seconds * 1e-9, 1e-9 * r.rate);
    EXPECT_THROW(probeCopyBandwidth(context(), 15, 1), Error);
}

TEST(CeilingProbes, FmaRateCountsTwoFlopsPerFmaOfEachLane) {
    // A work-item count that is no multiple of any work-group size.
    const ProbeResult r = probeFmaRate(context(), 1031, 64, 2);
    EXPECT_DOUBLE_EQ(r.work, 2.0 * 32 * 64 * 1031);
    EXPECT_TRUE(positiveFinite(r.rate));
    EXPECT_THROW(probeFmaRate(context(), 0, 64, 1), Error);
    EXPECT_THROW(probeFmaRate(context(), 64, 0, 1), Error);
}

TEST(CeilingProbes, TensorCeilingIsAbsentWithAReasonWithoutInlinePtx) {
    if (context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "an NVIDIA device: the tensor probe runs there";
    std::string why;
    InlinePtxBuilds notTried(context());
    EXPECT_FALSE(probeTensorRate(context(), notTried, 256, 4, 1, why));
    EXPECT_NE(why.find("inline PTX"), std::string::npos) << why;
    // Forcing the PTX build here is not tried: the mma operands' braces are inline-asm dialect
    // markers to PoCL's LLVM, which aborts the process ("Cannot pop empty stack") instead of
    // failing the build. InlinePtxBuilds' refusal path is tested with PTX that has no braces
    // (tests/compute/image/inline_ptx_test.cpp).
}

TEST(CeilingProbes, AllCeilingsOnTheDeviceAreBoundedAndLabelled) {
    const CeilingProbeSizes sizes = probeSizesFor(context().info());
    if (context().info().kind != DeviceKind::Gpu) {
        // The CI box: small enough to run at every start of the lab.
        EXPECT_LE(sizes.copyBytes, std::size_t(64) << 20);
        EXPECT_LE(32.0 * sizes.fmaWorkItems * sizes.fmaIterations, 1e9);
    }
    InlinePtxBuilds builds(context());
    const DeviceCeilings d = measureDeviceCeilings(context(), sizes, builds);
    EXPECT_TRUE(positiveFinite(d.bandwidthGBs));
    EXPECT_TRUE(positiveFinite(d.fp32Gflops));
    if (d.tf32Gflops) {
        EXPECT_TRUE(positiveFinite(*d.tf32Gflops));
    } else {
        EXPECT_FALSE(d.tensorNote.empty());
    }
    const RooflineCeilings c = d.roofline();
    EXPECT_DOUBLE_EQ(c.bandwidthGBs, d.bandwidthGBs);
    ASSERT_TRUE(c.ceiling(kFp32CeilingName));
    EXPECT_EQ(c.ceiling(kTf32CeilingName).has_value(), d.tf32Gflops.has_value());
    const std::string line = d.summary();
    EXPECT_NE(line.find("B/s"), std::string::npos) << line;
    EXPECT_NE(line.find("FLOP/s"), std::string::npos) << line;
    EXPECT_NE(line.find("read + write"), std::string::npos) << line;
}

}  // namespace
}  // namespace clviz
