// The simulation around the kernels: energy conservation, live switches that keep the state,
// diagnostics, timings, the fp64 path and the auto-tune.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/compute/nbody/test_support.hpp"

using namespace clviz;
using clviz::test::context;

namespace {

NbodyParams params(float dt, float softening, float damping = 1.0f) {
    NbodyParams p;
    p.dt = dt;
    p.softening = softening;
    p.damping = damping;
    return p;
}

// Worst |x - x_ref| over bodies, relative to the largest distance any body moved.
double worstDrift(const std::vector<Body>& start, const std::vector<Body>& got,
                  const NbodyReferenceState& ref) {
    double moved = 0, err = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        moved = std::max(moved,
                         std::hypot(ref.pos[i][0] - start[i].pos.x, ref.pos[i][1] - start[i].pos.y,
                                    ref.pos[i][2] - start[i].pos.z));
        err = std::max(err, std::hypot(got[i].pos.x - ref.pos[i][0], got[i].pos.y - ref.pos[i][1],
                                       got[i].pos.z - ref.pos[i][2]));
        err = std::max(err, std::hypot(got[i].vel.x - ref.vel[i][0], got[i].vel.y - ref.vel[i][1],
                                       got[i].vel.z - ref.vel[i][2]));
    }
    return moved > 0 ? err / moved : err;
}

}  // namespace

// The acceptance test of the integrator: a Plummer sphere (N = 4096, Henon units, crossing time
// ~2.8) for 1000 leapfrog steps of dt = 0.01 (~3.5 crossing times) with softening 0.05, about
// the mean inter-particle distance in the core. Run with the fastest variant on this device.
TEST(NbodySimulation, LeapfrogConservesEnergyOnAPlummerSphere) {
    NbodySimulation sim(context());
    const auto bodies = makePreset(NbodyPreset::Plummer, 4096, 7);
    sim.setParams(params(0.01f, 0.05f));
    sim.setIntegrator(NbodyIntegrator::Leapfrog);
    sim.setVariant(context().info().kind == DeviceKind::Gpu ? NbodyVariant::Unrolled
                                                            : NbodyVariant::Vectorized);
    sim.load(bodies);
    const auto start = sim.diagnostics();
    const auto ref = referenceEnergy(NbodyReferenceState::from(bodies), 0.05f);
    EXPECT_NEAR(start.kinetic, ref.kinetic, 1e-5 * std::abs(ref.total()));
    EXPECT_NEAR(start.potential, ref.potential, 1e-5 * std::abs(ref.total()));
    EXPECT_NEAR(start.total, -0.25, 0.02) << "Henon units: E = -1/4";
    for (int i = 0; i < 20; ++i)
        sim.step(50);
    const auto end = sim.diagnostics();
    EXPECT_EQ(sim.stepsTaken(), 1000);
    EXPECT_NEAR(sim.time(), 10.0, 1e-3);
    EXPECT_TRUE(end.finite()) << end.message();
    EXPECT_LE(std::abs(end.relativeEnergyDrift), 1e-3)
        << "E0 " << start.total << " E " << end.total;
    std::printf("energy drift after 1000 steps: %.3e\n", end.relativeEnergyDrift);
    for (double p : end.momentum)
        EXPECT_LE(std::abs(p), 1e-4);
}

TEST(NbodySimulation, TaylorDriftsMoreThanLeapfrog) {
    // The reason leapfrog is the default: same system, same dt, the seed's update drifts more.
    double drift[2];
    for (int k = 0; k < 2; ++k) {
        NbodySimulation sim(context());
        sim.setParams(params(0.02f, 0.05f));
        sim.setIntegrator(k == 0 ? NbodyIntegrator::Taylor : NbodyIntegrator::Leapfrog);
        sim.load(makePreset(NbodyPreset::Plummer, 512, 3));
        sim.diagnostics();
        sim.step(100);
        drift[k] = std::abs(sim.diagnostics().relativeEnergyDrift);
    }
    EXPECT_GT(drift[0], drift[1]);
}

TEST(NbodySimulation, SwitchingVariantWorkGroupAndIntegratorKeepsTheState) {
    const auto bodies = makePreset(NbodyPreset::DiskGalaxy, 777, 5);
    const NbodyParams p = params(0.005f, 0.05f);
    NbodySimulation sim(context());
    sim.setParams(p);
    sim.load(bodies);
    auto ref = NbodyReferenceState::from(bodies);
    int wgs[] = {8, 64, 256, 16, 128, 32};
    for (int s = 0; s < 12; ++s) {
        const auto v = allNbodyVariants()[s % 6];
        sim.setVariant(v);
        sim.setWorkGroupSize(wgs[s % 6]);
        const auto integrator = (s / 3) % 2 ? NbodyIntegrator::Taylor : NbodyIntegrator::Leapfrog;
        sim.setIntegrator(integrator);
        if (s == 7)
            sim.setPrecision(sim.supportsFp64() ? NbodyPrecision::Double : NbodyPrecision::Float);
        if (s == 10) sim.setPrecision(NbodyPrecision::Float);
        sim.step(1);
        referenceStep(ref, integrator, p, 1);
    }
    EXPECT_EQ(sim.stepsTaken(), 12);
    EXPECT_NEAR(sim.time(), 12 * 0.005, 1e-6);
    EXPECT_LE(worstDrift(bodies, sim.readBodies(), ref), 1e-3);
}

TEST(NbodySimulation, ChangingDtDoesNotResetAndChangingSofteningRecomputesForces) {
    const auto bodies = makePreset(NbodyPreset::Plummer, 300, 9);
    NbodySimulation sim(context());
    sim.setParams(params(0.01f, 0.05f));
    sim.load(bodies);
    auto ref = NbodyReferenceState::from(bodies);
    sim.step(2);
    referenceStep(ref, NbodyIntegrator::Leapfrog, params(0.01f, 0.05f), 2);
    sim.setParams(params(0.02f, 0.1f));
    sim.step(2);
    referenceStep(ref, NbodyIntegrator::Leapfrog, params(0.02f, 0.1f), 2);
    EXPECT_LE(worstDrift(bodies, sim.readBodies(), ref), 1e-4);
    EXPECT_NEAR(sim.time(), 0.06, 1e-6);
}

TEST(NbodySimulation, DampingScalesVelocityOncePerStep) {
    Body b;
    b.pos = {1, 2, 3, 1};
    b.vel = {1, -2, 4, 0};
    NbodySimulation sim(context());
    sim.setParams(params(0.1f, 0.0f, 0.5f));
    for (auto integrator : {NbodyIntegrator::Leapfrog, NbodyIntegrator::Taylor}) {
        sim.setIntegrator(integrator);
        sim.load({b});
        sim.step(1);
        const Body got = sim.readBodies()[0];
        EXPECT_FLOAT_EQ(got.vel.x, 0.5f);
        EXPECT_FLOAT_EQ(got.vel.z, 2.0f);
        EXPECT_EQ(got.pos.w, 1.0f) << "mass is kept";
        // Leapfrog drifts with the damped velocity, the seed's update with the old one.
        EXPECT_FLOAT_EQ(got.pos.x, integrator == NbodyIntegrator::Leapfrog ? 1.05f : 1.1f);
    }
}

TEST(NbodySimulation, DiagnosticsMatchTheReference) {
    const auto bodies = makePreset(NbodyPreset::CollidingGalaxies, 1500, 11);
    NbodySimulation sim(context());
    sim.setParams(params(0.005f, 0.05f));
    sim.load(bodies);
    const auto d = sim.diagnostics();
    const auto ref = referenceEnergy(NbodyReferenceState::from(bodies), 0.05f);
    EXPECT_NEAR(d.kinetic, ref.kinetic, 1e-5 * std::abs(ref.kinetic));
    EXPECT_NEAR(d.potential, ref.potential, 1e-5 * std::abs(ref.potential));
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(d.momentum[c], ref.momentum[c], 1e-5);
    EXPECT_EQ(d.relativeEnergyDrift, 0.0);
    EXPECT_TRUE(d.finite());
    EXPECT_EQ(d.message(), "");
    EXPECT_GE(d.ms, 0.0);
    if (sim.supportsFp64()) {  // the fp64 reduction agrees to near double rounding
        sim.setPrecision(NbodyPrecision::Double);
        const auto d64 = sim.diagnostics();
        EXPECT_NEAR(d64.kinetic, ref.kinetic, 1e-10 * std::abs(ref.kinetic));
        EXPECT_NEAR(d64.potential, ref.potential, 1e-10 * std::abs(ref.potential));
    }
}

TEST(NbodySimulation, NonFiniteBodiesAreReported) {
    auto bodies = makePreset(NbodyPreset::UniformCube, 100, 1);
    bodies[7].vel.y = std::nanf("");
    bodies[42].pos.x = INFINITY;
    NbodySimulation sim(context());
    sim.load(bodies);
    const auto d = sim.diagnostics();
    EXPECT_EQ(d.nonFiniteBodies, 2);
    EXPECT_EQ(d.firstNonFinite, 7);
    EXPECT_FALSE(d.finite());
    EXPECT_NE(d.message().find("body 7"), std::string::npos) << d.message();
}

TEST(NbodySimulation, StepTimingsComeFromProfilingEvents) {
    NbodySimulation sim(context());
    sim.load(makePreset(NbodyPreset::Plummer, 1024, 1));
    sim.step(3);
    const auto t = sim.lastStepTimings();
    EXPECT_EQ(t.steps, 3);
    EXPECT_EQ(t.bodies, 1024);
    ASSERT_GE(t.kernels.size(), 2u);
    int force = 0, kick = 0;
    for (const auto& k : t.kernels) {
        EXPECT_GT(k.ms, 0.0) << k.kernel;
        if (k.kernel == "force") force = k.launches;
        if (k.kernel == "kick-drift") kick = k.launches;
    }
    EXPECT_EQ(force, 4) << "three steps plus the initial a(x0)";
    EXPECT_EQ(kick, 3);
    EXPECT_GT(t.forceMs, 0.0);
    EXPECT_GT(t.interactionsPerSecond(), 0.0);
    EXPECT_NEAR(t.gflops(), t.interactionsPerSecond() * 20e-9, 1e-6);
}

TEST(NbodySimulation, PositionsBufferHoldsTheCurrentState) {
    NbodySimulation sim(context());
    sim.load(makePreset(NbodyPreset::Shell, 333, 2));
    for (auto precision : {NbodyPrecision::Float, NbodyPrecision::Double}) {
        if (precision == NbodyPrecision::Double && !sim.supportsFp64()) continue;
        sim.setPrecision(precision);
        sim.step(2);
        std::vector<Float4> pos(sim.bodyCount()), vel(sim.bodyCount());
        context().queue().enqueueReadBuffer(sim.positions(), CL_TRUE, 0, pos.size() * 16,
                                            pos.data());
        context().queue().enqueueReadBuffer(sim.velocities(), CL_TRUE, 0, vel.size() * 16,
                                            vel.data());
        const auto bodies = sim.readBodies();
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            ASSERT_EQ(pos[i], bodies[i].pos) << i;
            ASSERT_EQ(vel[i], bodies[i].vel) << i;
        }
    }
}

TEST(NbodySimulation, AutotunePicksAWorkingConfigAndLeavesTheStateAlone) {
    NbodySimulation sim(context());
    sim.load(makePreset(NbodyPreset::Plummer, 512, 4));
    sim.step(1);
    const auto before = sim.readBodies();
    const auto result = sim.autotune(NbodyVariant::Unrolled, 1.0);
    EXPECT_GT(result.candidates, 0);
    EXPECT_GT(result.bestMs, 0.0);
    EXPECT_EQ(result.best.variant, NbodyVariant::Unrolled);
    EXPECT_FALSE(result.log.empty());
    EXPECT_EQ(sim.readBodies(), before);
    sim.setKernelConfig({});  // all defaults: the tuned config for this device, variant and N
    EXPECT_EQ(sim.effectiveKernelConfig(), result.best);
}

TEST(NbodySimulation, AutoRunsTheFastestTunedVariantAndRepicksWhenNChanges) {
    EXPECT_EQ(parseVariant("auto"), NbodyVariant::Auto);
    const auto bodies = makePreset(NbodyPreset::Plummer, 300, 5);
    NbodySimulation sim(context());
    sim.setAutoTuneBudget(0.2);
    sim.setVariant(NbodyVariant::Auto);
    sim.load(bodies);
    const NbodyKernelConfig picked = sim.effectiveKernelConfig();
    EXPECT_NE(picked.variant, NbodyVariant::Auto);
    EXPECT_NE(picked.variant, NbodyVariant::Naive);
    EXPECT_NE(sim.autoChoice().find(describe(picked)), std::string::npos) << sim.autoChoice();
    EXPECT_NE(sim.autoChoice().find("N = 300"), std::string::npos) << sim.autoChoice();
    sim.step(2);

    // The same kernel chosen by hand computes the same thing, bit for bit.
    NbodySimulation fixed(context());
    fixed.setKernelConfig(picked);
    fixed.load(bodies);
    fixed.step(2);
    EXPECT_EQ(sim.readBodies(), fixed.readBodies());

    sim.load(makePreset(NbodyPreset::Plummer, 77, 5));
    EXPECT_NE(sim.effectiveKernelConfig().variant, NbodyVariant::Auto);
    EXPECT_NE(sim.autoChoice().find("N = 77"), std::string::npos) << sim.autoChoice();
    EXPECT_THROW(sim.autotune(NbodyVariant::Auto, 0.1), Error);
}

TEST(NbodySimulation, BadInputIsAClearError) {
    NbodySimulation sim(context());
    EXPECT_THROW(sim.load({}), Error);
    EXPECT_THROW(sim.setParams(params(0.0f, 0.05f)), Error);
    EXPECT_THROW(sim.setParams(params(0.01f, -1.0f)), Error);
    EXPECT_THROW(sim.setParams(params(0.01f, 0.05f, 1.5f)), Error);
    EXPECT_THROW(sim.autotune(NbodyVariant::Tiled), Error);  // nothing loaded
    sim.step(5);                                             // nothing loaded: a no-op, not a crash
    EXPECT_EQ(sim.stepsTaken(), 0);
    if (!sim.supportsFp64()) {
        EXPECT_THROW(sim.setPrecision(NbodyPrecision::Double), Error);
    }
}

namespace clviz {
namespace {

// Issue 27: the tree reported N^2 interactions and 20 flops each (60x an H200's peak), pairs 20
// flops for each of N^2 interactions although each pair is computed once. Rates now count what
// the kernels do: the tree its interaction lists, pairs N(N-1) interactions from N(N-1)/2 pairs.
TEST(NbodyRates, TheTreeCountsItsInteractionListsNotNSquared) {
    const std::size_t n = 3001;  // not a multiple of any group size
    NbodySimulation sim(context());
    sim.load(makePreset(NbodyPreset::Plummer, n, 3));
    NbodyParams p = sim.params();
    p.theta = 0.7f;
    sim.setParams(p);
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    sim.setKernelConfig(c);
    sim.step(2);
    const NbodyStepTimings t = sim.lastStepTimings();
    const double listPerBody = sim.treeWalkStats().interactionsPerBody;
    ASSERT_GT(listPerBody, 0);
    EXPECT_LT(listPerBody, double(n)) << "theta 0.7 opens fewer than N cells per body";
    EXPECT_FALSE(t.allPairs);
    EXPECT_STREQ(t.interactionsUnit(), "list interactions/s")
        << "the tree's rate says what it counts";
    EXPECT_DOUBLE_EQ(t.interactionsPerStep, listPerBody * double(n));
    EXPECT_LT(t.interactionsPerSecond(), t.equivalentInteractionsPerSecond());
    EXPECT_NEAR(t.gflops(), t.interactionsPerSecond() * 20e-9, 1e-9 * t.gflops());
    if (const double peak = estimatedPeakGflops(context().info()); peak > 0) {
        EXPECT_LE(t.gflops(), peak) << "above the device's peak";
    }
}

TEST(NbodyRates, PairsCountEachPairOnceAndAllPairsNSquared) {
    const long long n = 1000;
    NbodyStepTimings t;
    t.bodies = n;
    countNbodyWork(t, NbodyVariant::Pairs, false, 0);
    EXPECT_DOUBLE_EQ(t.interactionsPerStep, double(n) * double(n - 1));
    // 26 flops per pair evaluation: N(N-1)/2 of them.
    EXPECT_DOUBLE_EQ(t.interactionsPerStep * t.flopsPerInteraction, double(n) * (n - 1) / 2 * 26);
    countNbodyWork(t, NbodyVariant::Tiled, true, 0);
    EXPECT_DOUBLE_EQ(t.interactionsPerStep, double(n) * double(n));
    EXPECT_TRUE(t.fp64) << "fp64 runs are labelled fp64";
    EXPECT_TRUE(t.allPairs);
    EXPECT_STREQ(t.interactionsUnit(), "interactions/s");
    countNbodyWork(t, NbodyVariant::Tree, false, 37);
    EXPECT_STREQ(t.interactionsUnit(), "list interactions/s");
    countNbodyWork(t, NbodyVariant::Pairs, false, 0);
    EXPECT_STREQ(t.interactionsUnit(), "interactions/s") << "reset when the variant changes";
}

TEST(NbodyRates, EveryVariantStaysBelowTheDevicePeak) {
    const double peak = estimatedPeakGflops(context().info());
    if (peak <= 0) GTEST_SKIP() << "the device does not report its clock";
    for (NbodyVariant v : {NbodyVariant::Tiled, NbodyVariant::Pairs, NbodyVariant::Tree}) {
        NbodySimulation sim(context());
        sim.load(makePreset(NbodyPreset::Plummer, 2053, 5));
        NbodyKernelConfig c;
        c.variant = v;
        sim.setKernelConfig(c);
        sim.step(2);
        const NbodyStepTimings t = sim.lastStepTimings();
        EXPECT_GT(t.gflops(), 0) << variantName(v);
        EXPECT_LE(t.gflops(), peak) << variantName(v);
    }
}

}  // namespace
}  // namespace clviz
