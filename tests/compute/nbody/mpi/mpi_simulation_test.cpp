// The N-body system across MPI ranks gives the one-device answer. Run by CTest under
// `mpirun -np 2`: every rank runs every test in the same order (each call is collective); rank 0
// also runs the one-device simulation the split is compared with. Any rank's failure fails the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/mpi/host_window.hpp"
#include "compute/nbody/mpi/mpi_simulation.hpp"
#include "compute/nbody/reference.hpp"

namespace clviz {
namespace {

MpiSession* session = nullptr;

ComputeContext& context() {
    static std::unique_ptr<ComputeContext> cc = [] {
        const auto platforms = queryPlatforms();
        return std::make_unique<ComputeContext>(
            platforms, deviceForRank(platforms, DeviceRequest{}, session->localRank()));
    }();
    return *cc;
}

struct Case {
    Case(std::size_t n, NbodyVariant v = NbodyVariant::Tiled,
         NbodyIntegrator i = NbodyIntegrator::Leapfrog, NbodyPrecision p = NbodyPrecision::Float,
         std::vector<double> w = {}, MpiExchange e = MpiExchange::Auto,
         NbodyTreeIntegration t = NbodyTreeIntegration::Auto)
        : n(n),
          variant(v),
          integrator(i),
          precision(p),
          weights(std::move(w)),
          exchange(e),
          integration(t) {}
    std::size_t n;
    NbodyVariant variant;
    NbodyIntegrator integrator;
    NbodyPrecision precision;
    std::vector<double> weights;       // empty: equal slices, automatic balancing
    MpiExchange exchange;              // Auto: the window here (every rank on this host)
    NbodyTreeIntegration integration;  // the split tree's (Auto: replicated, identical ranks)
};

// Whether every rank's own state (positions and velocities of every body) has the same bits as
// rank 0's; collective.
bool everyRankHoldsTheSameState(NbodySimulation& local) {
    const std::vector<Body> mine = local.readBodies();
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the bytes
    const auto* bytes = reinterpret_cast<const unsigned char*>(mine.data());
    for (std::size_t i = 0; i < mine.size() * sizeof(Body); ++i)
        h = (h ^ bytes[i]) * 1099511628211ull;
    std::vector<std::uint64_t> all(static_cast<std::size_t>(session->size()));
    MPI_Allgather(&h, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, session->comm());
    return std::all_of(all.begin(), all.end(), [&](std::uint64_t x) { return x == all[0]; });
}

// The case's weights for this run's ranks (CTest runs this test with 1, 2 and 3 ranks): repeated
// over the ranks ({1, 5} on 3 ranks: {1, 5, 1}); one rank takes everything.
std::vector<double> weightsForEveryRank(const std::vector<double>& w) {
    const std::size_t ranks = static_cast<std::size_t>(session->size());
    if (ranks == 1) return {1.0};
    std::vector<double> out;
    for (std::size_t r = 0; r < ranks; ++r)
        out.push_back(w[r % w.size()]);
    return out;
}

// Steps the split and (on rank 0) one device side by side; compares after every step.
void expectSameAsOneDevice(const Case& c, int steps = 5) {
    SCOPED_TRACE("N = " + std::to_string(c.n) + ", " + variantName(c.variant) + ", exchange " +
                 mpiExchangeName(c.exchange) + ", tree integration " +
                 treeIntegrationName(c.integration));
    const bool lead = session->rank() == 0;
    const auto bodies = makePreset(NbodyPreset::Plummer, c.n, 3);
    DeadlineCollectives mpi(*session, 60);
    NbodyMpiSimulation split(context(), *session, mpi);
    split.setExchange(c.exchange);
    split.setTreeIntegration(c.integration);
    std::unique_ptr<NbodySimulation> one;
    if (lead) one = std::make_unique<NbodySimulation>(context());
    NbodyKernelConfig config;
    config.variant = c.variant;
    // Pairs: 32-body blocks, so that even small N has blocks on both ranks.
    if (c.variant == NbodyVariant::Pairs) config.workGroupSize = 16, config.bodiesPerItem = 2;
    split.setKernelConfig(config);
    split.setIntegrator(c.integrator);
    split.setPrecision(c.precision);
    split.load(lead ? bodies : std::vector<Body>{});
    if (!c.weights.empty()) split.setWeights(weightsForEveryRank(c.weights));
    if (lead) {
        one->setKernelConfig(config);
        one->setIntegrator(c.integrator);
        one->setPrecision(c.precision);
        one->load(bodies);
    }
    // The tree sums one rank's walk and the other ranks' zeros: exactly one device's state.
    // Pairs: float rounding (docs/scaling.md), grown by the steps as trajectories separate.
    const double limit = c.variant == NbodyVariant::Tree         ? 0
                         : c.variant == NbodyVariant::Pairs      ? 1e-4
                         : c.precision == NbodyPrecision::Double ? 1e-6
                                                                 : 1e-5;
    // The first force pass, gathered to rank 0: one device's bit for bit but for pairs.
    const std::vector<Float4> acc = split.gatherAccelerations();
    if (lead && c.variant != NbodyVariant::Pairs) {
        const std::vector<Float4> want = one->readAccelerations();
        EXPECT_EQ(acc.size(), want.size());
        EXPECT_TRUE(acc.size() == want.size() &&
                    std::memcmp(acc.data(), want.data(), acc.size() * sizeof(Float4)) == 0)
            << "the gathered accelerations differ from one device's";
    }
    for (int s = 0; s < steps; ++s) {
        split.step(1);
        if (c.variant == NbodyVariant::Tree && session->size() > 1) {
            // Replicated: no position exchange, and every rank holds the whole state itself.
            const bool replicated = c.integration != NbodyTreeIntegration::Owners;
            EXPECT_EQ(split.treeIntegrationChoice().replicated, replicated)
                << split.treeIntegrationChoice().why;
            const bool same = everyRankHoldsTheSameState(split.local());
            if (replicated) {
                EXPECT_TRUE(same) << "step " << s << ": the ranks' states differ";
            }
        }
        const auto gathered = split.readBodies();
        if (!lead) continue;
        one->step(1);
        // EXPECT, never ASSERT: returning early would leave the other ranks in a collective.
        if (gathered.size() != c.n) {
            ADD_FAILURE() << "gathered " << gathered.size() << " bodies of " << c.n;
            continue;
        }
        EXPECT_LE(worstSplitDifference(gathered, one->readBodies()), limit)
            << "step " << s << ", slices " << describeSlices(split.slices());
    }
    const NbodyDiagnostics d = split.diagnostics();  // collective: every rank gets the same
    if (lead) {
        const NbodyDiagnostics d1 = one->diagnostics();
        EXPECT_NEAR(d.kinetic, d1.kinetic, 1e-5 * std::abs(d1.kinetic) + 1e-12);
        EXPECT_NEAR(d.potential, d1.potential, 1e-5 * std::abs(d1.potential) + 1e-12);
        EXPECT_EQ(d.nonFiniteBodies, 0);
    }
    EXPECT_EQ(split.stepsTaken(), steps);
}

TEST(MpiSplit, SameAnswerAsOneDeviceOnAwkwardSizes) {
    // N = 1 leaves a rank with nothing; 3 and the primes split unevenly.
    for (std::size_t n : {1u, 2u, 3u, 257u, 1031u})
        expectSameAsOneDevice({n});
}

TEST(MpiSplit, OtherVariantsIntegratorsAndPrecision) {
    expectSameAsOneDevice({509, NbodyVariant::Vectorized});
    expectSameAsOneDevice({509, NbodyVariant::SmallN});
    expectSameAsOneDevice({509, NbodyVariant::Tiled, NbodyIntegrator::Taylor});
    if (NbodySimulation(context()).supportsFp64())
        expectSameAsOneDevice(
            {131, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, NbodyPrecision::Double});
}

// Uneven and empty slices, and re-slicing moves the velocities between ranks.
TEST(MpiSplit, FixedUnevenShares) {
    expectSameAsOneDevice(
        {211, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, NbodyPrecision::Float, {1, 5}});
    expectSameAsOneDevice(
        {211, NbodyVariant::Tiled, NbodyIntegrator::Leapfrog, NbodyPrecision::Float, {0, 1}});
}

TEST(MpiSplit, TimingsNameEveryRank) {
    DeadlineCollectives mpi(*session, 60);
    NbodyMpiSimulation split(context(), *session, mpi);
    split.load(makePreset(NbodyPreset::Plummer, 2048, 1));
    split.step(2);
    const NbodyMultiTimings t = split.lastTimings();
    EXPECT_EQ(t.devices.size(), std::size_t(session->size()));
    EXPECT_EQ(t.steps, 2);
    EXPECT_GT(t.stepMs, 0);
    double share = 0;
    for (const NbodyDeviceTimings& d : t.devices) {
        EXPECT_GT(d.computeMs, 0);
        EXPECT_GE(d.waitMs, 0);
        EXPECT_NE(d.device.find("rank"), std::string::npos);
        share += d.share;
    }
    EXPECT_NEAR(share, 1.0, 1e-12);
    // The breakdown: the kernels, the device transfers and the MPI time of every rank.
    for (const NbodyDeviceTimings& d : t.devices) {
        std::vector<std::string> names;
        for (const auto& p : d.phases)
            names.push_back(p.first);
        for (const char* want : {"force", "integrate", "transfers", "mpi"})
            EXPECT_NE(std::find(names.begin(), names.end(), want), names.end())
                << want << " missing for " << d.device;
        // The window's copies between shared and pinned memory (auto: the window here).
        if (session->size() > 1 && split.exchange() == MpiExchange::HostWindow) {
            EXPECT_NE(std::find(names.begin(), names.end(), "host copy"), names.end())
                << "host copy missing for " << d.device;
        }
    }
}

// Pairs: each rank's part of every acceleration, summed by MPI_Ireduce_scatter. The tree: each
// rank's Morton-domain slice of the sorted accelerations, all-gathered (empty slices included).
TEST(MpiSplit, TreeAndPairsOnSeveralRanks) {
    using I = NbodyIntegrator;
    constexpr NbodyPrecision F = NbodyPrecision::Float;
    for (NbodyVariant v : {NbodyVariant::Tree, NbodyVariant::Pairs}) {
        for (std::size_t n : {1u, 2u, 3u, 257u})
            expectSameAsOneDevice({n, v});
        expectSameAsOneDevice({301, v, I::Taylor});
        expectSameAsOneDevice({211, v, I::Leapfrog, F, {1, 5}});
        expectSameAsOneDevice({211, v, I::Leapfrog, F, {0, 1}});
        expectSameAsOneDevice({211, v, I::Leapfrog, F, {1, 0}});
    }
}

// The same cases with the slices through MPI's collectives (what ranks on several hosts use);
// the tests above take the shared-memory window (auto, every rank on this host).
TEST(MpiSplit, TreeAndPairsThroughTheCollectives) {
    using I = NbodyIntegrator;
    constexpr NbodyPrecision F = NbodyPrecision::Float;
    constexpr MpiExchange C = MpiExchange::Collectives;
    for (NbodyVariant v : {NbodyVariant::Tree, NbodyVariant::Pairs, NbodyVariant::Tiled}) {
        for (std::size_t n : {1u, 3u, 257u})
            expectSameAsOneDevice({n, v, I::Leapfrog, F, {}, C});
        expectSameAsOneDevice({301, v, I::Taylor, F, {}, C});
        expectSameAsOneDevice({211, v, I::Leapfrog, F, {1, 5}, C});
        expectSameAsOneDevice({211, v, I::Leapfrog, F, {0, 1}, C});
    }
}

// The tree's replicated integration (every rank moves every body, no position exchange) and the
// owners' (the fallback), through both exchanges: the one-device state exactly, and with
// replicated integration the same state on every rank, step after step; uneven, empty and
// re-sliced shares, both integrators.
TEST(MpiSplit, TreeReplicatedIntegrationOnEveryRank) {
    using I = NbodyIntegrator;
    constexpr NbodyPrecision F = NbodyPrecision::Float;
    constexpr NbodyVariant T = NbodyVariant::Tree;
    for (NbodyTreeIntegration t : {NbodyTreeIntegration::Replicated, NbodyTreeIntegration::Owners})
        for (MpiExchange e : {MpiExchange::HostWindow, MpiExchange::Collectives}) {
            expectSameAsOneDevice({257, T, I::Leapfrog, F, {}, e, t});
            expectSameAsOneDevice({211, T, I::Leapfrog, F, {1, 5}, e, t});
            expectSameAsOneDevice({211, T, I::Leapfrog, F, {0, 1}, e, t});
            expectSameAsOneDevice({301, T, I::Taylor, F, {2, 1}, e, t});
        }
}

// Every rank of this test runs on this host: auto takes the window, and asking for it works.
TEST(MpiSplit, AutoTakesTheWindowOnOneHost) {
    DeadlineCollectives mpi(*session, 60);
    NbodyMpiSimulation split(context(), *session, mpi);
    ASSERT_TRUE(HostWindow::possible(*session));
    EXPECT_EQ(split.exchange(), MpiExchange::HostWindow);
    split.setExchange(MpiExchange::Collectives);
    EXPECT_EQ(split.exchange(), MpiExchange::Collectives);
    EXPECT_EQ(parseMpiExchange("window"), MpiExchange::HostWindow);
    EXPECT_THROW(parseMpiExchange("nccl"), Error);
}

// What each rank writes before synchronize() every rank reads after it, on alternate halves
// round after round (as the exchanges use them).
TEST(HostWindowTest, EveryRankSeesTheOthersWritesAfterSynchronize) {
    DeadlineCollectives mpi(*session, 60);
    const std::size_t ranks = static_cast<std::size_t>(session->size());
    const std::size_t me = static_cast<std::size_t>(session->rank());
    constexpr std::size_t kPer = 1000;  // ints per rank and half
    HostWindow window(*session, mpi, 2 * ranks * kPer * sizeof(int));
    EXPECT_GE(window.bytes(), 2 * ranks * kPer * sizeof(int));
    for (int round = 0; round < 6; ++round) {
        int* half = reinterpret_cast<int*>(window.data()) + (round & 1) * ranks * kPer;
        for (std::size_t i = 0; i < kPer; ++i)
            half[me * kPer + i] = round * 100000 + static_cast<int>(me * kPer + i);
        window.synchronize("round " + std::to_string(round));
        long long wrong = 0;
        for (std::size_t i = 0; i < ranks * kPer; ++i)
            wrong += half[i] != round * 100000 + static_cast<int>(i);
        EXPECT_EQ(wrong, 0) << "round " << round << " on rank " << me;
    }
}

}  // namespace
}  // namespace clviz

int main(int argc, char** argv) {
    clviz::MpiSession mpi(&argc, &argv);
    clviz::session = &mpi;
    ::testing::InitGoogleTest(&argc, argv);
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (mpi.rank() != 0)  // one report: rank 0's (the others' failures still fail the run)
        delete listeners.Release(listeners.default_result_printer());
    const int failed = RUN_ALL_TESTS();
    return failed;
}
