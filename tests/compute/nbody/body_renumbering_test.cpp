// The tree renumbers the bodies into its Morton order (NbodySimulation::readSlotIds): the state
// buffers then hold the bodies by slot, every read in the load order gives what a simulation that
// never renumbers gives, bit for bit, and two devices that renumber together keep one device's
// state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>

#include "common/error.hpp"
#include "compute/core/device_info.hpp"
#include "compute/nbody/body_slots.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/compute/nbody/test_support.hpp"
#include "tests/support/two_devices.hpp"

namespace clviz {
namespace {

NbodySimulation& configure(NbodySimulation& sim) {
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    sim.setKernelConfig(c);
    return sim;
}

bool sameBits(const std::vector<Body>& a, const std::vector<Body>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Body)) == 0;
}

// The same state as `want`: bit for bit where the device sums a walk's list in a fixed order
// (PoCL); NVIDIA's walk varies that order from run to run (tree_test.cpp), so there within `spread`
// (what two runs that both never renumber differ by) with room to grow, as tree states part.
::testing::AssertionResult sameState(ComputeContext& cc, const std::vector<Body>& got,
                                     const std::vector<Body>& want, double spread = 0) {
    if (cc.info().kind == DeviceKind::Cpu) {
        if (sameBits(got, want)) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure()
               << "differs by " << worstSplitDifference(got, want) << " (relative)";
    }
    const double d = worstSplitDifference(got, want), limit = std::max(10 * spread, 1e-5);
    if (d <= limit) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "differs by " << d << " (relative), above " << limit;
}

// The tree's Morton order of `bodies` on the host: its keys (21 bits an axis in the bodies'
// bounding cube, computed as morton_keys does in float) sorted stably; result[s] is the body at s.
std::vector<std::uint32_t> hostMortonOrder(const std::vector<Body>& bodies) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const Body& b : bodies) {
        const float p[3] = {b.pos.x, b.pos.y, b.pos.z};
        for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    }
    const float extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    const float scale = float((1 << 21) - 1) / extent;
    std::vector<std::uint64_t> keys;
    for (const Body& b : bodies) {
        const float p[3] = {b.pos.x, b.pos.y, b.pos.z};
        std::uint64_t cell[3], k = 0;
        for (int a = 0; a < 3; ++a)
            cell[a] = std::min<std::uint64_t>((1 << 21) - 1,
                                              static_cast<std::uint64_t>((p[a] - lo[a]) * scale));
        for (int bit = 20; bit >= 0; --bit)
            for (int a = 0; a < 3; ++a)
                k = k << 1 | (cell[a] >> bit & 1);
        keys.push_back(k);
    }
    std::vector<std::uint32_t> order(bodies.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
    return order;
}

TEST(BodySlots, PutBackInTheLoadOrder) {
    const std::vector<int> bySlot = {30, 31, 10, 11, 20, 21};  // two values a body
    EXPECT_EQ(inLoadOrder(bySlot, {2, 0, 1}, 2), (std::vector<int>{10, 11, 20, 21, 30, 31}));
    EXPECT_EQ(inLoadOrder(bySlot, {}, 2), bySlot);           // the load order already
    EXPECT_THROW(inLoadOrder(bySlot, {2, 2, 1}, 2), Error);  // not a permutation
    EXPECT_THROW(inLoadOrder(bySlot, {3, 0, 1}, 2), Error);
    EXPECT_THROW(inLoadOrder(bySlot, {0, 1}, 2), Error);
}

// Renumberings after passes 1, 17, 33 and 49 (each at the next step's start): the load order's
// state and accelerations are those of a simulation that never renumbers, bit for bit, and the
// slots hold the bodies in the tree's order of the positions of its last pass (the load order is
// random).
TEST(BodyRenumbering, KeepsTheStateOfASimulationThatNeverRenumbers) {
    for (std::size_t n : {1u, 2u, 3001u}) {
        SCOPED_TRACE("N = " + std::to_string(n));
        const auto bodies = makePreset(NbodyPreset::Plummer, n, 11);
        ComputeContext& cc = test::context();
        NbodySimulation renumbering(cc), plain(cc), again(cc);  // again: plain's spread
        for (NbodySimulation* sim : {&renumbering, &plain, &again}) {
            configure(*sim);
            sim->setRenumbering(sim == &renumbering);
            sim->load(bodies);
        }
        for (int s = 0; s < 4; ++s) {
            for (NbodySimulation* sim : {&renumbering, &plain, &again})
                sim->step(12);
            const std::vector<Body> want = plain.readBodies();
            const double spread = worstSplitDifference(again.readBodies(), want);
            ASSERT_TRUE(sameState(cc, renumbering.readBodies(), want, spread)) << "step " << s;
        }
        // Step 48 closed with pass 49, whose order step 49 renumbers into first.
        const std::vector<Body> atPass49 = renumbering.readBodies();
        for (NbodySimulation* sim : {&renumbering, &plain, &again})
            sim->step(1);
        const std::vector<Body> want = plain.readBodies();
        const double spread = worstSplitDifference(again.readBodies(), want);
        ASSERT_TRUE(sameState(cc, renumbering.readBodies(), want, spread));
        const auto a = renumbering.readAccelerations(), b = plain.readAccelerations();
        if (cc.info().kind == DeviceKind::Cpu) {
            ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Float4)), 0);
        }
        EXPECT_FALSE(plain.renumbered());
        EXPECT_TRUE(plain.readSlotIds().empty());
        EXPECT_EQ(renumbering.renumbered(), n > 1);
        if (n < 100) continue;
        const std::vector<std::uint32_t> ids = renumbering.readSlotIds();
        EXPECT_EQ(ids, hostMortonOrder(atPass49));
        std::vector<std::uint32_t> identity(n);
        std::iota(identity.begin(), identity.end(), 0u);
        EXPECT_NE(ids, identity);
        const NbodyDiagnostics d1 = renumbering.diagnostics(), d2 = plain.diagnostics();
        EXPECT_NEAR(d1.total, d2.total, 1e-6 * std::abs(d2.total));  // sums in another order
        // The renumbering counts as a step's kernel time: 16 steps hold one.
        renumbering.step(16);
        bool timed = false;
        for (const auto& k : renumbering.lastStepTimings().kernels)
            timed |= k.kernel == "renumber" && k.launches == 7;
        EXPECT_TRUE(timed);
    }
}

// A blown-up body is named by its load index, not its slot.
TEST(BodyRenumbering, NamesABlownUpBodyByItsLoadIndex) {
    const auto bodies = makePreset(NbodyPreset::Plummer, 500, 3);
    NbodySimulation sim(test::context());
    configure(sim);
    sim.load(bodies);
    sim.step(1);
    const std::vector<std::uint32_t> ids = sim.readSlotIds();
    ASSERT_EQ(ids.size(), 500u);
    const std::size_t slot = 123;
    ASSERT_NE(ids[slot], slot);
    const float nan[4] = {std::numeric_limits<float>::quiet_NaN(), 0, 0, 1};
    test::context().queue().enqueueWriteBuffer(sim.positions(), CL_TRUE, slot * 16, 16, nan);
    const NbodyDiagnostics d = sim.diagnostics();
    EXPECT_EQ(d.nonFiniteBodies, 1);
    EXPECT_EQ(d.firstNonFinite, static_cast<long long>(ids[slot]));
    EXPECT_NE(d.message().find("body " + std::to_string(ids[slot])), std::string::npos);
}

// Two devices that each move every body renumber at the same passes: each holds one device's
// state in the same slots; owners (each moves its own slice) never renumber, and a later switch
// to replicated steps renumbers both at once.
TEST(BodyRenumbering, DevicesThatMoveEveryBodyRenumberTogether) {
    test::TwoDevices& two = test::twoDevices();
    ASSERT_TRUE(two.a) << "needs two devices: run under CTest (POCL_DEVICES=\"pthread pthread\")";
    const auto bodies = makePreset(NbodyPreset::Plummer, 2003, 5);
    NbodySimulation one(*two.a), again(*two.a);  // again: one device's own spread
    for (NbodySimulation* sim : {&one, &again}) {
        configure(*sim);
        sim->load(bodies);
    }
    NbodyMultiDevice split({two.a.get(), two.b.get()});
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    split.setKernelConfig(c);
    split.setTreeIntegration(NbodyTreeIntegration::Owners);
    split.load(bodies);
    split.setWeights({1, 2});
    auto sameAsOne = [&](int steps) {
        one.step(steps);
        again.step(steps);
        split.step(steps);
        const std::vector<Body> want = one.readBodies();
        return sameState(*two.a, split.readBodies(), want,
                         worstSplitDifference(again.readBodies(), want));
    };
    ASSERT_TRUE(sameAsOne(3));
    EXPECT_FALSE(split.device(0).renumbered());
    EXPECT_FALSE(split.device(1).renumbered());
    split.setTreeIntegration(NbodyTreeIntegration::Replicated);
    for (int s = 0; s < 3; ++s) {
        ASSERT_TRUE(sameAsOne(7)) << "round " << s;
        ASSERT_TRUE(split.device(0).renumbered());
        ASSERT_EQ(split.device(0).readSlotIds(), split.device(1).readSlotIds());
        ASSERT_TRUE(sameBits(split.device(0).readSlotBodies(), split.device(1).readSlotBodies()));
    }
    // Owners again: the slices are slots, and the load order still comes back.
    split.setTreeIntegration(NbodyTreeIntegration::Owners);
    ASSERT_TRUE(sameAsOne(2));
    if (two.a->info().kind == DeviceKind::Cpu) {  // x, y, z: the potential (w) of the bodies
        // the other device walked comes without it (packed slices)
        const auto a1 = one.readAccelerations(), a2 = split.readAccelerations();
        ASSERT_EQ(a1.size(), a2.size());
        for (std::size_t i = 0; i < a1.size(); ++i) {
            const float want[3] = {a1[i].x, a1[i].y, a1[i].z}, got[3] = {a2[i].x, a2[i].y, a2[i].z};
            ASSERT_EQ(std::memcmp(want, got, sizeof want), 0) << "body " << i;
        }
    }
}

}  // namespace
}  // namespace clviz
