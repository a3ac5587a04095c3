// Diagnostics that never wait (NbodySimulation::beginDiagnostics / pollDiagnostics): the tree's
// energy from the potential its walk computes, against the double reference; the all-pairs sum in
// slices over several polls, equal to the one-shot diagnostics() (to rounding); a stalled queue
// that polling does not wait for; the NaN census on both paths.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/support/device_context.hpp"

namespace clviz {
namespace {

using test::context;

// Polls until the figures are in (each poll moves the measurement one slice on).
NbodyDiagnostics pollUntilDone(NbodySimulation& sim, int* polls = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int count = 0;
    for (;;) {
        ++count;
        if (std::optional<NbodyDiagnostics> d = sim.pollDiagnostics()) {
            if (polls) *polls = count;
            EXPECT_FALSE(sim.diagnosticsInFlight());
            return *d;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            ADD_FAILURE() << "no diagnostics after 120 s";
            return {};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

NbodyParams paramsOf(NbodyPreset preset, float theta) {
    NbodyParams p;
    p.dt = presetInfo(preset).dt;
    p.softening = presetInfo(preset).softening;
    p.theta = theta;
    return p;
}

TEST(NbodyDiagnosticsInFlight, TreeEnergyMatchesTheReferenceForAwkwardN) {
    for (std::size_t n : {1, 2, 61, 257, 4099}) {
        NbodySimulation sim(context());
        const auto bodies = makePreset(NbodyPreset::Plummer, n, 21);
        sim.load(bodies);
        sim.setParams(paramsOf(NbodyPreset::Plummer, 0.5f));
        sim.setVariant(NbodyVariant::Tree);
        sim.step(3);
        const NbodyReferenceState state = NbodyReferenceState::from(sim.readBodies());
        const NbodyReferenceEnergy ref =
            referenceEnergy(state, presetInfo(NbodyPreset::Plummer).softening);

        sim.beginDiagnostics(1.0);
        EXPECT_TRUE(sim.diagnosticsInFlight());
        const NbodyDiagnostics d = pollUntilDone(sim);
        ASSERT_TRUE(d.finite()) << "n = " << n;
        EXPECT_NE(d.method.find("tree"), std::string::npos) << d.method;
        EXPECT_EQ(d.slices, 1);
        // The tree's accuracy, plus the float rounding of the self term each body's walk adds and
        // takes out again (m / eps, total mass 1).
        const double selfRounding = 1e-6 / presetInfo(NbodyPreset::Plummer).softening;
        EXPECT_NEAR(d.potential, ref.potential, 1e-3 * std::fabs(ref.potential) + selfRounding)
            << "n = " << n;
        EXPECT_NEAR(d.kinetic, ref.kinetic, 1e-5 * ref.kinetic + 1e-12) << "n = " << n;
        double p = 0;
        for (double c : ref.momentum)
            p += std::fabs(c);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(d.momentum[c], ref.momentum[c], 1e-5 * (p + ref.kinetic) + 1e-9);
    }
}

// One all-pairs measurement in several slices of j: kinetic energy, momentum and the NaN census
// are the one launch's to the last bit (computed once), the potential to rounding.
TEST(NbodyDiagnosticsInFlight, SlicedAllPairsEqualsTheOneShotSum) {
    std::vector<NbodyPrecision> precisions{NbodyPrecision::Float};
    if (NbodySimulation(context()).supportsFp64()) precisions.push_back(NbodyPrecision::Double);
    for (NbodyPrecision precision : precisions)
        for (std::size_t n : {1, 2, 257, 3001, 5003}) {
            NbodySimulation sim(context());
            sim.load(makePreset(NbodyPreset::CollidingGalaxies, n, 4));
            sim.setParams(paramsOf(NbodyPreset::CollidingGalaxies, 0.5f));
            sim.setVariant(NbodyVariant::Tiled);
            sim.setPrecision(precision);
            sim.step(2);
            const NbodyDiagnostics whole = sim.diagnostics();
            sim.beginDiagnostics(0.01);  // slices of one work-group after the first
            int polls = 0;
            const NbodyDiagnostics sliced = pollUntilDone(sim, &polls);
            const char* what = precision == NbodyPrecision::Double ? "fp64" : "float";
            EXPECT_EQ(sliced.kinetic, whole.kinetic) << what << " n = " << n;
            const double rounding = precision == NbodyPrecision::Double ? 1e-13 : 2e-6;
            EXPECT_NEAR(sliced.potential, whole.potential, rounding * std::fabs(whole.potential))
                << what << " n = " << n;
            for (int c = 0; c < 3; ++c)
                EXPECT_EQ(sliced.momentum[c], whole.momentum[c]) << what << " n = " << n;
            EXPECT_EQ(sliced.nonFiniteBodies, 0);
            EXPECT_EQ(sliced.initialEnergy, whole.initialEnergy);
            if (n == 1) {
                EXPECT_EQ(sliced.potential, 0.0);
            }
            if (n >= 3001) {
                EXPECT_GT(sliced.slices, 2) << what << " n = " << n << ": spread over polls";
                EXPECT_GE(polls, sliced.slices);
                EXPECT_NE(sliced.method.find("slices"), std::string::npos) << sliced.method;
                EXPECT_GT(sliced.ms, 0);
                EXPECT_LE(sliced.maxSliceMs, sliced.ms);
            }
        }
}

// Polling reads events only: with the queue held behind a user event, begin and poll return at
// once, and the figures come once the queue moves. The tree's force-error sample too.
TEST(NbodyDiagnosticsInFlight, PollingNeverWaitsForTheDevice) {
    for (NbodyVariant variant : {NbodyVariant::Tree, NbodyVariant::Tiled}) {
        NbodySimulation sim(context());
        sim.load(makePreset(NbodyPreset::Plummer, 3001, 2));
        sim.setVariant(variant);
        sim.step(1);
        const NbodyDiagnostics whole = sim.diagnostics();  // builds the kernels first
        sim.step(1);
        (void)sim.readBodies();  // the step is done: only the gate below holds the queue

        const bool tree = variant == NbodyVariant::Tree;
        const TreeAccuracy waited = tree ? sim.forceAccuracy(64) : TreeAccuracy{};
        cl::UserEvent gate(context().context());
        std::vector<cl::Event> waits{gate};
        context().queue().enqueueBarrierWithWaitList(&waits);
        auto polled = std::async(std::launch::async, [&] {
            sim.beginDiagnostics(0.01);
            EXPECT_EQ(sim.beginForceAccuracy(64), tree);
            int empty = 0;
            for (int i = 0; i < 5; ++i)
                empty += !sim.pollDiagnostics().has_value() && !sim.pollForceAccuracy();
            return empty;
        });
        const bool returned =
            polled.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
        gate.setStatus(CL_COMPLETE);  // releases the queue whatever happened
        ASSERT_TRUE(returned) << variantName(variant) << ": begin or poll waited for the device";
        EXPECT_EQ(polled.get(), 5) << "figures came back from a held queue";
        const NbodyDiagnostics d = pollUntilDone(sim);
        EXPECT_TRUE(d.finite());
        EXPECT_NEAR(d.total, whole.total, 1e-2 * std::fabs(whole.total)) << variantName(variant);
        if (!tree) continue;
        std::optional<TreeAccuracy> a;
        for (int i = 0; i < 100000 && !a; ++i) {
            a = sim.pollForceAccuracy();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        ASSERT_TRUE(a.has_value()) << "the force-error sample never came back";
        EXPECT_EQ(a->samples, waited.samples);  // the same bodies and state as the waited one
        EXPECT_EQ(a->median, waited.median);
        EXPECT_EQ(a->p99, waited.p99);
        EXPECT_FALSE(sim.pollForceAccuracy().has_value());  // read once
    }
}

TEST(NbodyDiagnosticsInFlight, NonFiniteBodiesAreCountedOnBothPaths) {
    for (NbodyVariant variant : {NbodyVariant::Tree, NbodyVariant::Tiled}) {
        auto bodies = makePreset(NbodyPreset::Plummer, 700, 3);
        bodies[411].vel.y = NAN;
        bodies[650].pos.x = INFINITY;
        NbodySimulation sim(context());
        sim.load(bodies);
        sim.setVariant(variant);
        sim.beginDiagnostics(0.01);
        const NbodyDiagnostics d = pollUntilDone(sim);
        EXPECT_EQ(d.nonFiniteBodies, 2) << variantName(variant);
        if (sim.renumbered()) {  // the first in the tree's order, by its load index
            EXPECT_TRUE(d.firstNonFinite == 411 || d.firstNonFinite == 650) << d.firstNonFinite;
        } else {
            EXPECT_EQ(d.firstNonFinite, 411) << variantName(variant);
        }
        EXPECT_FALSE(d.message().empty());
    }
}

}  // namespace
}  // namespace clviz
