// Which launch settings each force-kernel variant declares (tunablesOf, what the Simulation panel
// offers) against what its kernel really reads: kernels/nbody_force.cl fixes BPI and SPLIT at 1
// for tiled, walks the run-time tile length there (no UNROLL), and gives small-n all four.
#include <gtest/gtest.h>

#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/compute/nbody/test_support.hpp"

using namespace clviz;
using clviz::test::context;

TEST(NbodyTunables, EachVariantDeclaresWhatItsKernelReads) {
    auto expect = [](NbodyVariant v, bool wg, bool unroll, bool bpi, bool split) {
        const NbodyTunables t = tunablesOf(v);
        EXPECT_EQ(t.workGroupSize, wg) << variantName(v);
        EXPECT_EQ(t.unroll, unroll) << variantName(v);
        EXPECT_EQ(t.bodiesPerItem, bpi) << variantName(v);
        EXPECT_EQ(t.split, split) << variantName(v);
    };
    expect(NbodyVariant::Naive, true, false, false, false);
    expect(NbodyVariant::Tiled, true, false, false, false);
    expect(NbodyVariant::Unrolled, true, true, true, false);
    expect(NbodyVariant::Vectorized, true, true, true, false);
    expect(NbodyVariant::AsyncCopy, true, true, true, false);
    expect(NbodyVariant::SmallN, true, true, true, true);
    expect(NbodyVariant::Auto, false, false, false, false);
    expect(NbodyVariant::Pairs, true, false, true, false);
}

// A declared setting reaches the kernel's build; an undeclared one is fixed at 1 whatever is asked.
TEST(NbodyTunables, TheSimulationHonoursExactlyTheDeclaredSettings) {
    NbodySimulation sim(context());
    sim.setUseAutotuneMemory(false);
    sim.load(makePreset(NbodyPreset::UniformCube, 1000));
    for (NbodyVariant v : allNbodyVariants()) {
        NbodyKernelConfig asked;
        asked.variant = v;
        asked.workGroupSize = 64;
        asked.unroll = 2;
        asked.bodiesPerItem = 2;
        asked.split = 2;
        sim.setKernelConfig(asked);
        const NbodyKernelConfig got = sim.effectiveKernelConfig();
        const NbodyTunables t = tunablesOf(v);
        EXPECT_EQ(got.workGroupSize, 64) << variantName(v);
        EXPECT_EQ(got.unroll, t.unroll ? 2 : 1) << variantName(v);
        EXPECT_EQ(got.bodiesPerItem, t.bodiesPerItem ? 2 : 1) << variantName(v);
        EXPECT_EQ(got.split, t.split ? 2 : 1) << variantName(v);
    }
}
