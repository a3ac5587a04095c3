// Every GEMM variant against a double-precision CPU product on awkward shapes: 1 x 1 x 1, primes,
// K not a multiple of any tile, M >> N, both transposes, alpha/beta, and tunings that the variant
// must refuse. On PoCL the TF32 variant runs its portable FP32 twin (its PTX build is refused).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>

#include "common/error.hpp"
#include "compute/linalg/gemm.hpp"
#include "compute/linalg/gemm_tf32_bulk_layout.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

// Element (i, k) of op(A) and (k, j) of op(B), whichever way A and B are stored.
float opA(const GemmShape& s, const std::vector<float>& a, int i, int k) {
    return s.transA ? a[std::size_t(k) * s.m + i] : a[std::size_t(i) * s.k + k];
}
float opB(const GemmShape& s, const std::vector<float>& b, int k, int j) {
    return s.transB ? b[std::size_t(j) * s.k + k] : b[std::size_t(k) * s.n + j];
}

// op(A) op(B) in double; returns C = alpha * AB + beta * C0.
std::vector<double> reference(const GemmShape& s, float alpha, const std::vector<float>& a,
                              const std::vector<float>& b, float beta,
                              const std::vector<float>& c0) {
    std::vector<double> c(std::size_t(s.m) * s.n);
    for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.n; ++j) {
            double acc = 0;
            for (int k = 0; k < s.k; ++k)
                acc += double(opA(s, a, i, k)) * opB(s, b, k, j);
            c[std::size_t(i) * s.n + j] = alpha * acc + beta * double(c0[std::size_t(i) * s.n + j]);
        }
    return c;
}

struct Case {
    int m, n, k;
    bool ta, tb;
};

void check(GemmVariant variant, const Case& cs, float alpha, float beta,
           const GemmTuning& tuning = {}) {
    const GemmShape s{cs.m, cs.n, cs.k, cs.ta, cs.tb};
    const auto a = randomFloats(std::size_t(s.m) * s.k, 1 + s.m * 7 + s.k);
    const auto b = randomFloats(std::size_t(s.k) * s.n, 2 + s.n * 5 + s.k);
    const auto c0 = randomFloats(std::size_t(s.m) * s.n, 3 + s.m + s.n);
    cl::Buffer da = upload(a), db = upload(b), dc = upload(c0);
    Gemm gemm(context());
    gemm.enqueue(variant, s, alpha, da, db, beta, dc, tuning);
    const auto got = download<float>(dc, c0.size());
    const auto want = reference(s, alpha, a, b, beta, c0);
    // FP32 (or TF32 on tensor cores: 10-bit mantissas) products of K terms in [-1, 1).
    const bool tf32 = gemm.usesInlinePtx(variant);
    const double tol = (tf32 ? 2e-3 : 2e-6) * std::sqrt(double(s.k)) * std::abs(alpha) + 1e-6;
    int bad = 0;
    for (std::size_t e = 0; e < got.size(); ++e)
        if (!(std::abs(got[e] - want[e]) <= tol) && bad++ < 5)
            ADD_FAILURE() << gemmVariantInfo(variant).id << " " << s.m << "x" << s.n << "x" << s.k
                          << (s.transA ? " A^T" : "") << (s.transB ? " B^T" : "") << " C["
                          << e / s.n << "][" << e % s.n << "] = " << got[e] << ", want " << want[e]
                          << "; " << seedNote();
    EXPECT_EQ(bad, 0);
}

const Case kShapes[] = {
    {1, 1, 1, false, false},    {7, 13, 5, false, false},   {67, 33, 129, false, false},
    {131, 3, 37, false, false},  // M >> N
    {2, 97, 61, false, false},  {64, 64, 64, false, false}, {130, 129, 17, true, false},
    {53, 71, 19, false, true},  {45, 29, 83, true, true},   {128, 36, 224, false, true},
};

class GemmVariants : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(GemmVariants, MatchesTheDoubleReferenceOnAwkwardShapes) {
    const auto v = static_cast<GemmVariant>(GetParam());
    for (const Case& c : kShapes)
        check(v, c, 1.0f, 0.0f);
}

TEST_P(GemmVariants, AlphaAndBetaScaleAndAccumulate) {
    const auto v = static_cast<GemmVariant>(GetParam());
    check(v, {33, 17, 41, false, false}, -0.5f, 2.0f);
    check(v, {19, 40, 8, true, true}, 3.0f, -1.0f);
}

// Multiples of the default tiles (128 x 64 x 16 FP32, 128 x 128 x 16 TF32): the register-blocked
// kernels drop every edge check there (FULL_TILES), so each transpose and beta run on that path.
TEST_P(GemmVariants, WholeTilesMatchWithoutEdgeChecks) {
    const auto v = static_cast<GemmVariant>(GetParam());
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            check(v, {128, 256, 48, ta, tb}, 1.0f, 0.0f);
    check(v, {256, 128, 32, false, false}, -0.5f, 2.0f);
}

INSTANTIATE_TEST_SUITE_P(All, GemmVariants, ::testing::Range(0, kGemmVariantCount),
                         [](const auto& info) {
                             std::string id =
                                 gemmVariantInfo(static_cast<GemmVariant>(info.param)).id;
                             for (auto& ch : id)
                                 if (ch == '-') ch = '_';
                             return id;
                         });

TEST(Gemm, SmallerTilesStillMatch) {
    GemmTuning t;
    t.tile = 8;
    check(GemmVariant::LocalTile, {23, 29, 31, false, false}, 1, 0, t);
    t = {};
    t.blockM = 32, t.blockN = 64, t.blockK = 8, t.threadM = 4, t.threadN = 8;
    check(GemmVariant::RegisterBlocked, {37, 70, 45, false, true}, 1, 0, t);
    check(GemmVariant::DoubleBuffered, {37, 70, 45, true, false}, 1, 0, t);
    t = {};
    t.blockM = 64, t.blockN = 64, t.blockK = 32, t.warpM = 32, t.warpN = 32;
    check(GemmVariant::TensorTf32, {65, 67, 70, false, false}, 1, 0, t);
    check(GemmVariant::TensorTf32, {64, 128, 64, true, true}, 1, 0, t);  // whole tiles
    t = {};
    t.blockM = 64, t.blockN = 64, t.blockK = 8, t.threadM = 4, t.threadN = 4;
    check(GemmVariant::DoubleBuffered, {128, 64, 24, false, true}, 2, 0, t);  // whole tiles
}

// The staged TF32 kernel (cp.async stages; gemm-tf32 wherever the stored rows of A and B are
// multiples of 4 floats) at awkward shapes: M = 1, primes, K not a multiple of BK, M >> N, each
// transpose, with the tile configurations that give 2, 3 and 4 stages on a 48 KiB device.
TEST(Gemm, StagedTf32MatchesOnAwkwardShapes) {
    const Case shapes[] = {
        {1, 4, 4, false, false},      {131, 12, 36, false, false}, {7, 20, 44, false, false},
        {523, 4, 28, false, false},  // M >> N
        {12, 8, 20, true, false},     {37, 41, 44, false, true},   {36, 29, 52, true, true},
        {67, 132, 100, false, false}, {260, 136, 40, true, true},
    };
    for (const Case& c : shapes)
        ASSERT_TRUE(tf32UsesStagedKernel({c.m, c.n, c.k, c.ta, c.tb}));
    // 2, 3 and 4 stages of 48 KiB on NVIDIA (4 on PoCL), and a tile smaller than a chunk round.
    const int configs[][5] = {
        {128, 128, 16, 64, 64}, {64, 128, 16, 32, 64}, {128, 128, 8, 64, 32}, {32, 16, 8, 16, 8}};
    for (const auto& cfg : configs) {
        GemmTuning t;
        t.blockM = cfg[0], t.blockN = cfg[1], t.blockK = cfg[2], t.warpM = cfg[3], t.warpN = cfg[4];
        for (const Case& c : shapes) {
            SCOPED_TRACE(t.key());
            EXPECT_GE(Gemm(context()).tf32Stages({c.m, c.n, c.k, c.ta, c.tb}, t), 2);
            check(GemmVariant::TensorTf32, c, 1.0f, 0.0f, t);
        }
        check(GemmVariant::TensorTf32, {45, 28, 12, false, false}, -0.5f, 2.0f, t);
    }
}

// Tilings whose two padded stages pass 48 KiB, so the kernel packs its rows (XOR-swizzled chunks,
// -DPACKED): 256 x 128 x 16 and 128 x 256 x 16 (eight warps), 32-deep k-tiles, and rows that are
// no power of two chunks (BK = 24, BN = 96: the swizzle's narrower groups) with an odd number of
// n-tiles per warp; at M = 1, M >> N, K not a multiple of BK, each transpose.
TEST(Gemm, StagedTf32PackedTilingsMatch) {
    const Case shapes[] = {
        {1, 4, 4, false, false},   {263, 12, 36, false, false}, {37, 44, 52, false, true},
        {28, 32, 60, true, false}, {36, 132, 100, true, true},  {131, 260, 68, false, false},
    };
    const int configs[][6] = {{256, 128, 16, 64, 64, 2},
                              {128, 256, 16, 64, 64, 2},
                              {128, 64, 32, 64, 32, 2},
                              {160, 96, 24, 32, 24, 2}};
    const std::size_t local = context().info().localMemBytes;
    for (const auto& cfg : configs) {
        GemmTuning t;
        t.blockM = cfg[0], t.blockN = cfg[1], t.blockK = cfg[2], t.warpM = cfg[3], t.warpN = cfg[4];
        SCOPED_TRACE(t.key());
        for (const Case& c : shapes) {
            ASSERT_TRUE(tf32UsesStagedKernel({c.m, c.n, c.k, c.ta, c.tb}));
            EXPECT_TRUE(tf32PacksRows({c.m, c.n, c.k, c.ta, c.tb}, t, local));
            EXPECT_EQ(Gemm(context()).tf32Stages({c.m, c.n, c.k, c.ta, c.tb}, t), cfg[5]);
            check(GemmVariant::TensorTf32, c, 1.0f, 0.0f, t);
        }
        check(GemmVariant::TensorTf32, {cfg[0], cfg[1], 3 * cfg[2], false, true}, -0.5f, 2.0f, t);
    }
}

// Whole tiles (FULL_TILES: no edge checks, paired stores of C) for every transpose, several K
// tiles so the stages wrap around, and beta.
TEST(Gemm, StagedTf32WholeTilesMatch) {
    GemmTuning t;
    t.blockM = 64, t.blockN = 64, t.blockK = 8, t.warpM = 32, t.warpN = 32;
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            check(GemmVariant::TensorTf32, {128, 64, 72, ta, tb}, 1.0f, 0.0f, t);
    check(GemmVariant::TensorTf32, {64, 128, 40, false, false}, 3.0f, -1.0f, t);
    check(GemmVariant::TensorTf32, {256, 128, 48, false, false}, 1.0f, 0.5f);  // defaults
}

TEST(Gemm, Tf32PicksItsKernelByRowAlignment) {
    EXPECT_TRUE(tf32UsesStagedKernel({5, 8, 12}));
    EXPECT_FALSE(tf32UsesStagedKernel({5, 8, 13}));  // A's rows: K
    EXPECT_FALSE(tf32UsesStagedKernel({5, 9, 12}));  // B's rows: N
    EXPECT_TRUE(tf32UsesStagedKernel({5, 9, 12, false, true}));
    EXPECT_FALSE(tf32UsesStagedKernel({5, 8, 12, true, false}));  // A^T's rows: M
    Gemm gemm(context());
    EXPECT_EQ(gemm.tf32Stages({5, 8, 13}), 0);
    // 128 x 128 x 16 A + B tiles with padded rows: 128 x 20 + 16 x 136 floats; two of them fit
    // 48 KiB (the most any device is given, so the CPU runs the GPU's layouts and stage counts).
    const std::size_t local = context().info().localMemBytes;
    GemmTuning t;
    t.blockM = 128, t.blockN = 128, t.blockK = 16, t.warpM = 64, t.warpN = 64;
    EXPECT_EQ(tf32StageBytes({128, 128, 128}, t, false), (128u * 20 + 16 * 136) * 4);
    EXPECT_EQ(tf32StageBytes({128, 128, 128, true, true}, t, false), (16u * 136 + 128 * 20) * 4);
    EXPECT_EQ(tf32StageBytes({128, 128, 128, true, true}, t, true), (128u * 16 + 16 * 128) * 4);
    EXPECT_FALSE(tf32PacksRows({128, 128, 128}, t, local));
    EXPECT_EQ(gemm.tf32Stages({128, 128, 128}, t), 2);
    // 256 x 128 x 16: two padded stages would take 58,368 bytes, two packed ones 49,152.
    t.blockM = 256;
    EXPECT_TRUE(tf32PacksRows({256, 128, 128}, t, local));
    EXPECT_EQ(gemm.tf32Stages({256, 128, 128}, t), 2);
    EXPECT_TRUE(tf32PacksRows({256, 128, 128}, t, 96 * 1024)) << "the 48 KiB cap holds anywhere";
    t.blockM = 128;  // a device with 32 KiB: two padded 128 x 128 x 16 stages no longer fit
    EXPECT_TRUE(tf32PacksRows({128, 128, 128}, t, 32 * 1024));
}

// NVIDIA's compiler must take the staged kernel's PTX (cp.async, mma.sync): a refusal would
// otherwise turn every later build portable without a word.
TEST(Gemm, StagedTf32BuildsWithInlinePtxWhereOffered) {
    if (!context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "no inline PTX on this device";
    Gemm gemm(context());
    check(GemmVariant::TensorTf32, {128, 128, 64, false, false}, 1.0f, 0.0f);
    const GemmShape s{128, 128, 64};
    cl::Buffer a = upload(randomFloats(128 * 64, 5)), b = upload(randomFloats(64 * 128, 6)),
               c = upload(std::vector<float>(128 * 128));
    gemm.enqueue(GemmVariant::TensorTf32, s, 1.0f, a, b, 0.0f, c);
    EXPECT_TRUE(gemm.usesInlinePtx(GemmVariant::TensorTf32)) << gemm.ptxNote();
}

TEST(Gemm, DoubleBufferedTilesAbove48KiBUseOneLocalBuffer) {
    // 128 x 128 x 32: two local buffers would take 67.6 KB, so the kernel refills one between two
    // barriers (ONE_LOCAL) while the next tile's loads are in registers. Edges, K not a multiple
    // of 32, a single k-tile, and whole tiles (FULL_TILES).
    GemmTuning t;
    t.blockM = 128, t.blockN = 128, t.blockK = 32, t.threadM = 8, t.threadN = 8;
    check(GemmVariant::DoubleBuffered, {131, 137, 97, false, false}, 1, 0, t);
    check(GemmVariant::DoubleBuffered, {129, 5, 31, true, true}, 1.5f, 0.5f, t);
    check(GemmVariant::DoubleBuffered, {256, 128, 96, false, true}, 1, 0, t);  // whole tiles
    check(GemmVariant::RegisterBlocked, {131, 137, 97, true, false}, 1, 0, t);
}

TEST(Gemm, BetaZeroNeverReadsC) {
    const GemmShape s{5, 6, 7};
    const auto a = randomFloats(35, 11), b = randomFloats(42, 12);
    std::vector<float> c(30, std::nanf(""));
    for (int v = 0; v < kGemmVariantCount; ++v) {
        cl::Buffer da = upload(a), db = upload(b), dc = upload(c);
        Gemm(context()).enqueue(static_cast<GemmVariant>(v), s, 1.0f, da, db, 0.0f, dc);
        for (float x : download<float>(dc, 30))
            EXPECT_FALSE(std::isnan(x)) << gemmVariantInfo(static_cast<GemmVariant>(v)).id;
    }
}

TEST(Gemm, RefusesBadShapesAndTunings) {
    Gemm gemm(context());
    cl::Buffer small = upload(std::vector<float>(4));
    EXPECT_THROW(gemm.enqueue(GemmVariant::Naive, {0, 1, 1}, 1, small, small, 0, small), Error);
    EXPECT_THROW(gemm.enqueue(GemmVariant::Naive, {4, 4, 4}, 1, small, small, 0, small), Error);
    cl::Buffer big = upload(std::vector<float>(64 * 64));
    GemmTuning t;
    t.threadM = 3;
    EXPECT_THROW(gemm.enqueue(GemmVariant::RegisterBlocked, {8, 8, 8}, 1, big, big, 0, big, t),
                 Error);
    t = {};
    t.warpM = 24;  // warp tile not made of 16-row MMA tiles
    EXPECT_THROW(gemm.enqueue(GemmVariant::TensorTf32, {8, 8, 8}, 1, big, big, 0, big, t), Error);
    EXPECT_THROW(gemmVariantFromId("gemm-nope"), Error);
    EXPECT_EQ(gemmVariantFromId("gemm-tf32"), GemmVariant::TensorTf32);
}

TEST(Gemm, ThePtxVariantFallsBackToItsPortableTwinWhereThePtxIsRefused) {
    if (context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "NVIDIA's compiler takes the PTX";
    Gemm gemm(context());
    EXPECT_FALSE(gemm.usesInlinePtx(GemmVariant::TensorTf32));
    EXPECT_NE(gemm.ptxNote().find("portable"), std::string::npos);
    EXPECT_TRUE(gemmVariantInfo(GemmVariant::TensorTf32).needsInlinePtx);
}

TEST(GemmShape, LeastBytesGiveTheRooflineIntensity) {
    // 2 n^3 / (12 n^2) = n / 6 flops per byte for square matrices, beta = 0.
    const GemmShape square{600, 600, 600};
    EXPECT_DOUBLE_EQ(square.flops() / square.leastBytes(), 100.0);
    EXPECT_DOUBLE_EQ(square.flops() / square.leastBytes(true),
                     2.0 * 600 * 600 * 600 / (4.0 * 4 * 600 * 600));
    // Rectangular: A is m x k, B k x n, C m x n whatever the transposes.
    EXPECT_DOUBLE_EQ((GemmShape{3, 5, 7, true, true}.leastBytes()), 4.0 * (21 + 35 + 15));
    EXPECT_DOUBLE_EQ((GemmShape{0, 0, 0}.leastBytes()), 0.0);
}

namespace {

GemmTuning bulkTiling(int bm, int bn, int bk, int wm, int wn) {
    GemmTuning t;
    t.blockM = bm, t.blockN = bn, t.blockK = bk, t.warpM = wm, t.warpN = wn, t.bulkCopies = 1;
    return t;
}

// Every element of the packed buffer against Tf32PackedLayout (the host's statement of the
// layout): the operand's element where one maps there (rounded to TF32 where the product runs on
// the tensor cores), zero in the padding.
void expectPacked(const cl::Buffer& packed, const Tf32PackedLayout& l,
                  const std::function<float(int row, int k)>& element, bool rounded,
                  const char* what) {
    const auto got = download<float>(packed, l.floats());
    std::vector<float> want(l.floats(), 0.0f);
    for (int r = 0; r < l.rows; ++r)
        for (int k = 0; k < l.depth; ++k)
            want[l.offset(r, k)] = rounded ? packedTf32(element(r, k)) : element(r, k);
    int bad = 0;
    for (std::size_t e = 0; e < want.size(); ++e)
        if (got[e] != want[e] && bad++ < 5)
            ADD_FAILURE() << what << " " << l.rows << " x " << l.depth << " in " << l.tileRows
                          << " x " << l.bk << " tiles: packed[" << e << "] = " << got[e]
                          << ", want " << want[e];
    EXPECT_EQ(bad, 0) << what;
}

// Packs each shape with tiling t and checks both packed operands element by element.
void expectPackedShapes(const GemmTuning& t, std::initializer_list<Case> shapes) {
    SCOPED_TRACE(t.key());
    for (const Case& cs : shapes) {
        const GemmShape s{cs.m, cs.n, cs.k, cs.ta, cs.tb};
        const auto a = randomFloats(std::size_t(s.m) * s.k, 21 + s.m);
        const auto b = randomFloats(std::size_t(s.k) * s.n, 22 + s.n);
        cl::Buffer da = upload(a), db = upload(b),
                   dc = upload(std::vector<float>(std::size_t(s.m) * s.n));
        Gemm gemm(context());
        gemm.enqueue(GemmVariant::TensorTf32, s, 1.0f, da, db, 0.0f, dc, t);
        const bool rounded = gemm.usesInlinePtx(GemmVariant::TensorTf32);
        expectPacked(
            gemm.tf32PackedA(), {s.m, s.k, t.blockM, t.blockK},
            [&](int i, int k) { return opA(s, a, i, k); }, rounded, "op(A)");
        expectPacked(
            gemm.tf32PackedB(), {s.n, s.k, t.blockN, t.blockK},
            [&](int j, int k) { return opB(s, b, k, j); }, rounded, "op(B)^T");
    }
}

}  // namespace

// The packing kernel of the bulk-copy path (kernels/gemm_tf32_pack.cl) writes op(A) and op(B)^T
// in the stated tile layout: swizzled chunks, k-tiles of a block in order, ragged tiles padded
// with zeros; each transpose, K not a multiple of BK, a single partial tile, rows of 2, 4 and 8
// chunks (the swizzle's three group sizes).
TEST(Gemm, Tf32BulkPackingWritesTheStatedLayout) {
    for (const GemmTuning& t : {bulkTiling(32, 32, 8, 16, 16), bulkTiling(64, 32, 16, 32, 16),
                                bulkTiling(32, 64, 32, 16, 32)})
        expectPackedShapes(t, {{1, 1, 1, false, false},
                               {37, 20, 45, false, false},
                               {67, 33, 19, true, false},
                               {20, 131, 40, false, true},
                               {45, 29, 83, true, true}});
}

// The packing kernel's panels (one per work-group, Tf32PackPanels): 32 floats of k where BK
// divides 32, up to 128 rows, fewer rows where the panel would pass 32 KiB of local memory; a
// tile taller than its panel is packed by several groups (256-row tiles, 64-deep ones), and a
// last k-panel shorter than the others (K = 45 with BK 8: 6 k-tiles, panels of 4), every
// transpose.
TEST(Gemm, Tf32PackPanelsCoverTilesInPieces) {
    auto panels = [](int rows, int depth, int tileRows, int bk, bool kContiguous) {
        return tf32PackPanels({rows, depth, tileRows, bk}, kContiguous);
    };
    EXPECT_EQ(panels(100, 45, 128, 8, true).panelTiles, 4);
    EXPECT_EQ(panels(100, 45, 128, 8, true).kPanels(), 2);
    EXPECT_EQ(panels(100, 45, 128, 8, true).groups(), 2u);
    EXPECT_EQ(panels(300, 45, 256, 8, false).panelRows, 128);
    EXPECT_EQ(panels(300, 45, 256, 8, false).groups(), 2u * 2 * 2);
    EXPECT_EQ(panels(100, 45, 128, 16, true).panelTiles, 2);
    EXPECT_EQ(panels(100, 45, 128, 64, true).panelTiles, 1);
    EXPECT_EQ(panels(100, 45, 128, 64, true).panelRows, 64);  // 128 x 68 floats: 34 KiB
    EXPECT_EQ(panels(100, 45, 32, 8, true).panelRows, 32);
    for (bool kc : {false, true})
        for (int bk : {8, 16, 32, 64})
            EXPECT_LE(panels(100, 45, 256, bk, kc).localFloats() * sizeof(float), 32u * 1024);

    const std::initializer_list<Case> shapes = {{300, 45, 45, false, false},
                                                {131, 29, 45, true, false},
                                                {257, 67, 70, false, true},
                                                {129, 130, 131, true, true}};
    expectPackedShapes(bulkTiling(256, 32, 8, 64, 16), shapes);
    expectPackedShapes(bulkTiling(32, 32, 64, 16, 16), shapes);
    // And the products through those packings.
    for (const Case& c : shapes) {
        check(GemmVariant::TensorTf32, c, 1.0f, 0.0f, bulkTiling(256, 32, 8, 64, 16));
        check(GemmVariant::TensorTf32, c, 1.0f, 0.0f, bulkTiling(32, 32, 64, 16, 16));
    }
}

// The layout itself: within a tile each row's chunks are a permutation (no two elements share a
// place), and 8 consecutive rows' chunk 0 (one ldmatrix phase) land on 8 different bank groups.
// The packing kernel's rounding (stated on the host): to nearest TF32 (10 mantissa bits), ties
// away from zero, the 13 low bits cleared; infinities stay, the largest floats become infinite.
TEST(Gemm, PackedTf32RoundsToNearestTiesAway) {
    const float unit = std::ldexp(1.0f, -10);  // a TF32 unit at 1
    EXPECT_EQ(packedTf32(1.0f + unit * 0.49f), 1.0f);
    EXPECT_EQ(packedTf32(1.0f + unit * 0.5f), 1.0f + unit);  // a tie goes away from zero
    EXPECT_EQ(packedTf32(-1.0f - unit * 0.5f), -1.0f - unit);
    EXPECT_EQ(packedTf32(1.0f + unit * 0.51f), 1.0f + unit);
    EXPECT_EQ(packedTf32(0.0f), 0.0f);
    EXPECT_EQ(packedTf32(INFINITY), INFINITY);
    EXPECT_EQ(packedTf32(-FLT_MAX), -INFINITY);
    EXPECT_TRUE(std::isnan(packedTf32(NAN)));
}

TEST(Gemm, Tf32PackedLayoutSpreadsTheFragmentReads) {
    for (int bk : {8, 16, 32}) {
        const Tf32PackedLayout l{128, bk, 128, bk};
        std::vector<int> seen(l.floats(), 0);
        for (int r = 0; r < 128; ++r)
            for (int k = 0; k < bk; ++k)
                ++seen[l.offset(r, k)];
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 128 * bk) << "BK " << bk;
        for (int r0 = 0; r0 < 128; r0 += 8)
            for (int q = 0; q < bk / 4; ++q) {
                std::vector<int> groups;
                for (int r = r0; r < r0 + 8; ++r)
                    groups.push_back(int(l.offset(r, 4 * q) / 4 % 8));
                std::sort(groups.begin(), groups.end());
                EXPECT_EQ(std::unique(groups.begin(), groups.end()) - groups.begin(), 8)
                    << "BK " << bk << " rows " << r0 << "+, chunk " << q;
            }
    }
}

// The bulk-copy path (BULK=1: packed operands, stages by cp.async.bulk behind mbarriers on NVIDIA,
// plain copies of the packed tiles elsewhere) at awkward shapes: 1 x 1 x 1, primes, K not a
// multiple of BK or of 4, M >> N, every transpose; 2 stages (128 x 128 x 16), 4 (BK 8), 32-deep
// tiles, and small tiles with many k-tiles so the stages' barriers go through several phases.
TEST(Gemm, Tf32BulkMatchesOnAwkwardShapes) {
    const Case shapes[] = {
        {1, 1, 1, false, false},   {131, 12, 37, false, false},
        {7, 19, 44, false, false}, {523, 4, 29, false, false},  // M >> N
        {13, 8, 21, true, false},  {37, 41, 45, false, true},
        {36, 29, 53, true, true},  {67, 133, 101, false, false},
    };
    for (const GemmTuning& t : {bulkTiling(128, 128, 16, 64, 64), bulkTiling(128, 128, 8, 64, 32),
                                bulkTiling(64, 32, 32, 32, 16), bulkTiling(32, 32, 8, 16, 16)}) {
        SCOPED_TRACE(t.key());
        EXPECT_GE(Gemm(context()).tf32BulkStages(t), 2);
        for (const Case& c : shapes)
            check(GemmVariant::TensorTf32, c, 1.0f, 0.0f, t);
        check(GemmVariant::TensorTf32, {45, 28, 13, false, false}, -0.5f, 2.0f, t);
    }
    // 4 stages of 32 x 32 x 8 over 50 k-tiles: each stage's barrier completes 12 or 13 phases.
    check(GemmVariant::TensorTf32, {64, 96, 400, false, false}, 1.0f, 0.0f,
          bulkTiling(32, 32, 8, 16, 16));
}

// Whole tiles (FULL_TILES: C's paired stores without checks) for every transpose, and beta.
TEST(Gemm, Tf32BulkWholeTilesMatch) {
    const GemmTuning t = bulkTiling(64, 64, 8, 32, 32);
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            check(GemmVariant::TensorTf32, {128, 64, 72, ta, tb}, 1.0f, 0.0f, t);
    check(GemmVariant::TensorTf32, {64, 128, 40, false, false}, 3.0f, -1.0f, t);
    check(GemmVariant::TensorTf32, {256, 128, 48, false, false}, 1.0f, 0.5f,
          bulkTiling(128, 128, 16, 64, 64));
}

TEST(Gemm, Tf32BulkStagesAndRefusals) {
    Gemm gemm(context());
    // 128 x 128 x 16: 16 KiB a stage, 2 in 48 KiB beside the barriers (3 would leave none).
    EXPECT_EQ(tf32BulkStageBytes(bulkTiling(128, 128, 16, 64, 64)), 16u * 1024);
    EXPECT_EQ(gemm.tf32BulkStages(bulkTiling(128, 128, 16, 64, 64)), 2);
    EXPECT_EQ(gemm.tf32BulkStages(bulkTiling(128, 128, 8, 64, 64)), 4);  // at most 4
    EXPECT_EQ(gemm.tf32BulkStages(bulkTiling(128, 256, 16, 64, 64)), 1);
    cl::Buffer big = upload(std::vector<float>(64 * 64));
    auto why = [&](const GemmTuning& t) {
        try {
            gemm.enqueue(GemmVariant::TensorTf32, {64, 64, 64}, 1, big, big, 0, big, t);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(why(bulkTiling(128, 256, 16, 64, 64)).find("two stages"), std::string::npos);
    EXPECT_NE(why(bulkTiling(64, 64, 8, 32, 8)).find("WN to be a multiple of 16"),
              std::string::npos);
    EXPECT_EQ(parseGemmTuning("BM=64 BULK=1").bulkCopies, 1);
    EXPECT_EQ(bulkTiling(128, 128, 16, 64, 64).key(), "BM=128 BN=128 BK=16 WM=64 WN=64 BULK=1");
}

// NVIDIA's compiler must take the bulk kernel's PTX (mbarrier, cp.async.bulk, ldmatrix, mma.sync).
TEST(Gemm, Tf32BulkBuildsWithInlinePtxWhereOffered) {
    if (!context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "no inline PTX on this device";
    const GemmTuning t = bulkTiling(128, 128, 16, 64, 64);
    check(GemmVariant::TensorTf32, {256, 128, 64, false, false}, 1.0f, 0.0f, t);
    Gemm gemm(context());
    cl::Buffer a = upload(randomFloats(128 * 64, 5)), b = upload(randomFloats(64 * 128, 6)),
               c = upload(std::vector<float>(128 * 128));
    gemm.enqueue(GemmVariant::TensorTf32, {128, 128, 64}, 1.0f, a, b, 0.0f, c, t);
    EXPECT_TRUE(gemm.usesInlinePtx(GemmVariant::TensorTf32)) << gemm.ptxNote();
}

// gemm-tf32's default is the bulk path's tiling where M, N and K are all at least 4096 (measured
// faster there), the staged kernel's below and wherever a tuning names tiles.
TEST(Gemm, Tf32DefaultTakesTheBulkPathOnLargeProducts) {
    Gemm gemm(context());
    const GemmShape large{kTf32BulkMinSize, kTf32BulkMinSize, kTf32BulkMinSize};
    EXPECT_EQ(gemm.resolvedFor(GemmVariant::TensorTf32, {}, large).key(),
              "BM=128 BN=128 BK=16 WM=64 WN=64 BULK=1");
    for (const GemmShape& s :
         {GemmShape{kTf32BulkMinSize - 1, 8192, 8192}, GemmShape{8192, kTf32BulkMinSize - 1, 8192},
          GemmShape{8192, 8192, kTf32BulkMinSize - 1}, GemmShape{512, 512, 512}})
        EXPECT_EQ(gemm.resolvedFor(GemmVariant::TensorTf32, {}, s).key(),
                  gemm.resolved(GemmVariant::TensorTf32, {}).key());
    EXPECT_EQ(gemm.resolved(GemmVariant::TensorTf32, {}).bulkCopies, 0);
    GemmTuning named;
    named.blockK = 16;
    EXPECT_EQ(gemm.resolvedFor(GemmVariant::TensorTf32, named, large).bulkCopies, 0);
    EXPECT_EQ(gemm.resolvedFor(GemmVariant::Pipelined, {}, large).key(),
              gemm.resolved(GemmVariant::Pipelined, {}).key());
}
