// The pairs and tree force passes shared between two OpenCL devices (PoCL's two CPU devices under
// CTest: POCL_DEVICES="pthread pthread"): each device computes its share's part of every body's
// acceleration and the parts are added up. Tree: the same tree on both devices and exactly the
// one-device forces. Pairs: within the float-rounding bound of docs/scaling.md,
//   |a_split - a_one| <= 2 * gamma_N * sum_j |a_ij|   (per component; gamma_N = N u / (1 - N u),
//   u = 2^-24), as both are float sums of the same N - 1 terms in different orders.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/shared_forces.hpp"
#include "compute/nbody/pairs/pair_force.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "tests/support/two_devices.hpp"

namespace clviz {
namespace {

test::TwoDevices& devices() {
    return test::twoDevices();
}

class SharedForces : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(devices().a) << "needs a platform with two devices: run under CTest, which "
                                    "sets POCL_DEVICES=\"pthread pthread\"";
    }
    std::vector<ComputeContext*> both() { return {devices().a.get(), devices().b.get()}; }
};

// The tree's accelerations (4 floats a body: xyz, the potential) against another pass's: bit for
// bit where the device sums a walk's list in a fixed order (PoCL); NVIDIA's walk varies that order
// from run to run (tree_test.cpp), so there each body's xyz within 1e-5 of its |x| + |y| + |z| (a
// component near 0 is a cancellation of larger terms) and its potential within 1e-5, as the
// multi-device tests bound it.
::testing::AssertionResult sameForces(const ComputeContext& cc, const std::vector<float>& got,
                                      const std::vector<float>& want) {
    if (got.size() != want.size() || got.size() % 4)
        return ::testing::AssertionFailure() << got.size() << " values for " << want.size();
    const bool fixedOrder = cc.info().kind == DeviceKind::Cpu;
    for (std::size_t b = 0; b < got.size() / 4; ++b) {
        const float* g = &got[4 * b];
        const float* w = &want[4 * b];
        const double scale = std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2]);
        for (int c = 0; c < 4; ++c) {
            const double bound = 1e-5 * (c < 3 ? scale : std::fabs(w[3])) + 1e-12;
            if (fixedOrder ? g[c] != w[c] : std::fabs(double(g[c]) - w[c]) > bound)
                return ::testing::AssertionFailure()
                       << "body " << b << ", value " << c << ": " << g[c] << " against " << w[c];
        }
    }
    return ::testing::AssertionSuccess();
}

// Body i's four values of a pass's accelerations.
std::vector<float> bodyOf(const std::vector<float>& acc, std::size_t i) {
    return {acc.begin() + static_cast<std::ptrdiff_t>(4 * i),
            acc.begin() + static_cast<std::ptrdiff_t>(4 * i + 4)};
}

std::vector<Float4> positionsOf(std::size_t n, unsigned seed = 11) {
    std::vector<Float4> p;
    for (const Body& b : makePreset(NbodyPreset::Plummer, n, seed))
        p.push_back(b.pos);
    return p;
}

// Runs `force` on each device with the positions, returns each device's acc (4 floats a body).
template <class Force>
std::vector<std::vector<float>> runOnEach(const std::vector<ComputeContext*>& ccs,
                                          const std::vector<Float4>& pos, Force&& force) {
    std::vector<std::vector<float>> out;
    for (std::size_t d = 0; d < ccs.size(); ++d) {
        ComputeContext& cc = *ccs[d];
        const std::size_t n = pos.size();
        cl::Buffer p(cc.context(), CL_MEM_READ_WRITE, n * 16),
            a(cc.context(), CL_MEM_READ_WRITE, n * 16);
        cc.queue().enqueueWriteBuffer(p, CL_TRUE, 0, n * 16, pos.data());
        force(d, cc, p, a);
        std::vector<float> acc(4 * n);
        cc.queue().enqueueReadBuffer(a, CL_TRUE, 0, n * 16, acc.data());
        out.push_back(std::move(acc));
    }
    return out;
}

std::vector<float> summed(std::vector<std::vector<float>> parts,
                          const std::vector<BodySlice>& slices) {
    std::vector<float*> ptrs;
    for (auto& p : parts)
        ptrs.push_back(p.data());
    sumSharedAccelerations(ptrs, slices);
    std::vector<float> out(parts[0].size());
    for (std::size_t d = 0; d < slices.size(); ++d)
        std::copy(parts[d].begin() + 4 * slices[d].begin, parts[d].begin() + 4 * slices[d].end(),
                  out.begin() + 4 * slices[d].begin);
    return out;
}

// sum_j |a_ij| per component, in double (the scale of the float summation error).
std::vector<double> termMagnitudes(const std::vector<Float4>& pos, float softening) {
    const std::size_t n = pos.size();
    std::vector<double> s(4 * n, 0.0);
    const double eps2 = double(softening) * softening;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            const double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y,
                                 double(pos[j].z) - pos[i].z};
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
            if (r2 == 0) continue;
            const double f = pos[j].w / (r2 * std::sqrt(r2));
            for (int c = 0; c < 3; ++c)
                s[4 * i + c] += std::abs(f * d[c]);
        }
    return s;
}

const std::vector<std::vector<double>> kWeights = {{1, 1}, {1, 3}, {5, 2}, {0, 1}, {1, 0}};

TEST_F(SharedForces, PairsSplitMatchesOneDeviceWithinTheRoundingBound) {
    const PairForceShape shape{16, 2, 2};  // 32-body blocks: several blocks even at small N
    for (std::size_t n : {1u, 2u, 3u, 33u, 61u, 257u, 1031u}) {
        const auto pos = positionsOf(n);
        const float softening = 0.01f;
        PairForce one(*devices().a);
        const auto whole = runOnEach({devices().a.get()}, pos, [&](auto, auto&, auto& p, auto& a) {
            one.compute(p, n, softening, a, nullptr, 0, shape);
        })[0];
        const auto scale = termMagnitudes(pos, softening);
        const double gamma = double(n) * 0x1p-24 / (1 - double(n) * 0x1p-24);
        for (const auto& w : kWeights) {
            const auto slices = planSlices(n, w);
            PairForce fa(*devices().a), fb(*devices().b);
            PairForce* forces[2] = {&fa, &fb};
            const auto parts = runOnEach(both(), pos, [&](std::size_t d, auto&, auto& p, auto& a) {
                forces[d]->computeShare(p, n, softening, a, slices[d].begin, slices[d].count,
                                        shape);
            });
            const auto split = summed(parts, slices);
            for (std::size_t i = 0; i < 4 * n; ++i)
                ASSERT_LE(std::abs(double(split[i]) - whole[i]), 2 * gamma * scale[i])
                    << "N = " << n << ", body " << i / 4 << ", slices " << describeSlices(slices);
        }
    }
}

TEST_F(SharedForces, PairsSharesGiveEveryBlockMeetingToOneDevice) {
    for (std::size_t n : {1u, 7u, 64u, 100u, 1000u, 1u << 20})
        for (std::size_t block : {1u, 32u, 512u}) {
            const std::size_t nb = (n + block - 1) / block;
            for (const auto& w : kWeights) {
                const auto slices = planSlices(n, w);
                std::size_t next = 0;
                for (const BodySlice& s : slices) {
                    const auto [first, last] = PairForce::shareBlocks(n, block, s.begin, s.count);
                    EXPECT_EQ(first, next);
                    EXPECT_LE(first, last);
                    next = last;
                }
                EXPECT_EQ(next, nb) << "N = " << n << ", block " << block;
            }
            // Even shares: the meetings of two halves differ by at most one block's.
            const auto half = planSlices(n, {1, 1});
            const auto [a0, a1] = PairForce::shareBlocks(n, block, half[0].begin, half[0].count);
            const auto [b0, b1] = PairForce::shareBlocks(n, block, half[1].begin, half[1].count);
            const long long da = static_cast<long long>(a1 - a0),
                            db = static_cast<long long>(b1 - b0);
            EXPECT_LE(std::llabs(da - db), 1) << "N = " << n << ", block " << block;
        }
}

TEST_F(SharedForces, TreeSplitBuildsTheSameTreeAndGivesTheSameForces) {
    for (TreeWalk walk : {TreeWalk::Body, TreeWalk::Group})
        for (std::size_t n : {1u, 2u, 3u, 61u, 257u, 1031u}) {
            const auto pos = positionsOf(n, 5);
            const float softening = 0.01f;
            TreeForce one(*devices().a, TreeForceOptions{walk});
            const auto whole = runOnEach(
                {devices().a.get()}, pos,
                [&](auto, auto&, auto& p, auto& a) { one.compute(p, n, softening, a); })[0];
            const TreeSnapshot reference = one.readTree();
            for (const auto& w : kWeights) {
                const auto slices = planSlices(n, w);
                TreeForce ta(*devices().a, TreeForceOptions{walk}),
                    tb(*devices().b, TreeForceOptions{walk});
                TreeForce* trees[2] = {&ta, &tb};
                const auto parts =
                    runOnEach(both(), pos, [&](std::size_t d, auto&, auto& p, auto& a) {
                        trees[d]->computeShare(p, n, softening, a, slices[d].begin,
                                               slices[d].count);
                    });
                SCOPED_TRACE("N = " + std::to_string(n) + ", " +
                             (walk == TreeWalk::Body ? "body" : "group") + " walk, slices " +
                             describeSlices(slices));
                for (TreeForce* t : trees) {
                    const TreeSnapshot s = t->readTree();
                    EXPECT_EQ(s.sortedIndex, reference.sortedIndex);
                    EXPECT_EQ(s.children, reference.children);
                    EXPECT_EQ(s.com, reference.com);
                }
                // Each body is walked on exactly one device: the other adds 0.
                for (std::size_t i = 0; i < 4 * n; ++i)
                    ASSERT_TRUE(parts[0][i] == 0 || parts[1][i] == 0) << "body " << i / 4;
                EXPECT_TRUE(sameForces(*both()[0], summed(parts, slices), whole));
            }
        }
}

// The exchange the split tree uses instead of the sum: each device's nonzero sorted accelerations
// are exactly its domain's slice, and the slices put together and returned to the body order on
// each device give the one-device forces bit for bit (group walk: a walk group across a domain
// boundary is walked by both devices, each keeping its own bodies).
TEST_F(SharedForces, TreeSplitDomainSlicesPutTogetherGiveTheSameForces) {
    for (TreeWalk walk : {TreeWalk::Body, TreeWalk::Group})
        for (std::size_t n : {1u, 2u, 3u, 61u, 257u, 1031u}) {
            const auto pos = positionsOf(n, 5);
            const float softening = 0.01f;
            TreeForce one(*devices().a, TreeForceOptions{walk});
            const auto whole = runOnEach(
                {devices().a.get()}, pos,
                [&](auto, auto&, auto& p, auto& a) { one.compute(p, n, softening, a); })[0];
            for (const auto& w : kWeights) {
                const auto slices = planSlices(n, w);
                SCOPED_TRACE("N = " + std::to_string(n) + ", " +
                             (walk == TreeWalk::Body ? "body" : "group") + " walk, slices " +
                             describeSlices(slices));
                TreeForce ta(*devices().a, TreeForceOptions{walk}),
                    tb(*devices().b, TreeForceOptions{walk});
                TreeForce* trees[2] = {&ta, &tb};
                std::vector<float> sorted(4 * n, NAN);  // what the exchange puts together
                const auto got =
                    runOnEach(both(), pos, [&](std::size_t d, auto& cc, auto& p, auto&) {
                        trees[d]->computeShareSorted(p, n, softening, slices[d].begin,
                                                     slices[d].count);
                        std::vector<float> mine(4 * n);
                        cc.queue().enqueueReadBuffer(trees[d]->sortedAccelerations(), CL_TRUE, 0,
                                                     n * 16, mine.data());
                        for (std::size_t i = 0; i < n; ++i) {
                            const bool inDomain = i >= slices[d].begin && i < slices[d].end();
                            for (int c = 0; c < 4; ++c) {
                                if (inDomain)
                                    sorted[4 * i + c] = mine[4 * i + c];
                                else
                                    ASSERT_EQ(mine[4 * i + c], 0.0f)
                                        << "device " << d << " wrote sorted body " << i
                                        << " outside its domain";
                            }
                        }
                    });
                // Every device receives the whole and returns it to the body order.
                for (std::size_t d = 0; d < 2; ++d) {
                    ComputeContext& cc = *both()[d];
                    cl::Buffer acc(cc.context(), CL_MEM_READ_WRITE, n * 16);
                    cc.queue().enqueueWriteBuffer(trees[d]->sortedAccelerations(), CL_TRUE, 0,
                                                  n * 16, sorted.data());
                    trees[d]->scatterSorted(acc);
                    std::vector<float> out(4 * n);
                    cc.queue().enqueueReadBuffer(acc, CL_TRUE, 0, n * 16, out.data());
                    EXPECT_TRUE(sameForces(cc, out, whole)) << "device " << d;
                }
            }
        }
}

// The accelerations returned to the body order by gathering (each body reads its sorted place,
// NbodyMultiDevice's replicated integration) are the scatter's, bit for bit, and so are the
// kicked velocities; bodies left out of a gather keep what they held until their ranges are
// scattered (one range a launch, or several in one), and then all agree again. Deterministic on
// every device: both read one pass.
TEST_F(SharedForces, TreeGatherGivesTheScattersBitsAndLeavesTheSkippedBodies) {
    const float sentinel = -12345.0f, kick = 0.37f;
    for (std::size_t n : {1u, 2u, 61u, 1031u}) {
        SCOPED_TRACE("N = " + std::to_string(n));
        const auto pos = positionsOf(n, 7);
        std::vector<float> vel0(4 * n);
        for (std::size_t i = 0; i < vel0.size(); ++i)
            vel0[i] = 0.01f * static_cast<float>((i * 37) % 101) - 0.5f;
        ComputeContext& cc = *devices().a;
        auto& q = cc.queue();
        auto buffer = [&](const std::vector<float>& from) {
            cl::Buffer b(cc.context(), CL_MEM_READ_WRITE, n * 16);
            q.enqueueWriteBuffer(b, CL_TRUE, 0, n * 16, from.data());
            return b;
        };
        auto read = [&](const cl::Buffer& b) {
            std::vector<float> out(4 * n);
            q.enqueueReadBuffer(b, CL_TRUE, 0, n * 16, out.data());
            return out;
        };
        const std::vector<float> filled(4 * n, sentinel);
        cl::Buffer p(cc.context(), CL_MEM_READ_WRITE, n * 16);
        q.enqueueWriteBuffer(p, CL_TRUE, 0, n * 16, pos.data());
        TreeForce t(cc, TreeForceOptions{TreeWalk::Group});
        t.computeShareSorted(p, n, 0.01f, 0, n);
        cl::Buffer accS = buffer(filled), velS = buffer(vel0);
        t.scatterSorted(accS, &velS, kick);
        // Ranges that tile every body, scattered in one launch (no body's sorted place known yet).
        cl::Buffer accT = buffer(filled), velT = buffer(vel0);
        t.scatterSortedRanges(accT, {{n / 2, n - n / 2}, {0, n / 3}, {n / 3, n / 2 - n / 3}}, q, {},
                              &velT, kick);
        cl::Buffer accG = buffer(filled), velG = buffer(vel0);
        t.gatherSorted(accG, q, {}, &velG, kick);
        const auto wantAcc = read(accS), wantVel = read(velS);
        EXPECT_EQ(read(accT), wantAcc);
        EXPECT_EQ(read(velT), wantVel);
        ASSERT_EQ(read(accG), wantAcc);
        ASSERT_EQ(read(velG), wantVel);
        // Two ranges of sorted places left out (the last of two domains), then scattered.
        const std::vector<TreeForce::SortedRange> later = {{n / 2, n - n / 2 > 1 ? 1u : 0u},
                                                           {n - n / 3, n / 3}};
        cl::Buffer accL = buffer(filled), velL = buffer(vel0);
        t.gatherSorted(accL, q, {}, &velL, kick, later);
        const auto part = read(accL);
        std::size_t left = 0;
        for (std::size_t i = 0; i < n; ++i)
            left += part[4 * i] == sentinel;
        EXPECT_EQ(left, later[0].count + later[1].count);
        for (const auto& r : later)
            if (r.count) t.scatterSortedRange(accL, r.begin, r.count, q, {}, &velL, kick);
        EXPECT_EQ(read(accL), wantAcc);
        EXPECT_EQ(read(velL), wantVel);
        std::vector<TreeForce::SortedRange> tooMany(TreeForce::kMostGatherSkips + 1);
        EXPECT_THROW(t.gatherSorted(accL, q, {}, &velL, kick, tooMany), Error);
        EXPECT_THROW(t.gatherSorted(accL, q, {}, &velL, kick, {{n, 1}}), Error);
        // Three ranges left out, then scattered in one launch (empty ones among them).
        const std::vector<TreeForce::SortedRange> three = {
            {0, n / 4}, {n / 2, n - n / 2 > 1 ? 1u : 0u}, {n - n / 3, n / 3}};
        cl::Buffer accR = buffer(filled), velR = buffer(vel0);
        t.gatherSorted(accR, q, {}, &velR, kick, three);
        t.scatterSortedRanges(accR, three, q, {}, &velR, kick);
        EXPECT_EQ(read(accR), wantAcc);
        EXPECT_EQ(read(velR), wantVel);
        std::vector<TreeForce::SortedRange> tooManyRanges(TreeForce::kMostScatterRanges + 1);
        EXPECT_THROW(t.scatterSortedRanges(accR, tooManyRanges, q, {}, &velR, kick), Error);
        EXPECT_THROW(t.scatterSortedRanges(accR, {{0, 0}, {n, 1}}, q, {}, &velR, kick), Error);
        if (n > 1) {  // a body in two ranges would be kicked twice
            EXPECT_THROW(t.scatterSortedRanges(accR, {{0, 2}, {1, 1}}, q, {}, &velR, kick), Error);
        }
    }
}

// A domain walked in pieces (NbodyMultiDevice passes each piece on while the next is walked): a
// piece writes its own sorted bodies and nothing else, not even zeros (the other bodies' slots
// may be receiving copies meanwhile), and the pieces put together are the domain walked whole,
// bit for bit, with empty and one-body pieces among them; walked on two queues without waiting,
// joinPieces() orders them before what comes next on the context's queue.
TEST_F(SharedForces, TreeDomainWalkedInPiecesWritesEachPieceAloneAndMatchesTheWholeWalk) {
    const float sentinel = -12345.0f;
    for (TreeWalk walk : {TreeWalk::Body, TreeWalk::Group})
        for (std::size_t n : {1u, 2u, 3u, 61u, 257u, 1031u}) {
            const auto pos = positionsOf(n, 5);
            const float softening = 0.01f;
            ComputeContext& cc = *devices().a;
            cl::Buffer p(cc.context(), CL_MEM_READ_WRITE, n * 16);
            cc.queue().enqueueWriteBuffer(p, CL_TRUE, 0, n * 16, pos.data());
            auto read = [&](const TreeForce& t) {
                std::vector<float> out(4 * n);
                cc.queue().enqueueReadBuffer(t.sortedAccelerations(), CL_TRUE, 0, n * 16,
                                             out.data());
                return out;
            };
            for (const auto& w : kWeights) {
                const BodySlice domain = planSlices(n, w)[1];
                SCOPED_TRACE("N = " + std::to_string(n) + ", " +
                             (walk == TreeWalk::Body ? "body" : "group") + " walk, domain " +
                             std::to_string(domain.begin) + " + " + std::to_string(domain.count));
                TreeForce whole(cc, TreeForceOptions{walk});
                whole.computeShareSorted(p, n, softening, domain.begin, domain.count);
                const std::vector<float> want = read(whole);

                TreeForce pieces(cc, TreeForceOptions{walk});
                pieces.buildShareSorted(p, n, softening);
                cc.queue().enqueueFillBuffer(pieces.sortedAccelerations(), sentinel, 0, n * 16);
                // Pieces: the first body alone, an empty one, the first half of the rest, the rest.
                const std::size_t one = std::min<std::size_t>(1, domain.count);
                const std::size_t half = (domain.count - one) / 2;
                const std::vector<std::pair<std::size_t, std::size_t>> cuts = {
                    {domain.begin, one},
                    {domain.begin + one, 0},
                    {domain.begin + one, half},
                    {domain.begin + one + half, domain.count - one - half}};
                for (std::size_t k = 0; k < cuts.size(); ++k) {
                    // The pieces go on two queues in turn: a read waits for the piece's event.
                    pieces.walkSortedPiece(cuts[k].first, cuts[k].second).wait();
                    const std::vector<float> got = read(pieces);
                    const std::size_t walkedEnd = cuts[k].first + cuts[k].second;
                    for (std::size_t i = 0; i < n; ++i) {
                        if (i >= domain.begin && i < walkedEnd) {
                            ASSERT_TRUE(sameForces(cc, bodyOf(got, i), bodyOf(want, i)))
                                << "sorted body " << i << " after piece " << k;
                            continue;
                        }
                        for (int c = 0; c < 4; ++c)
                            ASSERT_EQ(got[4 * i + c], sentinel)
                                << "piece " << k << " wrote sorted body " << i
                                << " outside the pieces walked so far";
                    }
                }
                EXPECT_THROW(pieces.walkSortedPiece(n, 1), Error);
                // Walked without waiting: after joinPieces() the context's queue sees them all.
                TreeForce joined(cc, TreeForceOptions{walk});
                joined.buildShareSorted(p, n, softening);
                cc.queue().enqueueFillBuffer(joined.sortedAccelerations(), sentinel, 0, n * 16);
                for (const auto& [begin, count] : cuts)
                    joined.walkSortedPiece(begin, count);
                joined.joinPieces();
                const std::vector<float> got = read(joined);
                for (std::size_t i = domain.begin; i < domain.end(); ++i)
                    ASSERT_TRUE(sameForces(cc, bodyOf(got, i), bodyOf(want, i)))
                        << "joined, sorted body " << i;
            }
        }
}

// The host's sum: each slice gets the parts added in device order, with and without threads
// (above 2^18 bodies per thread), for uneven and empty slices; other bodies are left alone.
TEST(SharedForceSums, EachSliceGetsThePartsAddedInDeviceOrder) {
    for (std::size_t n : {std::size_t{5}, std::size_t{1} << 20 | 7}) {
        const std::vector<BodySlice> slices = planSlices(n, {1, 0, 3});
        std::vector<std::vector<float>> parts(3, std::vector<float>(4 * n));
        for (std::size_t d = 0; d < 3; ++d)
            for (std::size_t f = 0; f < 4 * n; ++f)
                parts[d][f] = float((f * 7 + d * 13) % 101) * 0.37f - float(d);
        std::vector<float> expected(4 * n);
        for (std::size_t f = 0; f < 4 * n; ++f)
            expected[f] = (parts[0][f] + parts[1][f]) + parts[2][f];
        const auto before = parts;
        std::vector<float*> ptrs = {parts[0].data(), parts[1].data(), parts[2].data()};
        sumSharedAccelerations(ptrs, slices);
        for (std::size_t d = 0; d < 3; ++d)
            for (std::size_t i = 0; i < n; ++i) {
                const bool mine = i >= slices[d].begin && i < slices[d].end();
                for (int c = 0; c < 4; ++c) {
                    const std::size_t f = 4 * i + c;
                    ASSERT_EQ(parts[d][f], mine ? expected[f] : before[d][f])
                        << "N = " << n << ", device " << d << ", body " << i;
                }
            }
    }
}

// An MPI rank adds its own slice alone, wherever it lies: enough bodies for several threads, the
// other slices empty (the threads once split [0, count) and missed a slice that starts later).
TEST(SharedForceSums, ALaterSliceAloneIsAddedByEveryThread) {
    const std::size_t n = 3 * (std::size_t{1} << 18) + 5;  // 3 threads' worth in the last slice
    const std::size_t begin = 1000;
    std::vector<std::vector<float>> parts(2, std::vector<float>(4 * (begin + n)));
    for (std::size_t d = 0; d < 2; ++d)
        for (std::size_t f = 0; f < parts[d].size(); ++f)
            parts[d][f] = float((f % 1021) + 7 * d);
    const auto before = parts;
    std::vector<float*> ptrs = {parts[0].data(), parts[1].data()};
    sumSharedAccelerations(ptrs, {{0, 0}, {begin, n}});
    std::size_t wrong = 0;
    for (std::size_t f = 0; f < parts[1].size(); ++f) {
        const float want = f >= 4 * begin ? before[0][f] + before[1][f] : before[1][f];
        wrong += parts[1][f] != want;
        wrong += parts[0][f] != before[0][f];
    }
    EXPECT_EQ(wrong, 0u);
}

// The balancer follows the tree's walk alone (the build is every device's whole tree).
TEST(SharedForceSums, TheTreeBalancesOnItsWalkTime) {
    NbodyStepTimings t;
    t.forceMs = 30;
    t.kernels = {{"tree-build", 10, 1}, {"tree-walk", 12, 2}, {"tree-walk", 3, 1}};
    EXPECT_DOUBLE_EQ(balancedForceMs(t), 15);
    t.kernels = {{"force", 30, 1}, {"kick-drift", 1, 1}};
    EXPECT_DOUBLE_EQ(balancedForceMs(t), 30);
}

}  // namespace
}  // namespace clviz
