// The N-body reference check (app.check-reference): exact variants judged against the double sums;
// the tree at theta > 0, which approximates them, judged exactly at theta 0 on its sample with its
// approximation on the whole system reported, and failed when that is not finite.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference_check.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/support/device_context.hpp"

using namespace clviz;

namespace {

NbodySimulation& loaded(NbodySimulation& sim, NbodyVariant variant, std::size_t n) {
    NbodyKernelConfig config;
    config.variant = variant;
    sim.setKernelConfig(config);
    sim.load(makePreset(NbodyPreset::Plummer, n, 5));
    return sim;
}

}  // namespace

TEST(NbodyReferenceCheck, TheTreeAtItsThetaPassesAndShowsItsApproximation) {
    NbodySimulation sim(test::context());
    loaded(sim, NbodyVariant::Tree, 3001);
    ASSERT_GT(sim.params().theta, 0.0f);
    const ReferenceCheck r = checkNbodyAgainstReference(sim, 32);
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_NE(r.message.find("the tree at theta 0 on 32 sampled bodies"), std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("approximation error"), std::string::npos) << r.message;
}

TEST(NbodyReferenceCheck, TheTreeFailsWhenItsForcesAreNotFinite) {
    NbodySimulation sim(test::context());
    loaded(sim, NbodyVariant::Tree, 1031);
    std::vector<double> acc = sim.readAccelerationsDouble();
    acc[0] = std::numeric_limits<double>::quiet_NaN();  // body 0 is always sampled
    const ReferenceCheck r = checkNbodyAgainstReference(sim, sim.readBodies(), acc, 16);
    EXPECT_FALSE(r.ok) << r.message;
}

TEST(NbodyReferenceCheck, AnExactVariantIsJudgedOnTheWholeSystem) {
    NbodySimulation sim(test::context());
    loaded(sim, NbodyVariant::Tiled, 1031);
    EXPECT_TRUE(checkNbodyAgainstReference(sim, 16).ok);
    std::vector<double> acc = sim.readAccelerationsDouble();
    for (double& a : acc)
        a *= 1.01;  // 1 % off: far past float rounding
    const ReferenceCheck r = checkNbodyAgainstReference(sim, sim.readBodies(), acc, 16);
    EXPECT_FALSE(r.ok) << r.message;
    EXPECT_NE(r.message.find("MISMATCH"), std::string::npos) << r.message;
}
