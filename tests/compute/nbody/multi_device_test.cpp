// The N-body system split over two OpenCL devices in one process (PoCL's two CPU devices under
// CTest: POCL_DEVICES="pthread pthread") gives the one-device answer, step after step.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/device_timings.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/reference.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/two_devices.hpp"

namespace clviz {
namespace {

test::TwoDevices& devices() {
    return test::twoDevices();
}

class MultiDevice : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(devices().a) << "needs a platform with two devices: run under CTest, which "
                                    "sets POCL_DEVICES=\"pthread pthread\"";
    }
    ComputeContext& a() { return *devices().a; }
    ComputeContext& b() { return *devices().b; }
};

// The tree variant on one device and on the split, both loaded with `bodies`.
void loadTreeOnBoth(NbodySimulation& one, NbodyMultiDevice& many, const std::vector<Body>& bodies) {
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    one.setKernelConfig(c);
    many.setKernelConfig(c);
    one.load(bodies);
    many.load(bodies);
}

// How far a tree split's state after a step may be from one device's on `cc`'s device: the same
// bits where the walk adds in a fixed order (PoCL's CPU devices); elsewhere NVIDIA's walk varies
// the order of a list's sums from run to run (the bound of the step tests below).
double treeStateBound(const ComputeContext& cc) {
    return cc.info().kind == DeviceKind::Cpu ? 0 : 1e-4;
}

std::vector<Body> scene(std::size_t n) {
    return makePreset(NbodyPreset::Plummer, n, 7);
}

struct Case {
    std::size_t n;
    NbodyVariant variant;
    NbodyIntegrator integrator;
    std::vector<double> weights;  // empty: automatic balancing
};

void expectSameAsOneDevice(ComputeContext& a, ComputeContext& b, const Case& c, int steps = 6) {
    SCOPED_TRACE("N = " + std::to_string(c.n) + ", " + variantName(c.variant));
    const auto bodies = scene(c.n);
    NbodySimulation one(a);
    NbodyMultiDevice two({&a, &b});
    NbodyKernelConfig config;
    config.variant = c.variant;
    one.setKernelConfig(config);
    two.setKernelConfig(config);
    one.setIntegrator(c.integrator);
    two.setIntegrator(c.integrator);
    one.load(bodies);
    two.load(bodies);
    if (!c.weights.empty()) two.setWeights(c.weights);
    for (int s = 0; s < steps; ++s) {
        one.step(1);
        two.step(1);
        const double rel = worstSplitDifference(two.readBodies(), one.readBodies());
        ASSERT_LE(rel, 1e-5) << "step " << s << ", slices " << describeSlices(two.slices());
    }
    const NbodyDiagnostics d1 = one.diagnostics(), d2 = two.diagnostics();
    EXPECT_NEAR(d2.kinetic, d1.kinetic, 1e-5 * std::abs(d1.kinetic) + 1e-12);
    EXPECT_NEAR(d2.potential, d1.potential, 1e-5 * std::abs(d1.potential) + 1e-12);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(d2.momentum[k], d1.momentum[k], 1e-5 * (std::abs(d1.kinetic) + 1));
    EXPECT_EQ(d2.nonFiniteBodies, 0);
    EXPECT_EQ(two.stepsTaken(), steps);
}

TEST_F(MultiDevice, SameAnswerAsOneDeviceOnAwkwardSizes) {
    for (std::size_t n : {1u, 2u, 3u, 61u, 257u, 1031u})
        expectSameAsOneDevice(a(), b(), {n, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, {}});
}

TEST_F(MultiDevice, SameAnswerForEveryAllPairsVariantAndBothIntegrators) {
    for (NbodyVariant v : {NbodyVariant::Naive, NbodyVariant::Unrolled, NbodyVariant::Vectorized,
                           NbodyVariant::AsyncCopy, NbodyVariant::SmallN})
        expectSameAsOneDevice(a(), b(), {509, v, NbodyIntegrator::Leapfrog, {}}, 3);
    expectSameAsOneDevice(a(), b(), {509, NbodyVariant::Tiled, NbodyIntegrator::Taylor, {}});
}

TEST_F(MultiDevice, UnevenAndEmptySlices) {
    expectSameAsOneDevice(a(), b(), {211, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, {1, 5}});
    expectSameAsOneDevice(a(), b(), {211, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, {0, 1}});
    expectSameAsOneDevice(a(), b(), {1, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, {1, 1}});
}

// Moving the slice boundary mid-run moves velocities to the new owner: the trajectory goes on
// unchanged.
TEST_F(MultiDevice, ReSlicingMidRunKeepsTheTrajectory) {
    const auto bodies = scene(601);
    NbodySimulation one(a());
    NbodyMultiDevice two({&a(), &b()});
    one.load(bodies);
    two.load(bodies);
    for (const std::vector<double>& w : {std::vector<double>{1, 1}, {1, 4}, {4, 1}, {0, 1}}) {
        two.setWeights(w);
        one.step(2);
        two.step(2);
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), 1e-5)
            << describeSlices(two.slices());
    }
}

TEST_F(MultiDevice, DoublePrecisionSplitsToo) {
    if (!NbodySimulation(a()).supportsFp64()) GTEST_SKIP() << "no cl_khr_fp64";
    const auto bodies = scene(131);
    NbodySimulation one(a());
    NbodyMultiDevice two({&a(), &b()});
    one.setPrecision(NbodyPrecision::Double);
    two.setPrecision(NbodyPrecision::Double);
    one.load(bodies);
    two.load(bodies);
    two.setWeights({2, 1});
    one.step(4);
    two.step(4);
    EXPECT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), 1e-6);
    // Re-sliced with no step since: the state read back is still the whole, current one.
    two.setWeights({1, 2});
    EXPECT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), 1e-6);
}

TEST_F(MultiDevice, TimingsNameEveryDeviceAndItsShare) {
    NbodyMultiDevice two({&a(), &b()});
    two.load(scene(2048));
    two.setWeights({1, 3});
    two.step(3);
    const NbodyMultiTimings t = two.lastTimings();
    ASSERT_EQ(t.devices.size(), 2u);
    EXPECT_EQ(t.steps, 3);
    EXPECT_GT(t.stepMs, 0);
    EXPECT_NEAR(t.devices[0].share, 0.25, 1e-9);
    EXPECT_NEAR(t.devices[1].share, 0.75, 1e-9);
    for (const NbodyDeviceTimings& d : t.devices) {
        EXPECT_GT(d.computeMs, 0);
        EXPECT_GT(d.exchangeMs, 0);
        EXPECT_GE(d.waitMs, 0);
        EXPECT_FALSE(d.device.empty());
    }
}

double phaseMs(const NbodyDeviceTimings& d, const std::string& name) {
    for (const auto& [phase, ms] : d.phases)
        if (phase == name) return ms;
    return -1;  // absent
}

// The tree's breakdown names the replicated build apart from the domain walk; the phases of the
// kernels add up to the compute time.
TEST_F(MultiDevice, TimingsBreakTheTreeStepIntoPhases) {
    NbodyMultiDevice two({&a(), &b()});
    NbodyKernelConfig config;
    config.variant = NbodyVariant::Tree;
    two.setKernelConfig(config);
    two.load(scene(1500));
    two.step(2);
    const NbodyMultiTimings t = two.lastTimings();
    ASSERT_EQ(t.devices.size(), 2u);
    for (const NbodyDeviceTimings& d : t.devices) {
        EXPECT_GT(phaseMs(d, "tree build"), 0);
        EXPECT_GT(phaseMs(d, "tree walk"), 0);
        EXPECT_GT(phaseMs(d, "integrate"), 0);
        EXPECT_NEAR(phaseMs(d, "transfers"), d.exchangeMs, 1e-12);
        double kernels = 0;
        for (const char* k : {"tree build", "tree walk", "integrate", "force"})
            kernels += std::max(0.0, phaseMs(d, k));
        EXPECT_NEAR(kernels, d.computeMs, 1e-9 * (1 + d.computeMs));
    }
}

// The phases of the device table: returning a split's accelerations to the body order (with the
// closing kick) is integration, not the tree's build.
TEST(DeviceTimings, ScatterAndKickAreIntegrationNotTheBuild) {
    NbodyStepTimings t;
    t.steps = 2;
    t.kernels = {{"tree-sort", 4.0, 2},    {"tree-build", 2.0, 2}, {"tree-walk", 6.0, 2},
                 {"tree-scatter", 1.0, 2}, {"tree-kick", 0.5, 2},  {"kick-drift", 0.5, 2}};
    double build = 0, walk = 0, integrate = 0;
    for (const auto& [phase, ms] : kernelPhases(t)) {
        if (phase == "tree build") build += ms;
        if (phase == "tree walk") walk += ms;
        if (phase == "integrate") integrate += ms;
    }
    EXPECT_DOUBLE_EQ(build, 3.0);
    EXPECT_DOUBLE_EQ(walk, 3.0);
    EXPECT_DOUBLE_EQ(integrate, 1.0);
}

// With automatic balancing on, a device given almost nothing at first ends up with a fair share
// after a few calls (both devices are equally fast).
TEST_F(MultiDevice, AutomaticBalancingEvensOutAStartingImbalance) {
    // Enough bodies that each device's force time grows with its share: on a GPU a force pass
    // over a few thousand bodies takes its launch's time whatever the share, so the measured
    // speeds said device 1 was 15 times faster and nothing moved (two H200s, sessions 12, 13).
    const std::size_t n = a().info().kind == DeviceKind::Cpu ? 4096 : 131072;
    NbodyMultiDevice two({&a(), &b()});
    two.load(scene(n));
    two.setWeights({1, 15});
    two.setAutoBalance(true);
    // The balancer waits for 20 ms of force time on every device: device 0's 1/16 takes a while
    // to add up to that, so the bound is wall time. Two PoCL devices share the CPU, so one
    // re-balance measured while other work runs can land short: it is the re-balances together
    // that must even it out.
    const auto start = std::chrono::steady_clock::now();
    while (two.slices()[0].count <= n / 5 &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
        two.step(16);
    EXPECT_GE(two.lastTimings().rebalances, 1);
    EXPECT_GT(two.slices()[0].count, n / 5) << describeSlices(two.slices());
}

TEST_F(MultiDevice, NothingLoadedIsHarmless) {
    NbodyMultiDevice two({&a(), &b()});
    two.step(3);
    EXPECT_TRUE(two.readBodies().empty());
    EXPECT_TRUE(two.readAccelerations().empty());
    EXPECT_EQ(two.diagnostics().total, 0);
    EXPECT_EQ(two.lastTimings().steps, 0);
    EXPECT_THROW(two.setWeights({1}), Error);  // one weight for two devices
    EXPECT_THROW(NbodyMultiDevice({}), Error);
}

// Pairs and the tree over two devices: each adds its share's part to every body's acceleration
// (shared_forces_test.cpp checks the parts). The tree gives one device's state exactly, step
// after step, through uneven, empty and changing slices; pairs within float rounding (which
// grows with the steps as trajectories separate: 1e-4 relative after 6 steps of a Plummer
// sphere).
struct SharedCase {
    std::size_t n;
    NbodyVariant variant;
    NbodyIntegrator integrator;
    std::vector<double> weights;            // empty: automatic balancing
    std::vector<double> laterWeights = {};  // re-sliced to these after 3 steps
    int walkPieces = 0;                     // the tree's walk pieces per device (0: default)
    NbodyTreeIntegration integration = NbodyTreeIntegration::Auto;  // the tree's integration
    bool halving = false;     // the walk pieces halve (cutIntoPieces)
    bool splitBuild = false;  // the tree's split build (local essential trees)
};

void expectSharedSameAsOneDevice(ComputeContext& a, ComputeContext& b, const SharedCase& c) {
    SCOPED_TRACE("N = " + std::to_string(c.n) + ", " + variantName(c.variant) +
                 (c.integrator == NbodyIntegrator::Leapfrog ? ", leapfrog" : ", Taylor"));
    const auto bodies = scene(c.n);
    NbodySimulation one(a);
    NbodyMultiDevice two({&a, &b});
    if (c.walkPieces) two.setTreeWalkPieces(c.walkPieces);
    two.setTreeIntegration(c.integration);
    two.setTreeWalkHalving(c.halving);
    two.setTreeSplitBuild(c.splitBuild);
    NbodyKernelConfig config;
    config.variant = c.variant;
    if (c.variant == NbodyVariant::Pairs) config.workGroupSize = 16, config.bodiesPerItem = 2;
    one.setKernelConfig(config);
    two.setKernelConfig(config);
    one.setIntegrator(c.integrator);
    two.setIntegrator(c.integrator);
    one.load(bodies);
    two.load(bodies);
    if (!c.weights.empty()) two.setWeights(c.weights);
    // The tree: the same bits where the devices add in a fixed order (PoCL); NVIDIA's walk varies
    // the order of a list's sums from run to run (tree_test.cpp), by 3.4e-8 of a body's
    // acceleration at N = 1,001 on two H100s (2026-11-27).
    // Over six steps that spread grows through the orbits: the state after a step differed from
    // one device's by more than 1e-5 in 1 of 24 runs of these tests, before session 17's changes
    // and after alike (1.4e-5 and 1.1e-5; 4 x H200, 2026-11-27), hence 1e-4 for the steps there.
    const bool fixedOrder = a.info().kind == DeviceKind::Cpu && b.info().kind == DeviceKind::Cpu;
    const double treeTolerance = fixedOrder ? 0 : 1e-5;
    const double tolerance = c.variant == NbodyVariant::Tree ? (fixedOrder ? 0 : 1e-4) : 1e-4;
    // Before any step: the summed accelerations of the first force pass.
    const auto a1 = one.readAccelerations(), a2 = two.readAccelerations();
    for (std::size_t i = 0; i < c.n; ++i) {
        const double scale = std::abs(a1[i].x) + std::abs(a1[i].y) + std::abs(a1[i].z) + 1e-30;
        const double diff =
            std::abs(a1[i].x - a2[i].x) + std::abs(a1[i].y - a2[i].y) + std::abs(a1[i].z - a2[i].z);
        ASSERT_LE(diff, (c.variant == NbodyVariant::Tree ? treeTolerance : 1e-5) * scale)
            << "body " << i;
    }
    for (int s = 0; s < 6; ++s) {
        if (s == 3 && !c.laterWeights.empty()) two.setWeights(c.laterWeights);
        one.step(1);
        two.step(1);
        const double rel = worstSplitDifference(two.readBodies(), one.readBodies());
        ASSERT_LE(rel, tolerance) << "step " << s << ", slices " << describeSlices(two.slices());
        if (c.integration == NbodyTreeIntegration::Replicated) {
            // Every device moved every body: each holds the whole state, bit for bit.
            ASSERT_TRUE(two.treeIntegrationChoice().replicated) << two.treeIntegrationChoice().why;
            ASSERT_EQ(two.bodiesDifferingBetweenDevices(), 0u) << "step " << s;
            ASSERT_EQ(worstSplitDifference(two.device(1).readBodies(), one.readBodies()), 0)
                << "device 1's own state, step " << s;
        }
    }
    if (c.splitBuild && c.variant == NbodyVariant::Tree && two.slices()[0].count &&
        two.slices()[1].count) {  // the last pass built the domains apart
        EXPECT_TRUE(two.device(0).splitTree().domainBuilt());
        EXPECT_TRUE(two.device(1).splitTree().domainBuilt());
    }
    if (c.splitBuild && c.variant == NbodyVariant::Tree && two.slices()[0].count &&
        two.slices()[1].count) {  // the last pass built the domains apart
        EXPECT_TRUE(two.device(0).splitTree().domainBuilt());
        EXPECT_TRUE(two.device(1).splitTree().domainBuilt());
    }
    const NbodyDiagnostics d1 = one.diagnostics(), d2 = two.diagnostics();
    EXPECT_NEAR(d2.kinetic, d1.kinetic, 1e-4 * std::abs(d1.kinetic) + 1e-12);
    if (c.variant == NbodyVariant::Tree) {  // the same state: the owned sums add up the same
        EXPECT_NEAR(d2.potential, d1.potential, 1e-5 * std::abs(d1.potential) + 1e-12);
    }
    EXPECT_EQ(two.stepsTaken(), 6);
}

TEST_F(MultiDevice, TreeOnTwoDevicesGivesTheOneDeviceStateExactly) {
    for (std::size_t n : {1u, 2u, 3u, 61u, 257u})
        expectSharedSameAsOneDevice(a(), b(),
                                    {n, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {}});
    expectSharedSameAsOneDevice(a(), b(),
                                {301, NbodyVariant::Tree, NbodyIntegrator::Taylor, {1, 3}});
    expectSharedSameAsOneDevice(
        a(), b(), {211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {0, 1}, {3, 1}});
    expectSharedSameAsOneDevice(a(), b(),
                                {211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {1, 0}});
}

// The tree's domains walked whole before the exchange (1 piece) and in pieces passed on while the
// next is walked (more pieces than bodies too): the one-device state exactly, step after step.
TEST_F(MultiDevice, TreeWalkedInPiecesGivesTheOneDeviceStateExactly) {
    // 4 (halving: 1/2, 1/4, 1/8, 1/8) is the default: replicated devices scatter and kick all but
    // the last pieces in one launch a domain, then the last pieces.
    for (int pieces : {1, 2, 4, 7})
        for (std::size_t n : {1u, 3u, 257u}) {
            SCOPED_TRACE(std::to_string(pieces) + " walk pieces");
            expectSharedSameAsOneDevice(
                a(), b(), {n, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {}, {}, pieces});
        }
    expectSharedSameAsOneDevice(
        a(), b(), {211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {0, 1}, {3, 1}, 5});
    expectSharedSameAsOneDevice(a(), b(),
                                {301, NbodyVariant::Tree, NbodyIntegrator::Taylor, {1, 3}, {}, 3});
    NbodyMultiDevice two({&a(), &b()});
    EXPECT_THROW(two.setTreeWalkPieces(0), Error);
    EXPECT_THROW(two.setTreeWalkPieces(NbodyMultiDevice::kMostWalkPieces + 1), Error);
    EXPECT_EQ(two.treeWalkPieces(), NbodyMultiDevice::kDefaultWalkPieces);
}

// The split build (each device computes its own domain's cells, the devices exchange the roots
// and local essential trees): the one-device state exactly, through uneven, empty and changing
// slices, one piece or several, both integrations and integrators.
TEST_F(MultiDevice, TreeSplitBuildGivesTheOneDeviceStateExactly) {
    for (int pieces : {1, 3, 4})
        for (std::size_t n : {1u, 2u, 3u, 257u, 1001u}) {
            SCOPED_TRACE(std::to_string(pieces) + " walk pieces, split build");
            SharedCase c{n, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {}, {}, pieces};
            c.splitBuild = true;
            expectSharedSameAsOneDevice(a(), b(), c);
        }
    for (NbodyTreeIntegration mode :
         {NbodyTreeIntegration::Replicated, NbodyTreeIntegration::Owners}) {
        SharedCase c{211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {0, 1}, {3, 1}, 2, mode};
        c.splitBuild = true;
        expectSharedSameAsOneDevice(a(), b(), c);
        SharedCase t{301, NbodyVariant::Tree, NbodyIntegrator::Taylor, {1, 3}, {2, 1}, 1, mode};
        t.splitBuild = true;
        expectSharedSameAsOneDevice(a(), b(), t);
    }
    NbodyMultiDevice two({&a(), &b()});
    EXPECT_FALSE(two.treeSplitBuild());
    two.setTreeSplitBuild(true);
    EXPECT_TRUE(two.treeSplitBuild());
}

// The tree's replicated integration (every device kicks and drifts every body, no position
// exchange): the one-device state exactly and the same state on both devices, step after step,
// through uneven, empty and changing slices, both integrators and several walk pieces; the
// owners' integration (the fallback) on the same cases.
TEST_F(MultiDevice, TreeReplicatedIntegrationGivesTheOneDeviceStateOnEveryDevice) {
    for (NbodyTreeIntegration mode :
         {NbodyTreeIntegration::Replicated, NbodyTreeIntegration::Owners}) {
        SCOPED_TRACE(treeIntegrationName(mode));
        for (std::size_t n : {1u, 2u, 61u, 257u})
            expectSharedSameAsOneDevice(
                a(), b(), {n, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {}, {}, 0, mode});
        for (int pieces : {1, 3})
            expectSharedSameAsOneDevice(
                a(), b(),
                {211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {0, 1}, {3, 1}, pieces, mode});
        expectSharedSameAsOneDevice(
            a(), b(),
            {211, NbodyVariant::Tree, NbodyIntegrator::Leapfrog, {1, 0}, {1, 4}, 2, mode});
        expectSharedSameAsOneDevice(
            a(), b(), {301, NbodyVariant::Tree, NbodyIntegrator::Taylor, {1, 3}, {2, 1}, 5, mode});
        for (int pieces : {2, 4, 9})  // halving pieces: 9 of 105 bodies leaves some empty
            expectSharedSameAsOneDevice(a(), b(),
                                        {211,
                                         NbodyVariant::Tree,
                                         NbodyIntegrator::Leapfrog,
                                         {1, 1},
                                         {1, 3},
                                         pieces,
                                         mode,
                                         true});
    }
}

// Re-slicing after the tree's replicated steps keeps every device's forces (each holds every
// body's), so the next step runs no extra force pass and is still one device's, and a device
// that then owns every body still gives the whole potential; pairs hold only their own slice's
// sums, so re-slicing them asks for a new pass.
TEST_F(MultiDevice, ReSlicingTheReplicatedTreeKeepsTheForces) {
    test::TwoDevices fresh;  // fresh contexts: the same programs built on both
    ASSERT_TRUE(fresh.b);
    const auto bodies = scene(301);
    NbodySimulation one(a());
    NbodyMultiDevice two({fresh.a.get(), fresh.b.get()});
    loadTreeOnBoth(one, two, bodies);
    for (const std::vector<double>& w : {std::vector<double>{1, 1}, {1, 3}, {3, 1}}) {
        two.setWeights(w);
        if (w != std::vector<double>{1, 1}) {
            EXPECT_TRUE(two.device(0).accelerationsCurrent()) << describeSlices(two.slices());
            EXPECT_TRUE(two.device(1).accelerationsCurrent()) << describeSlices(two.slices());
        }
        one.step(2);
        two.step(2);
        ASSERT_TRUE(two.treeIntegrationChoice().replicated) << two.treeIntegrationChoice().why;
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), treeStateBound(a()))
            << describeSlices(two.slices());
    }
    // Every body on device 0, its forces kept: their potential came without the bodies device 1
    // walked (packed slices), so the diagnostics that never wait sum it pair by pair.
    two.setWeights({1, 0});
    ASSERT_TRUE(two.device(0).accelerationsCurrent());
    two.device(0).beginDiagnostics(1.0);
    std::optional<NbodyDiagnostics> polled;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!polled && std::chrono::steady_clock::now() < deadline) {
        polled = two.device(0).pollDiagnostics();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(polled);
    const NbodyDiagnostics blocking = one.diagnostics();
    EXPECT_NEAR(polled->potential, blocking.potential, 2e-3 * std::abs(blocking.potential));
    NbodyKernelConfig pairs;
    pairs.variant = NbodyVariant::Pairs;
    two.setKernelConfig(pairs);
    two.step(1);
    two.setWeights({1, 1});
    EXPECT_FALSE(two.device(0).accelerationsCurrent());
    EXPECT_FALSE(two.device(1).accelerationsCurrent());
}

// Switching between the integrations mid-run (owners leave the others' velocities stale, which
// the switch to replicated must repair) and from another variant to the tree: still one device's
// state exactly.
TEST_F(MultiDevice, TreeIntegrationSwitchesMidRunKeepTheOneDeviceState) {
    const auto bodies = scene(193);
    NbodySimulation one(a());
    NbodyMultiDevice two({&a(), &b()});
    two.setWeights({1, 2});
    loadTreeOnBoth(one, two, bodies);
    for (NbodyTreeIntegration mode :
         {NbodyTreeIntegration::Owners, NbodyTreeIntegration::Replicated,
          NbodyTreeIntegration::Owners, NbodyTreeIntegration::Auto}) {
        SCOPED_TRACE(treeIntegrationName(mode));
        two.setTreeIntegration(mode);
        one.step(2);
        two.step(2);
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), treeStateBound(a()));
        EXPECT_EQ(two.treeIntegrationChoice().replicated, mode != NbodyTreeIntegration::Owners)
            << two.treeIntegrationChoice().why;
        if (mode == NbodyTreeIntegration::Owners) {  // the others' velocities are stale
            EXPECT_GT(two.bodiesDifferingBetweenDevices(), 0u);
        } else {
            EXPECT_EQ(two.bodiesDifferingBetweenDevices(), 0u);
        }
    }
    // Another variant (owners only), then the tree again, replicated.
    NbodySimulation oneB(a());
    NbodyMultiDevice twoB({&a(), &b()});
    twoB.setWeights({2, 1});
    oneB.load(bodies);
    twoB.load(bodies);
    for (NbodyVariant v : {NbodyVariant::Tiled, NbodyVariant::Tree}) {
        NbodyKernelConfig c;
        c.variant = v;
        oneB.setKernelConfig(c);
        twoB.setKernelConfig(c);
        oneB.step(2);
        twoB.step(2);
        ASSERT_LE(worstSplitDifference(twoB.readBodies(), oneB.readBodies()), 1e-5)
            << variantName(v);
        EXPECT_EQ(twoB.treeIntegrationChoice().replicated, v == NbodyVariant::Tree);
    }
    EXPECT_EQ(twoB.bodiesDifferingBetweenDevices(), 0u);
}

// Devices whose integration programs differ (one built the update with other options, as a kernel
// reloaded on one device would): auto falls back to the owners and stays one device's state;
// replicated is refused with the reason.
TEST_F(MultiDevice, TreeIntegrationFallsBackToOwnersWhenTheDevicesDiffer) {
    test::TwoDevices mixed;  // fresh contexts: the shared ones keep their programs
    ASSERT_TRUE(mixed.b);
    mixed.b->programs().get("nbody_integrate.cl", "-DCLVIZ_TEST_OTHER_BUILD=1");
    const auto bodies = scene(157);
    NbodySimulation one(a());
    NbodyMultiDevice two({mixed.a.get(), mixed.b.get()});
    loadTreeOnBoth(one, two, bodies);
    two.setWeights({1, 1});
    try {
        two.setTreeIntegration(NbodyTreeIntegration::Replicated);
        FAIL() << "replicated accepted on devices that differ";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("integration programs"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(two.treeIntegration(), NbodyTreeIntegration::Auto);
    for (int s = 0; s < 3; ++s) {
        one.step(1);
        two.step(1);
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), treeStateBound(a()))
            << "step " << s;
    }
    EXPECT_FALSE(two.treeIntegrationChoice().replicated);
    EXPECT_NE(two.lastTimings().integration.find("owners: device 1 differs"), std::string::npos)
        << two.lastTimings().integration;
}

TEST_F(MultiDevice, PairsOnTwoDevicesStaysWithinRoundingOfOneDevice) {
    for (std::size_t n : {1u, 2u, 3u, 61u, 257u})
        expectSharedSameAsOneDevice(a(), b(),
                                    {n, NbodyVariant::Pairs, NbodyIntegrator::Leapfrog, {}});
    expectSharedSameAsOneDevice(a(), b(),
                                {301, NbodyVariant::Pairs, NbodyIntegrator::Taylor, {1, 3}});
    expectSharedSameAsOneDevice(
        a(), b(), {211, NbodyVariant::Pairs, NbodyIntegrator::Leapfrog, {0, 1}, {3, 1}});
    expectSharedSameAsOneDevice(a(), b(),
                                {211, NbodyVariant::Pairs, NbodyIntegrator::Leapfrog, {1, 0}});
}

TEST_F(MultiDevice, SharedForcesFollowAVariantChangeMidRun) {
    const auto bodies = scene(157);
    NbodySimulation one(a());
    NbodyMultiDevice two({&a(), &b()});
    two.setWeights({2, 1});
    one.load(bodies);
    two.load(bodies);
    NbodyKernelConfig c;
    for (NbodyVariant v : {NbodyVariant::Tiled, NbodyVariant::Tree, NbodyVariant::Tiled}) {
        c.variant = v;
        one.setKernelConfig(c);
        two.setKernelConfig(c);
        one.step(2);
        two.step(2);
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), 1e-5) << variantName(v);
    }
}

TEST_F(MultiDevice, PairsAndTheTreeStayFloatOnlyWhenSplit) {
    NbodyMultiDevice two({&a(), &b()});
    two.setPrecision(NbodyPrecision::Double);
    for (NbodyVariant v : {NbodyVariant::Pairs, NbodyVariant::Tree}) {
        NbodyKernelConfig c;
        c.variant = v;
        try {
            two.setKernelConfig(c);
            FAIL() << variantName(v) << " was accepted in fp64";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("float only"), std::string::npos) << e.what();
        }
    }
}

// Three devices (the second context on PoCL's first device is a device of its own to clviz): two
// threads besides the caller enqueue their devices' steps at once, and every device's commands
// still run in their order: the one-device state exactly, on every device, step after step.
TEST_F(MultiDevice, TreeOnThreeDevicesEnqueuedAtOnceGivesTheOneDeviceState) {
    test::TwoDevices fresh;  // fresh contexts: the same programs built on all three
    ASSERT_TRUE(fresh.b);
    const DeviceChoice first = fresh.a->choice();
    ComputeContext third(queryPlatforms(), DeviceChoice{first.platform, first.device, "test"});
    const auto bodies = scene(263);
    NbodySimulation one(a());
    NbodyMultiDevice three({fresh.a.get(), fresh.b.get(), &third});
    three.setTreeWalkPieces(3);
    loadTreeOnBoth(one, three, bodies);
    three.setWeights({2, 1, 1});
    for (int s = 0; s < 5; ++s) {
        if (s == 2) three.setAutoBalance(true);
        one.step(1);
        three.step(1);
        ASSERT_LE(worstSplitDifference(three.readBodies(), one.readBodies()), treeStateBound(a()))
            << "step " << s;
        ASSERT_TRUE(three.treeIntegrationChoice().replicated) << three.treeIntegrationChoice().why;
        ASSERT_EQ(three.bodiesDifferingBetweenDevices(), 0u) << "step " << s;
    }
    const NbodyMultiTimings t = three.lastTimings();
    ASSERT_EQ(t.devices.size(), 3u);
    for (const NbodyDeviceTimings& d : t.devices) {
        const auto enqueue = std::find_if(d.phases.begin(), d.phases.end(), [](const auto& phase) {
            return phase.first == "host enqueue";
        });
        ASSERT_NE(enqueue, d.phases.end()) << d.device;
        EXPECT_GT(enqueue->second, 0) << d.device;
    }
}

// More domains than one gather can leave out (TreeForce::kMostGatherSkips): a replicated split
// of nine contexts on one device gathers every body only once every slice is in, and still moves
// the bodies as one device does, bit for bit.
TEST_F(MultiDevice, TreeSplitOverMoreDomainsThanAGatherLeavesOutGivesTheOneDeviceState) {
    const DeviceChoice first = a().choice();
    std::vector<std::unique_ptr<ComputeContext>> contexts;
    std::vector<ComputeContext*> devices;
    for (std::size_t d = 0; d <= TreeForce::kMostGatherSkips; ++d) {
        contexts.push_back(std::make_unique<ComputeContext>(
            queryPlatforms(), DeviceChoice{first.platform, first.device, "test"}));
        devices.push_back(contexts.back().get());
    }
    const auto bodies = scene(401);
    NbodySimulation one(a());
    NbodyMultiDevice many(devices);
    many.setTreeSplitBuild(true);
    loadTreeOnBoth(one, many, bodies);
    for (int s = 0; s < 3; ++s) {
        one.step(1);
        many.step(1);
        ASSERT_LE(worstSplitDifference(many.readBodies(), one.readBodies()), treeStateBound(a()))
            << "step " << s;
        ASSERT_TRUE(many.treeIntegrationChoice().replicated) << many.treeIntegrationChoice().why;
        ASSERT_EQ(many.bodiesDifferingBetweenDevices(), 0u) << "step " << s;
    }
    EXPECT_TRUE(many.device(0).splitTree().domainBuilt());
}

// A device whose commands fail while the others' threads enqueue theirs: the failure comes back
// to the caller naming that device, after every device's thread has returned (nothing left
// running), and the system runs on once the cause is gone. The failure here: device 1 must build
// the tree's program from a broken kernels/nbody_tree.cl, while device 0 has it built already.
TEST_F(MultiDevice, AFailureOnOneDeviceComesBackNamingIt) {
    test::TwoDevices fresh;  // contexts whose program caches only this test fills
    ASSERT_TRUE(fresh.b);
    const auto bodies = scene(157);
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    NbodySimulation one(*fresh.a);  // builds the tree's programs on device 0 only
    one.setKernelConfig(c);
    one.load(bodies);
    one.step(1);
    NbodyMultiDevice two({fresh.a.get(), fresh.b.get()});
    two.setKernelConfig(c);
    two.load(bodies);

    test::TempDir dir;
    std::ofstream(dir.file("nbody_tree.cl")) << "kernel void broken( {\n";
    struct KernelDir {
        explicit KernelDir(const std::string& d) { setKernelDirectory(d); }
        ~KernelDir() { setKernelDirectory(""); }
    };
    {
        KernelDir broken(dir.path().string());
        try {
            two.step(1);
            FAIL() << "device 1's failure was lost";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind("device 1 (" + fresh.b->info().name + "): ", 0), 0u) << what;
            EXPECT_NE(what.find("nbody_tree.cl"), std::string::npos) << what;
            EXPECT_EQ(what.find("device 0"), std::string::npos) << what;
        }
    }
    two.load(bodies);
    one.load(bodies);
    for (int s = 0; s < 3; ++s) {
        one.step(1);
        two.step(1);
        ASSERT_LE(worstSplitDifference(two.readBodies(), one.readBodies()), treeStateBound(a()))
            << "step " << s;
    }
}

}  // namespace
}  // namespace clviz
