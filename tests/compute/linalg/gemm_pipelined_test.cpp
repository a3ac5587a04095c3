// gemm-pipelined (kernels/gemm_pipelined.cl) against a double-precision CPU product at each of its
// tilings: awkward shapes (1 x 1 x 1, primes, K not a multiple of BK, M >> N, every transpose)
// on the edge-checked path, whole tiles (FULL_TILES) over one and several k-tiles, alpha/beta,
// and the tilings the variant must refuse. gemm_test.cpp runs its default tiling beside the
// other variants.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "compute/linalg/gemm.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

// Largest |C - alpha op(A) op(B) - beta C0| over every entry, each product summed in double.
void expectProduct(const GemmShape& s, float alpha, float beta, const GemmTuning& t) {
    const auto a = randomFloats(std::size_t(s.m) * s.k, 11 + s.m * 7 + s.k);
    const auto b = randomFloats(std::size_t(s.k) * s.n, 12 + s.n * 5 + s.k);
    const auto c0 = randomFloats(std::size_t(s.m) * s.n, 13 + s.m + s.n);
    cl::Buffer da = upload(a), db = upload(b), dc = upload(c0);
    Gemm gemm(context());
    gemm.enqueue(GemmVariant::Pipelined, s, alpha, da, db, beta, dc, t);
    const auto got = download<float>(dc, c0.size());
    const double tol = 2e-6 * std::sqrt(double(s.k)) * std::abs(alpha) + 1e-6;
    int bad = 0;
    for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < s.n; ++j) {
            double want = 0;
            for (int k = 0; k < s.k; ++k)
                want +=
                    double(s.transA ? a[std::size_t(k) * s.m + i] : a[std::size_t(i) * s.k + k]) *
                    double(s.transB ? b[std::size_t(j) * s.k + k] : b[std::size_t(k) * s.n + j]);
            const std::size_t e = std::size_t(i) * s.n + j;
            want = alpha * want + beta * double(c0[e]);
            if (!(std::abs(got[e] - want) <= tol) && bad++ < 5)
                ADD_FAILURE() << gemm.resolved(GemmVariant::Pipelined, t).key() << " on " << s.m
                              << "x" << s.n << "x" << s.k << (s.transA ? " A^T" : "")
                              << (s.transB ? " B^T" : "") << ": C[" << i << "][" << j
                              << "] = " << got[e] << ", want " << want << "; " << seedNote();
        }
    EXPECT_EQ(bad, 0);
}

GemmTuning tiling(int bm, int bn, int bk, int tm, int tn) {
    GemmTuning t;
    t.blockM = bm, t.blockN = bn, t.blockK = bk, t.threadM = tm, t.threadN = tn;
    return t;
}

// gemm_test.cpp runs the default (128 x 128 x 8, 8 x 8) on its shapes; here a 16-deep tile with
// 128 work-items, 16 x 4 per work-item (four runs of 4 rows) with one warp per group, and a tile
// of A smaller than the group (32 x 4: 32 float4s for 64 work-items). Small tiles keep PoCL's
// builds of the unrolled kernel short.
const GemmTuning kTilings[] = {tiling(64, 128, 16, 8, 8), tiling(64, 32, 4, 16, 4),
                               tiling(32, 64, 4, 8, 4)};

class PipelinedTilings : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(PipelinedTilings, MatchAwkwardShapesWithEdgeChecks) {
    const GemmTuning& t = kTilings[GetParam()];
    const GemmShape shapes[] = {{1, 1, 1},
                                {7, 13, 5},
                                {131, 137, 97},  // primes, K % BK != 0
                                {257, 3, 19},    // M >> N
                                {130, 129, 17, true, false},
                                {53, 71, 23, false, true},
                                {45, 29, 83, true, true}};
    for (const GemmShape& s : shapes)
        expectProduct(s, 1.0f, 0.0f, t);
    expectProduct({33, 17, 41}, -0.5f, 2.0f, t);
}

// Multiples of the tile (FULL_TILES: no edge checks), three k-tiles: the two local buffers
// alternate and the last fragments of a tile come from the next one.
TEST_P(PipelinedTilings, MatchWholeTilesWithoutEdgeChecks) {
    const GemmTuning& t = kTilings[GetParam()];
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            expectProduct({2 * t.blockM, t.blockN, 3 * t.blockK, ta, tb}, 1.0f, 0.0f, t);
    expectProduct({t.blockM, 2 * t.blockN, 3 * t.blockK}, -0.5f, 2.0f, t);
}

INSTANTIATE_TEST_SUITE_P(Pipelined, PipelinedTilings,
                         ::testing::Range(0, int(sizeof(kTilings) / sizeof(kTilings[0]))),
                         [](const auto& info) {
                             const GemmTuning& t = kTilings[info.param];
                             return std::to_string(t.blockM) + "x" + std::to_string(t.blockN) +
                                    "x" + std::to_string(t.blockK) + "_" +
                                    std::to_string(t.threadM) + "x" + std::to_string(t.threadN);
                         });

// Work-groups walked down bands of GB block rows: whole bands, a last band of fewer rows, a band
// taller than the grid, one block column and several (the default, 8, runs in every other test).
TEST(GemmPipelined, BandedGroupOrderCoversEveryBlock) {
    GemmTuning t = tiling(32, 64, 4, 8, 4);  // blocks of 32 rows, 64 columns
    for (int band : {1, 2, 3, 16}) {
        t.groupBand = band;
        expectProduct({290, 131, 13}, 1.0f, 0.0f, t);  // 10 block rows: 3 + 3 + 3 + 1 at GB=3
        expectProduct({257, 3, 19}, 1.0f, 0.0f, t);    // M >> N: one block column
        expectProduct({96, 192, 8, true, true}, -0.5f, 2.0f, t);  // whole tiles
    }
}

// Asynchronous stages (plain copies on PoCL, cp.async where inline PTX builds): every stage count
// on awkward shapes and every transpose, and whole tiles over more k-tiles than stages, so the
// buffers wrap around.
TEST(GemmPipelined, AsyncStagesMatch) {
    GemmTuning t = tiling(32, 64, 4, 8, 4);
    for (int stages : {2, 3, 4}) {
        t.asyncStages = stages;
        const GemmShape shapes[] = {{1, 1, 1},
                                    {131, 137, 97},  // primes, K % BK != 0
                                    {257, 3, 19},    // M >> N
                                    {53, 71, 23, true, false},
                                    {45, 29, 83, false, true},
                                    {30, 31, 9, true, true}};
        for (const GemmShape& s : shapes)
            expectProduct(s, 1.0f, 0.0f, t);
        for (bool ta : {false, true})
            for (bool tb : {false, true})
                expectProduct({64, 128, 7 * t.blockK, ta, tb}, 1.0f, 0.0f, t);
        expectProduct({32, 64, 5 * t.blockK}, -0.5f, 2.0f, t);
    }
}

TEST(GemmPipelined, RefusesTilingsItsWarpLayoutCannotTake) {
    Gemm gemm(context());
    cl::Buffer m = upload(std::vector<float>(64 * 64));
    const GemmShape s{8, 8, 8};
    // 4 work-items along n (warps are 8 wide), 2 along m (4 tall), TM not a multiple of 4.
    for (const GemmTuning& t : {tiling(128, 64, 8, 8, 16), tiling(32, 64, 8, 16, 8),
                                tiling(128, 128, 8, 6, 8), tiling(128, 128, 6, 8, 8)})
        EXPECT_THROW(gemm.enqueue(GemmVariant::Pipelined, s, 1, m, m, 0, m, t), Error) << t.key();
    // Two buffers of a BK-deep tile beyond the device's local memory.
    const int deep =
        int(context().info().localMemBytes / (2 * (128 + 128 + 8) * sizeof(float))) + 4;
    EXPECT_THROW(gemm.enqueue(GemmVariant::Pipelined, s, 1, m, m, 0, m,
                              tiling(128, 128, (deep + 3) / 4 * 4, 8, 8)),
                 Error);
    // Asynchronous stages: 2 to 4, each a local buffer.
    for (int stages : {1, 5}) {
        GemmTuning t = tiling(32, 64, 4, 8, 4);
        t.asyncStages = stages;
        EXPECT_THROW(gemm.enqueue(GemmVariant::Pipelined, s, 1, m, m, 0, m, t), Error) << t.key();
    }
    const int deepForFour =
        int(context().info().localMemBytes / (4 * (128 + 128 + 8) * sizeof(float))) + 4;
    GemmTuning fourDeep = tiling(128, 128, (deepForFour + 3) / 4 * 4, 8, 8);
    fourDeep.asyncStages = 4;
    EXPECT_THROW(gemm.enqueue(GemmVariant::Pipelined, s, 1, m, m, 0, m, fourDeep), Error);
}

TEST(GemmPipelined, TuningKeysNameBandsAndStages) {
    Gemm gemm(context());
    EXPECT_EQ(gemm.resolved(GemmVariant::Pipelined, {}).groupBand, 8);
    const GemmTuning t = parseGemmTuning("BM=128 BN=256 BK=8 TM=16 TN=8 GB=4 ST=3");
    EXPECT_EQ(t.groupBand, 4);
    EXPECT_EQ(t.asyncStages, 3);
    EXPECT_EQ(parseGemmTuning(t.key()).key(), t.key());
    // The other register-blocked variants have neither.
    EXPECT_EQ(gemm.resolved(GemmVariant::DoubleBuffered, t).groupBand, 0);
    EXPECT_EQ(gemm.resolved(GemmVariant::DoubleBuffered, t).asyncStages, 0);
}

TEST(GemmPipelined, CapsRegistersForTwoGroupsOnlyWhereNvidiasCompilerTakesIt) {
    Gemm gemm(context());
    const GemmTuning def = gemm.resolved(GemmVariant::Pipelined, {});
    EXPECT_EQ(def.blockM, 128);
    EXPECT_EQ(def.blockN, 128);
    EXPECT_EQ(def.blockK, 8);
    EXPECT_EQ(def.threadM, 8);
    EXPECT_EQ(def.threadN, 8);
    if (takesNvidiaCompilerOptions(context().info())) {
        EXPECT_EQ(def.registerCap, 128);  // 64 K registers / (2 x 256 work-items)
        EXPECT_EQ(gemm.resolved(GemmVariant::Pipelined, tiling(128, 64, 8, 8, 8)).registerCap, 255);
    } else {
        EXPECT_EQ(def.registerCap, 0);
        GemmTuning capped = def;
        capped.registerCap = 128;
        cl::Buffer m = upload(std::vector<float>(64));
        EXPECT_THROW(gemm.enqueue(GemmVariant::Pipelined, {8, 8, 1}, 1, m, m, 0, m, capped), Error);
    }
}
