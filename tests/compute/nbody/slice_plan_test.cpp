// How bodies are shared among devices: exact counts, contiguous order, speeds from timings, and
// when re-slicing pays.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "compute/nbody/multi/slice_plan.hpp"

namespace clviz {
namespace {

void expectCovers(const std::vector<BodySlice>& s, std::size_t n) {
    std::size_t next = 0;
    for (const BodySlice& x : s) {
        EXPECT_EQ(x.begin, next);
        next = x.end();
    }
    EXPECT_EQ(next, n);
}

TEST(SlicePlan, EqualWeightsSplitEvenlyAndCoverEveryBody) {
    for (std::size_t n : {1u, 2u, 3u, 7u, 257u, 1000003u}) {
        for (std::size_t devices : {1u, 2u, 3u, 5u}) {
            const auto s = planSlices(n, std::vector<double>(devices, 1.0));
            ASSERT_EQ(s.size(), devices);
            expectCovers(s, n);
            for (const BodySlice& x : s) {
                EXPECT_GE(x.count, n / devices);
                EXPECT_LE(x.count, n / devices + 1);
            }
        }
    }
}

TEST(SlicePlan, FewerBodiesThanDevicesLeavesEmptySlices) {
    const auto s = planSlices(2, {1, 1, 1, 1});
    expectCovers(s, 2);
    int empty = 0;
    for (const BodySlice& x : s)
        empty += x.count == 0;
    EXPECT_EQ(empty, 2);
}

TEST(SlicePlan, UnevenWeightsFollowTheRatio) {
    const auto s = planSlices(1000, {1, 3});
    EXPECT_EQ(s[0].count, 250u);
    EXPECT_EQ(s[1].count, 750u);
    const auto z = planSlices(11, {0, 2});
    EXPECT_EQ(z[0].count, 0u);
    EXPECT_EQ(z[1].count, 11u);
}

TEST(SlicePlan, BadWeightsAreRefusedWithAReason) {
    EXPECT_THROW(planSlices(10, {}), Error);
    EXPECT_THROW(planSlices(10, {0, 0}), Error);
    EXPECT_THROW(planSlices(10, {1, -1}), Error);
    EXPECT_THROW(planSlices(10, {1, std::nan("")}), Error);
}

TEST(SlicePlan, SpeedsComeFromSliceSizeOverForceTime) {
    // Device 1 took 4x as long for the same share: it is 4x slower.
    const auto speeds = measuredSpeeds({{0, 500}, {500, 500}}, {10.0, 40.0}, {});
    EXPECT_DOUBLE_EQ(speeds[0], 50.0);
    EXPECT_DOUBLE_EQ(speeds[1], 12.5);
    const auto s = planSlices(1000, speeds);
    EXPECT_EQ(s[0].count, 800u);
    EXPECT_EQ(s[1].count, 200u);
    // An empty slice has no time: it keeps its previous speed (or the mean of the others).
    const auto kept = measuredSpeeds({{0, 1000}, {1000, 0}}, {10.0, 0.0}, {100.0, 7.0});
    EXPECT_DOUBLE_EQ(kept[1], 7.0);
    const auto mean = measuredSpeeds({{0, 1000}, {1000, 0}}, {10.0, 0.0}, {});
    EXPECT_DOUBLE_EQ(mean[1], 100.0);
}

TEST(SlicePlan, RebalancesOnlyWhenItShortensTheStep) {
    const std::vector<BodySlice> even{{0, 500}, {500, 500}};
    EXPECT_TRUE(worthRebalancing(even, {50.0, 12.5}));
    EXPECT_FALSE(worthRebalancing(even, {50.0, 49.0}));  // 1% apart: noise, not worth a move
    EXPECT_FALSE(worthRebalancing({{0, 1000}}, {50.0}));
    const auto balanced = planSlices(1000, {50.0, 12.5});
    EXPECT_FALSE(worthRebalancing(balanced, {50.0, 12.5}));
}

TEST(SliceBalancer, MovesOnlyForALastingGainAndSettles) {
    SliceBalancer b;
    std::vector<BodySlice> s = planSlices(1000, {1, 1});
    // Device 1 is 4x slower: two calls only measure; the third moves the boundary.
    EXPECT_FALSE(b.update(s, {10, 40}, 1));
    EXPECT_FALSE(b.update(s, {10, 40}, 1));
    auto moved = b.update(s, {10, 40}, 1);
    ASSERT_TRUE(moved);
    EXPECT_EQ((*moved)[0].count, 800u);
    s = *moved;
    // Balanced now (16 ms each): noise of a few percent moves nothing.
    for (int call = 0; call < 9; ++call)
        EXPECT_FALSE(b.update(s, {16.0 + (call % 2), 16.0 - (call % 2)}, 1)) << call;
    // One device alone never moves.
    SliceBalancer one;
    for (int call = 0; call < 4; ++call)
        EXPECT_FALSE(one.update({{0, 10}}, {100}, 1));
}

TEST(SliceBalancer, WaitsForEnoughTimeToMeasure) {
    // 0.1 ms kernels are launch noise: a 4x difference over 3 calls is not enough to move.
    SliceBalancer b;
    const std::vector<BodySlice> s = planSlices(100, {1, 1});
    for (int call = 0; call < 5; ++call)
        EXPECT_FALSE(b.update(s, {0.1, 0.4}, 1)) << call;
    // Enough of them add up to 20 ms on every device: then it moves.
    std::optional<std::vector<BodySlice>> moved;
    for (int call = 0; call < 300 && !moved; ++call)
        moved = b.update(s, {0.1, 0.4}, 1);
    EXPECT_TRUE(moved);
}

// Walk pieces tile the slice in order, empty ones left out; even pieces differ by at most one
// body, halving pieces are half of what is left with the last two equal.
TEST(SlicePlan, CutsASliceIntoPiecesThatTileIt) {
    for (bool halving : {false, true})
        for (std::size_t count : {0u, 1u, 2u, 7u, 1000u, 4194304u})
            for (std::size_t pieces : {0u, 1u, 3u, 4u, 9u}) {
                const BodySlice slice{123, count};
                const auto cut = cutIntoPieces(slice, pieces, halving);
                std::size_t at = slice.begin;
                for (const BodySlice& p : cut) {
                    EXPECT_EQ(p.begin, at);
                    EXPECT_GT(p.count, 0u);
                    at = p.end();
                }
                EXPECT_EQ(at, slice.end()) << count << " in " << pieces;
                EXPECT_LE(cut.size(), std::max<std::size_t>(1, pieces));
                if (count >= 1000 && pieces) {
                    EXPECT_EQ(cut.size(), pieces);
                }
            }
    auto counts = [](const std::vector<BodySlice>& cut) {
        std::vector<std::size_t> out;
        for (const BodySlice& p : cut)
            out.push_back(p.count);
        return out;
    };
    EXPECT_EQ(counts(cutIntoPieces({0, 4194304}, 4, true)),
              (std::vector<std::size_t>{2097152, 1048576, 524288, 524288}));
    EXPECT_EQ(counts(cutIntoPieces({5, 10}, 3, false)), (std::vector<std::size_t>{3, 3, 4}));
    EXPECT_EQ(counts(cutIntoPieces({5, 10}, 3, true)), (std::vector<std::size_t>{5, 2, 3}));
}

TEST(SlicePlan, DescribesTheSlices) {
    EXPECT_EQ(describeSlices({{0, 3}, {3, 1}}), "0: 0 + 3 (75.0%), 1: 3 + 1 (25.0%)");
}

}  // namespace
}  // namespace clviz
