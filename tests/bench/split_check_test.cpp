// The benchmarks' check of a split force pass (bench/split_check.hpp): it passes what float
// re-association and the tree's run-to-run spread explain, and catches planted split bugs (a
// domain slice left at 0, two slices swapped, one missing pair term), which a per-component
// relative difference could not tell from a body whose forces nearly cancel.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "bench/split_check.hpp"
#include "compute/nbody/initial_conditions.hpp"

namespace clviz::bench {
namespace {

// Accelerations of N bodies (exact double sums, G = 1, rounded to float) and their positions.
struct Forces {
    std::vector<Float4> pos, acc;
};
Forces directForces(std::size_t n, float softening) {
    Forces f;
    for (const Body& b : makePreset(NbodyPreset::Plummer, n, 7))
        f.pos.push_back(b.pos);
    const double eps2 = double(softening) * softening;
    for (std::size_t i = 0; i < n; ++i) {
        double a[3] = {0, 0, 0};
        for (std::size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            const double d[3] = {double(f.pos[j].x) - f.pos[i].x, double(f.pos[j].y) - f.pos[i].y,
                                 double(f.pos[j].z) - f.pos[i].z};
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
            const double s = f.pos[j].w / (r2 * std::sqrt(r2));
            for (int c = 0; c < 3; ++c)
                a[c] += s * d[c];
        }
        f.acc.push_back({float(a[0]), float(a[1]), float(a[2]), 0});
    }
    return f;
}

// Each component moved by `relative` of the RMS acceleration, randomly signed: run-to-run noise.
std::vector<Float4> jittered(std::vector<Float4> a, double relative, unsigned seed) {
    double squares = 0;
    for (const Float4& v : a)
        squares += double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
    const double step = relative * std::sqrt(squares / double(a.size()));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-step, step);
    for (Float4& v : a)
        v.x += float(u(rng)), v.y += float(u(rng)), v.z += float(u(rng));
    return a;
}

TEST(ForceDeviation, IsZeroForTheSameForcesAndInfiniteForNaN) {
    const Forces f = directForces(64, 0.01f);
    const ForceDeviation same = forceDeviation(f.acc, f.acc);
    EXPECT_EQ(same.max, 0);
    EXPECT_EQ(same.median, 0);
    auto bad = f.acc;
    bad[5].y = NAN;
    EXPECT_TRUE(std::isinf(forceDeviation(bad, f.acc).max));
    EXPECT_TRUE(std::isinf(forceDeviation({}, f.acc).max));  // sizes differ
    EXPECT_EQ(forceDeviation({}, {}).max, 0);
}

TEST(ForceDeviation, ABodyWhoseForcesCancelDoesNotDominate) {
    Forces f = directForces(64, 0.01f);
    f.acc[3] = {1e-9f, -1e-9f, 0, 0};  // nearly cancelling: a per-component ratio would explode
    auto noisy = f.acc;
    noisy[3].x += 1e-6f * std::abs(f.acc[0].x);
    EXPECT_LT(forceDeviation(noisy, f.acc).max, 1e-5);
}

TEST(TreeSplitCheck, PassesTheRunToRunSpreadAndCatchesPlantedBugs) {
    const Forces f = directForces(997, 0.01f);
    // One device's reruns and the split differ by the same kind of noise.
    const ForceDeviation rerun = forceDeviation(jittered(f.acc, 3e-6, 1), f.acc);
    const ForceDeviation split = forceDeviation(jittered(f.acc, 3e-6, 2), f.acc);
    EXPECT_TRUE(judgeTreeSplit(split, rerun).ok) << judgeTreeSplit(split, rerun).text;
    EXPECT_EQ(judgeTreeSplit(split, rerun).text, "ok");

    // A domain slice that never arrived (left 0): bodies 400 .. 499.
    auto missing = jittered(f.acc, 3e-6, 2);
    for (std::size_t i = 400; i < 500; ++i)
        missing[i] = {0, 0, 0, 0};
    const SplitVerdict v = judgeTreeSplit(forceDeviation(missing, f.acc), rerun);
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.text.rfind("WRONG", 0), 0u) << v.text;

    // Two slices placed at each other's offsets.
    auto swapped = f.acc;
    std::swap_ranges(swapped.begin(), swapped.begin() + 50, swapped.begin() + 500);
    EXPECT_FALSE(judgeTreeSplit(forceDeviation(swapped, f.acc), rerun).ok);

    // One body wrong by 1 %: still caught by the max.
    auto one = f.acc;
    one[123].x *= 1.01f;
    one[123].y *= 1.01f;
    one[123].z *= 1.01f;
    EXPECT_FALSE(judgeTreeSplit(forceDeviation(one, f.acc), rerun).ok);
}

TEST(TreeSplitCheck, ADeviceThatRepeatsItselfLeavesOnlyFloatUlps) {
    const Forces f = directForces(101, 0.01f);
    const ForceDeviation exact{};  // rerun spread 0 (PoCL)
    EXPECT_TRUE(judgeTreeSplit(forceDeviation(f.acc, f.acc), exact).ok);
    EXPECT_FALSE(judgeTreeSplit(forceDeviation(jittered(f.acc, 1e-4, 3), f.acc), exact).ok);
}

TEST(PairsSplitCheck, ReassociationPassesAndAMissingTermFails) {
    const float softening = 0.01f;
    const Forces f = directForces(331, softening);
    // The same terms summed in float in another order (backwards): within the bound.
    std::vector<Float4> reordered(f.pos.size());
    const double eps2 = double(softening) * softening;
    for (std::size_t i = 0; i < f.pos.size(); ++i) {
        float a[3] = {0, 0, 0};
        for (std::size_t j = f.pos.size(); j-- > 0;) {
            if (i == j) continue;
            const float d[3] = {f.pos[j].x - f.pos[i].x, f.pos[j].y - f.pos[i].y,
                                f.pos[j].z - f.pos[i].z};
            const float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + float(eps2);
            const float s = f.pos[j].w / (r2 * std::sqrt(r2));
            for (int c = 0; c < 3; ++c)
                a[c] += s * d[c];
        }
        reordered[i] = {a[0], a[1], a[2], 0};
    }
    const double ratio = worstPairsRoundingRatio(reordered, f.acc, f.pos, softening, 331);
    EXPECT_LE(ratio, 1);
    EXPECT_TRUE(judgePairsSplit(ratio).ok);

    // Body 0 lost its term from body 1 (a block meeting missed): far outside the bound.
    auto missing = f.acc;
    {
        const double d[3] = {double(f.pos[1].x) - f.pos[0].x, double(f.pos[1].y) - f.pos[0].y,
                             double(f.pos[1].z) - f.pos[0].z};
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
        const double s = f.pos[1].w / (r2 * std::sqrt(r2));
        missing[0].x -= float(s * d[0]);
        missing[0].y -= float(s * d[1]);
        missing[0].z -= float(s * d[2]);
    }
    // Body 0 is the first sample whatever the count.
    const double bad = worstPairsRoundingRatio(missing, f.acc, f.pos, softening, 16);
    EXPECT_GT(bad, 1);
    EXPECT_FALSE(judgePairsSplit(bad).ok);
    EXPECT_TRUE(std::isinf(worstPairsRoundingRatio({}, f.acc, f.pos, softening)));
}

TEST(ExactSplitCheck, AllPairsMustBeBitEqual) {
    const Forces f = directForces(50, 0.01f);
    EXPECT_TRUE(judgeExactSplit(forceDeviation(f.acc, f.acc)).ok);
    auto off = f.acc;
    off[7].z = std::nextafter(off[7].z, 1.0f);
    EXPECT_FALSE(judgeExactSplit(forceDeviation(off, f.acc)).ok);
}

}  // namespace
}  // namespace clviz::bench
