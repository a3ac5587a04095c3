// The lab's GL-free halves on the test device (PoCL here): the double CPU reference by hand,
// the error measure, GemmLab's C and its comparison for every variant on an awkward shape, the
// timing runs in scratch buffers, and the reduction panel's checked measurements.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "app/linalg/gemm_lab.hpp"
#include "app/linalg/gemm_reference.hpp"
#include "app/linalg/reduce_lab.hpp"
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"

namespace clviz {
namespace {

ComputeContext& context() {
    static std::unique_ptr<ComputeContext> cc = ComputeContext::create(DeviceRequest{});
    return *cc;
}

TEST(GemmReference, SmallProductsByHand) {
    const std::vector<float> a = {1, 2, 3, 4, 5, 6};     // A 2x3
    const std::vector<float> b = {7, 8, 9, 10, 11, 12};  // B 3x2
    GemmShape s{2, 2, 3, false, false};
    EXPECT_EQ(referenceGemm(s, a, b), (std::vector<float>{58, 64, 139, 154}));
    // The same product from transposed storage: A^T stored 3x2, B^T stored 2x3.
    const std::vector<float> at = {1, 4, 2, 5, 3, 6};
    const std::vector<float> bt = {7, 9, 11, 8, 10, 12};
    s.transA = s.transB = true;
    EXPECT_EQ(referenceGemm(s, at, bt), (std::vector<float>{58, 64, 139, 154}));
    std::atomic<bool> cancel{true};
    EXPECT_TRUE(referenceGemm(s, at, bt, &cancel).empty());
}

TEST(GemmReference, ErrorMeasure) {
    const GemmError same = compareGemm({1, -2, 3}, {1, -2, 3});
    EXPECT_EQ(same.maxAbs, 0.0);
    EXPECT_EQ(same.relFrobenius, 0.0);
    EXPECT_DOUBLE_EQ(same.maxRef, 3.0);
    const GemmError off = compareGemm({1, 0, 4}, {1, 0, 3});
    EXPECT_DOUBLE_EQ(off.maxAbs, 1.0);
    EXPECT_DOUBLE_EQ(off.relFrobenius, 1.0 / std::sqrt(10.0));
    const GemmError nan = compareGemm({std::numeric_limits<float>::quiet_NaN()}, {1});
    EXPECT_FALSE(nan.finite);
    EXPECT_TRUE(std::isinf(nan.relFrobenius));
}

TEST(GemmLab, EveryVariantMatchesTheReferenceOnAnAwkwardShape) {
    GemmLab lab(context());
    // Primes, K not a multiple of any tile, A transposed.
    const GemmShape shape{37, 29, 67, true, false};
    lab.prepare(shape);
    ASSERT_EQ(lab.waitForReference(), GemmLab::Reference::Ready);
    for (int v = 0; v < kGemmVariantCount; ++v) {
        const std::string id = gemmVariantInfo(GemmVariant(v)).id;
        const GemmRun r = lab.run(GemmVariant(v), {});
        EXPECT_GT(r.ms, 0) << id;
        EXPECT_TRUE(std::isfinite(r.gflops())) << id;
        ASSERT_TRUE(lab.error()) << id;
        EXPECT_LE(lab.error()->relFrobenius, r.tensorPath ? 1e-2 : 1e-5) << id;
        const RooflinePoint p = r.point();
        EXPECT_DOUBLE_EQ(p.flops, 2.0 * 37 * 29 * 67);
        EXPECT_DOUBLE_EQ(p.bytes, 4.0 * (37 * 67 + 67 * 29 + 37 * 29));
    }
    // A timing run elsewhere leaves the lab's C (and its comparison) alone.
    const GemmRun t = lab.time(GemmVariant::LocalTile, {64, 64, 64, false, false}, {});
    EXPECT_EQ(t.shape.m, 64);
    EXPECT_GT(t.ms, 0);
    ASSERT_TRUE(lab.error());
}

TEST(GemmLab, OneByOneLargeShapesAndRefusedTunings) {
    GemmLab lab(context());
    lab.prepare({1, 1, 1, false, false});
    EXPECT_EQ(lab.waitForReference(), GemmLab::Reference::Ready);
    lab.run(GemmVariant::Naive, {});
    ASSERT_TRUE(lab.error());
    EXPECT_LE(lab.error()->maxAbs, 1e-6);
    GemmTuning bad;
    bad.blockM = 6;  // BM must be a multiple of 4
    EXPECT_THROW(lab.run(GemmVariant::RegisterBlocked, bad), Error);
    // Above 2048^3 multiply-adds the lab computes no reference.
    lab.prepare({2049, 2049, 2049, false, false});
    EXPECT_EQ(lab.reference(), GemmLab::Reference::TooLarge);
}

TEST(ReduceLab, MeasuresEverySizeCheckedAgainstTheCpu) {
    ReduceLab lab(context());
    ASSERT_FALSE(lab.points().empty());
    EXPECT_EQ(lab.points().front().bytes, 1024u);
    EXPECT_LE(lab.points().back().bytes, lab.maxBytes());
    for (int variant = 0; variant < kReduceVariantCount; ++variant) {
        lab.setVariant(ReduceVariant(variant));
        for (std::size_t i = 0; i < lab.points().size(); ++i)
            lab.step();
        for (const ReducePoint& p : lab.points()) {
            EXPECT_TRUE(p.checked) << reduceVariantInfo(ReduceVariant(variant)).id << " " << p.bytes
                                   << ": " << p.problem;
            EXPECT_GT(p.gigabytesPerSecond(), 0);
            EXPECT_DOUBLE_EQ(p.point(ReduceVariant(variant)).flops, double(p.bytes / 4));
        }
    }
}

}  // namespace
}  // namespace clviz
