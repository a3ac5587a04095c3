// The split benchmarks' rows run the tree at the one-device rows' angles: the preset's far-field
// angle unless --theta-far says otherwise, one row per --theta, and the config names both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "bench/split_plan.hpp"
#include "compute/nbody/initial_conditions.hpp"

namespace clviz::bench {
namespace {

SplitBenchPlan planFor(const std::vector<std::string>& args) {
    BenchOptions o;
    EXPECT_TRUE(parseBenchOptions(args, o));
    return planSplitBenchmark(o, "--devices");
}

TEST(SplitPlan, TreeRowsTakeThePresetsFarFieldAngleAndTheDefaultTheta) {
    const SplitBenchPlan plan = planFor({"--variants", "tree"});
    const std::vector<NbodyParams> rows = rowParams(plan, NbodyVariant::Tree);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].thetaFar, presetInfo(plan.preset).thetaFar);
    EXPECT_EQ(rows[0].theta, NbodyParams{}.theta);
    EXPECT_EQ(rows[0].dt, presetInfo(plan.preset).dt);
    EXPECT_EQ(rows[0].softening, presetInfo(plan.preset).softening);
}

TEST(SplitPlan, TreeRowsFollowThetaAndThetaFarOneRowPerTheta) {
    const SplitBenchPlan plan =
        planFor({"--variants", "tree,pairs", "--theta", "0.45,0.6", "--theta-far", "0.3"});
    const std::vector<NbodyParams> tree = rowParams(plan, NbodyVariant::Tree);
    ASSERT_EQ(tree.size(), 2u);
    EXPECT_FLOAT_EQ(tree[0].theta, 0.45f);
    EXPECT_FLOAT_EQ(tree[1].theta, 0.6f);
    for (const NbodyParams& p : tree)
        EXPECT_FLOAT_EQ(p.thetaFar, 0.3f);
    EXPECT_EQ(rowParams(plan, NbodyVariant::Pairs).size(), 1u) << "the angles are the tree's";
}

TEST(SplitPlan, TheTreesConfigNamesItsAngles) {
    NbodyKernelConfig tree;
    tree.variant = NbodyVariant::Tree;
    tree.workGroupSize = 128;
    NbodyParams p;
    p.theta = 0.5f;
    p.thetaFar = 0.55f;
    const std::string label = splitConfigLabel(tree, p);
    EXPECT_NE(label.find("theta=0.5 far=0.55"), std::string::npos) << label;
    NbodyKernelConfig pairs = tree;
    pairs.variant = NbodyVariant::Pairs;
    EXPECT_EQ(splitConfigLabel(pairs, p).find("theta"), std::string::npos);
}

}  // namespace
}  // namespace clviz::bench
