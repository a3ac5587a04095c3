// The split build (compute/nbody/tree/split_build.hpp): trees that compute only their domain's
// moments and exchange the roots and local essential trees walk what one tree walks.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/body.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/tree/split_build.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "tests/compute/nbody/tree_test_support.hpp"
#include "tests/support/device_context.hpp"

namespace clviz::test {
namespace {

// The same walk of the same figures: the same bits where the device adds in a fixed order (PoCL);
// NVIDIA's GPU varies a list's order between runs (tree_test.cpp,
// PiecesTakeTheWalkGroupsInBodyOrder).
double bound() {
    return context().info().kind == DeviceKind::Cpu ? 0.0 : 1e-3;
}

std::vector<Float4> readSorted(TreeForce& t, std::size_t begin, std::size_t count) {
    std::vector<Float4> out(count);
    if (count)
        context().queue().enqueueReadBuffer(t.sortedAccelerations(), CL_TRUE, begin * 16,
                                            count * 16, out.data());
    return out;
}

cl::Buffer upload(const std::vector<Body>& bodies, float scale = 1) {
    std::vector<Float4> pos(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        pos[i] = {bodies[i].pos.x * scale, bodies[i].pos.y * scale, bodies[i].pos.z * scale,
                  bodies[i].pos.w};
    cl::Buffer b(context().context(), CL_MEM_READ_WRITE, std::max<std::size_t>(pos.size(), 1) * 16);
    context().queue().enqueueWriteBuffer(b, CL_TRUE, 0, pos.size() * 16, pos.data());
    return b;
}

// One tree over every body, then `bounds.size() - 1` trees each building its domain, exchanging,
// and walking it: each domain's accelerations must be the one tree's. Every split tree first
// builds another system (the bodies spread 7 times wider), so a node it reads but neither
// computed nor received holds that system's figures and fails the comparison.
void expectSplitIsWhole(const std::vector<Body>& bodies, const std::vector<std::size_t>& bounds,
                        TreeWalk walk, float theta = 0.5f) {
    auto& cc = context();
    const std::size_t n = bodies.size();
    const float softening = 0.01f;
    TreeForceOptions o;
    o.walk = walk;
    TreeForce whole(cc, o);
    whole.setTheta(theta);
    const cl::Buffer pos = upload(bodies), other = upload(bodies, 7);
    whole.buildShareSorted(pos, n, softening);
    whole.walkSortedPiece(0, n);
    const auto want = readSorted(whole, 0, n);

    std::vector<std::unique_ptr<TreeForce>> trees;
    std::vector<TreeForce*> raw;
    for (std::size_t d = 0; d + 1 < bounds.size(); ++d) {
        trees.push_back(std::make_unique<TreeForce>(cc, o));
        trees.back()->setTheta(theta);
        trees.back()->buildShareSorted(other, n, softening);
        trees.back()->walkSortedPiece(0, n);
        trees.back()->buildDomainSorted(pos, n, softening, bounds, d);
        raw.push_back(trees.back().get());
    }
    exchangeEssentialTrees(raw);
    for (std::size_t d = 0; d + 1 < bounds.size(); ++d) {
        const std::size_t b = bounds[d], c = bounds[d + 1] - bounds[d];
        SCOPED_TRACE("domain " + std::to_string(d) + ": " + std::to_string(b) + " + " +
                     std::to_string(c));
        if (c) trees[d]->walkSortedPiece(b, c);
        const std::vector<Float4> wanted(want.begin() + b, want.begin() + b + c);
        EXPECT_TRUE(sameWithinRounding(readSorted(*trees[d], b, c), wanted, true, bound()));
    }
}

std::vector<std::size_t> equalDomains(std::size_t n, std::size_t p) {
    std::vector<std::size_t> b;
    for (std::size_t d = 0; d <= p; ++d)
        b.push_back(n * d / p);
    return b;
}

class NbodyTreeSplitBuild : public ::testing::TestWithParam<TreeWalk> {};

TEST_P(NbodyTreeSplitBuild, DomainsWalkWhatOneTreeWalks) {
    // Each size against 2, 3 and 4 domains; 20,011 (the group walk is slow on PoCL) against 3.
    for (std::size_t n : {2, 3, 129, 1000, 4099, 20011}) {
        for (std::size_t p : {2, 3, 4}) {
            if (n > 5000 && p != 3) continue;
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::to_string(p) + " domains");
            expectSplitIsWhole(makePreset(NbodyPreset::Plummer, n, 3), equalDomains(n, p),
                               GetParam());
        }
    }
}

TEST_P(NbodyTreeSplitBuild, UnevenAndEmptyDomains) {
    const std::size_t n = 3001;
    const auto bodies = makePreset(NbodyPreset::Plummer, n, 4);
    for (const std::vector<std::size_t>& bounds :
         std::vector<std::vector<std::size_t>>{{0, 0, n},
                                               {0, n, n},
                                               {0, 1, n},
                                               {0, n - 1, n},
                                               {0, 17, 17, 2000, n},
                                               {0, 1500, 1501, 1502, n}}) {
        std::string name;
        for (auto b : bounds)
            name += std::to_string(b) + " ";
        SCOPED_TRACE("bounds " + name);
        expectSplitIsWhole(bodies, bounds, GetParam());
    }
}

TEST_P(NbodyTreeSplitBuild, DomainsOfSeveralPrefixTableWorkGroups) {
    // domain_drops takes 16,384 neighbour pairs a work-group: domain 0's span three (the last
    // partly), domain 1's one.
    const std::size_t n = 45007;
    expectSplitIsWhole(makePreset(NbodyPreset::Plummer, n, 9), {0, 2 * 16384 + 101, n}, GetParam());
}

TEST_P(NbodyTreeSplitBuild, GalaxiesCoincidentBodiesAndOtherAngles) {
    expectSplitIsWhole(makePreset(NbodyPreset::CollidingGalaxies, 5003, 6), equalDomains(5003, 3),
                       GetParam());
    // Bodies on a few points: identical keys across the domains' ends.
    auto bodies = makePreset(NbodyPreset::Plummer, 2048, 7);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies[i].pos = bodies[i % 5].pos;
    expectSplitIsWhole(bodies, equalDomains(bodies.size(), 4), GetParam());
    const auto plummer = makePreset(NbodyPreset::Plummer, 6007, 8);
    for (float theta : {0.0f, 0.3f, 0.9f}) {
        SCOPED_TRACE("theta " + std::to_string(theta));
        expectSplitIsWhole(plummer, equalDomains(plummer.size(), 2), GetParam(), theta);
    }
}

INSTANTIATE_TEST_SUITE_P(Walks, NbodyTreeSplitBuild,
                         ::testing::Values(TreeWalk::Group, TreeWalk::Body), [](const auto& info) {
                             return std::string(info.param == TreeWalk::Group ? "Group" : "Body");
                         });

TEST(NbodyTreeSplitBuildRefuses, BoundsThatDoNotTileTheBodies) {
    auto& cc = context();
    TreeForce t(cc);
    const auto bodies = makePreset(NbodyPreset::Plummer, 100, 1);
    const cl::Buffer pos = upload(bodies);
    EXPECT_THROW(t.buildDomainSorted(pos, 100, 0.01f, {0, 50}, 0), Error);
    EXPECT_THROW(t.buildDomainSorted(pos, 100, 0.01f, {0, 60, 50, 100}, 0), Error);
    EXPECT_THROW(t.buildDomainSorted(pos, 100, 0.01f, {0, 50, 100}, 2), Error);
    EXPECT_THROW(t.buildDomainSorted(pos, 100, 0.01f, {0}, 0), Error);
    cl::Buffer acc(cc.context(), CL_MEM_READ_WRITE, 100 * 16);
    t.compute(pos, 100, 0.01f, acc);
    EXPECT_THROW(t.domainShare(), Error);  // the last pass was no split build
}

}  // namespace
}  // namespace clviz::test
