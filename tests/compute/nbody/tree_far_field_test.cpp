// The group walk's far field (TreeForceOptions::thetaFar, kernels/nbody_tree.cl): far cells summed
// once per walk group as a Taylor expansion about the group's centre, against the double direct
// sum (forces and potentials) at awkward N, on a Plummer sphere and on two clumps far apart (where
// most cells are far), and thetaFar = 0 against the walk without it, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "compute/nbody/body.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "tests/compute/nbody/tree_test_support.hpp"

namespace clviz {
namespace {

using test::context;
using test::positions;

// The far-field angle the tests run at; the walk's default is measured (docs/benchmarks.md,
// issue 31 round 7).
constexpr float kThetaFar = 0.5f;

TreeForce& tree(float thetaFar) {
    static TreeForce off(context(), [] {
        TreeForceOptions o{TreeWalk::Group};
        o.thetaFar = 0;
        return o;
    }());
    static TreeForce on(context(), [] {
        TreeForceOptions o{TreeWalk::Group};
        o.thetaFar = kThetaFar;
        return o;
    }());
    return thetaFar > 0 ? on : off;
}

// Accelerations and potentials (w) of `bodies` from `t` at `theta`.
std::vector<Float4> run(TreeForce& t, const std::vector<Body>& bodies, float softening,
                        float theta) {
    t.setTheta(theta);
    std::vector<Float4> acc = test::treeForces(t, bodies, softening);
    EXPECT_EQ(t.lastFallbacks(), 0);
    return acc;
}

struct Errors {
    double median = 0, p99 = 0;        // relative force errors |a - a_ref| / |a_ref|
    double phiMedian = 0, energy = 0;  // potential: per body, and of sum m phi
};

Errors errors(const std::vector<Float4>& got, const std::vector<Body>& bodies, float softening) {
    const auto ref = referenceForces(positions(bodies), softening);
    const auto phiRef = referencePotentials(positions(bodies), softening);
    std::vector<double> e, ep;
    double sum = 0, sumRef = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        double d2 = 0, r2 = 0;
        const double a[3] = {got[i].x, got[i].y, got[i].z};
        for (int c = 0; c < 3; ++c) {
            d2 += (a[c] - ref.acc[i][c]) * (a[c] - ref.acc[i][c]);
            r2 += ref.acc[i][c] * ref.acc[i][c];
        }
        if (r2 > 0) e.push_back(std::isfinite(d2) ? std::sqrt(d2 / r2) : INFINITY);
        const double dp = std::fabs(got[i].w - phiRef[i]);
        if (phiRef[i] != 0) ep.push_back(std::isfinite(dp) ? dp / std::fabs(phiRef[i]) : INFINITY);
        sum += bodies[i].pos.w * double(got[i].w);
        sumRef += bodies[i].pos.w * phiRef[i];
    }
    std::sort(e.begin(), e.end());
    std::sort(ep.begin(), ep.end());
    Errors r;
    if (!e.empty())
        r.median = e[e.size() / 2], r.p99 = e[std::min(e.size() - 1, e.size() * 99 / 100)];
    if (!ep.empty()) r.phiMedian = ep[ep.size() / 2];
    r.energy = sumRef != 0 ? std::fabs(sum - sumRef) / std::fabs(sumRef) : std::fabs(sum);
    return r;
}

// Two Plummer spheres of n / 2 bodies (radius ~1) `apart` units apart along a skew axis, so that
// the other clump's cells are far for every walk group.
std::vector<Body> twoClumps(std::size_t n, double apart) {
    auto a = makePreset(NbodyPreset::Plummer, n / 2, 21);
    const auto b = makePreset(NbodyPreset::Plummer, n - n / 2, 22);
    const double s = apart / std::sqrt(3.0);
    for (Body x : b) {
        x.pos.x = float(x.pos.x + s), x.pos.y = float(x.pos.y - s), x.pos.z = float(x.pos.z + s);
        a.push_back(x);
    }
    return a;
}

// Issue 13's accuracy line at theta = 0.5 (median <= 1e-3, p99 <= 1e-2), forces and potentials,
// with the far field on, and the far field's own share of the error: the expansion may move the
// result away from the walk without it by at most `ownMedian` (median over the bodies).
void expectAccurate(const std::vector<Body>& bodies, float softening, const char* what,
                    double ownMedian) {
    const auto on = run(tree(kThetaFar), bodies, softening, 0.5f);
    const double listOn = tree(kThetaFar).lastWalkStats().interactionsPerBody;
    const auto off = run(tree(0), bodies, softening, 0.5f);
    const double listOff = tree(0).lastWalkStats().interactionsPerBody;
    const Errors e = errors(on, bodies, softening), e0 = errors(off, bodies, softening);
    EXPECT_LE(e.median, 1e-3) << what;
    EXPECT_LE(e.p99, 1e-2) << what;
    EXPECT_LE(e.phiMedian, 1e-3) << what;
    EXPECT_LE(e.energy, 1e-3) << what;
    std::vector<double> moved;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double dx = on[i].x - off[i].x, dy = on[i].y - off[i].y, dz = on[i].z - off[i].z;
        const double a = std::sqrt(double(off[i].x) * off[i].x + double(off[i].y) * off[i].y +
                                   double(off[i].z) * off[i].z);
        if (a > 0) moved.push_back(std::sqrt(dx * dx + dy * dy + dz * dz) / a);
    }
    std::sort(moved.begin(), moved.end());
    const double movedMedian = moved.empty() ? 0 : moved[moved.size() / 2];
    EXPECT_LE(movedMedian, ownMedian) << what;
    // The far field took cells off the per-body lists (else this would test the walk alone).
    EXPECT_LT(listOn, 0.95 * listOff) << what;
    std::printf(
        "%s: far field median %.2e p99 %.2e phi %.2e energy %.2e (without: %.2e %.2e), moved "
        "%.2e, list/body %.0f -> %.0f\n",
        what, e.median, e.p99, e.phiMedian, e.energy, e0.median, e0.p99, movedMedian, listOff,
        listOn);
}

TEST(NbodyTreeFarField, WithinTheAccuracyLineAtAwkwardN) {
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    for (std::size_t n : {1, 2, 3, 31, 257, 1009, 4099}) {
        const auto bodies = makePreset(NbodyPreset::Plummer, n, 5);
        const Errors e = errors(run(tree(kThetaFar), bodies, eps, 0.5f), bodies, eps);
        EXPECT_LE(e.median, 1e-3) << "n = " << n;
        EXPECT_LE(e.p99, 1e-2) << "n = " << n;
        EXPECT_LE(e.phiMedian, 1e-3) << "n = " << n;
        EXPECT_LE(e.energy, 1e-3) << "n = " << n;
    }
}

TEST(NbodyTreeFarField, PlummerSphere) {
    expectAccurate(makePreset(NbodyPreset::Plummer, 8191, 3),
                   presetInfo(NbodyPreset::Plummer).softening, "plummer 8191", 1.5e-4);
}

// The other clump's cells are far for every group: a wrong or missing term of the expansion (a
// symmetric partner of G, the third order, the quadrupole's share) moves the forces by far more
// than the third order's truncation.
TEST(NbodyTreeFarField, TwoClumpsFarApart) {
    const auto bodies = twoClumps(6007, 40.0);
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    expectAccurate(bodies, eps, "two clumps 6007", 1e-4);
}

TEST(NbodyTreeFarField, NoSofteningAndZeroMasses) {
    auto bodies = twoClumps(2003, 30.0);
    for (std::size_t i = 0; i < bodies.size(); i += 3)
        bodies[i].pos.w = 0;  // massless bodies: cells of zero mass among the far ones
    for (std::size_t i = 1000; i < 1100; ++i)
        bodies[i].pos.w = 0;
    const Errors e = errors(run(tree(kThetaFar), bodies, 0.0f, 0.5f), bodies, 0.0f);
    EXPECT_LE(e.median, 1e-3);
    EXPECT_LE(e.p99, 1e-2);
}

// The far-field build with an angle no cell meets sums exactly what the build without it sums
// (its near lists are the same, in the same order, plus an expansion of zeros): the far field
// leaves the rest of the walk alone. It gets the other build's list length and stack, so that the
// lists are summed at the same points. And it is on by default in the group walk.
TEST(NbodyTreeFarField, NoFarCellIsTheWalkWithoutItBitForBit) {
    TreeForceOptions o{TreeWalk::Group};
    o.thetaFar = 1e-7f;
    o.listSize = tree(0).walkListSize();
    o.stackSize = tree(0).walkStackSize();
    TreeForce none(context(), o);
    EXPECT_GT(none.thetaFar(), 0.0f);
    EXPECT_GT(TreeForce(context(), TreeForceOptions{TreeWalk::Group}).thetaFar(), 0.0f);
    EXPECT_EQ(TreeForce(context(), TreeForceOptions{TreeWalk::Body}).thetaFar(), 0.0f);
    const auto bodies = twoClumps(3001, 40.0);
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    const auto a = run(none, bodies, eps, 0.5f);
    const auto b = run(tree(0), bodies, eps, 0.5f);
    const auto c = run(tree(kThetaFar), bodies, eps, 0.5f);
    bool anyDiffers = false;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        // Where the device adds in a fixed order (PoCL) the same lists give the same bits.
        if (context().info().kind == DeviceKind::Cpu) {
            ASSERT_EQ(a[i].x, b[i].x) << i;
            ASSERT_EQ(a[i].y, b[i].y) << i;
            ASSERT_EQ(a[i].z, b[i].z) << i;
            ASSERT_EQ(a[i].w, b[i].w) << i;
        }
        anyDiffers = anyDiffers || c[i].x != b[i].x;
    }
    EXPECT_TRUE(anyDiffers) << "the far field changed nothing: the comparison cannot fail";
}

// Other walk shapes: work-groups of 32 and 256, and two bodies per work-item (each evaluates the
// expansion for both): the same accuracy, and a small departure from the walk without it (larger
// for small groups, whose far cells may be larger for their distance: 2e-4 for 32 x 1 on PoCL).
TEST(NbodyTreeFarField, OtherGroupShapes) {
    const auto bodies = makePreset(NbodyPreset::Plummer, 6007, 6);
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    for (auto [group, bpi] : {std::pair{64, 2}, std::pair{32, 1}, std::pair{256, 1}}) {
        TreeForceOptions o{TreeWalk::Group};
        o.groupSize = group;
        o.bodiesPerItem = bpi;
        o.thetaFar = kThetaFar;
        TreeForce on(context(), o);
        o.thetaFar = 0;
        TreeForce off(context(), o);
        const auto a = run(on, bodies, eps, 0.5f), b = run(off, bodies, eps, 0.5f);
        const Errors e = errors(a, bodies, eps);
        EXPECT_LE(e.median, 1e-3) << group << " x " << bpi;
        EXPECT_LE(e.p99, 1e-2) << group << " x " << bpi;
        std::vector<double> moved;
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const double dx = a[i].x - b[i].x, dy = a[i].y - b[i].y, dz = a[i].z - b[i].z;
            moved.push_back(std::sqrt(
                (dx * dx + dy * dy + dz * dz) /
                (double(b[i].x) * b[i].x + double(b[i].y) * b[i].y + double(b[i].z) * b[i].z)));
        }
        std::sort(moved.begin(), moved.end());
        EXPECT_LE(moved[moved.size() / 2], 4e-4) << group << " x " << bpi;
        std::printf("%d x %d: median %.2e p99 %.2e, moved %.2e\n", group, bpi, e.median, e.p99,
                    moved[moved.size() / 2]);
    }
}

// The walk's stack and lists by default: a stack of 1024, and lists of 768 bodies with the
// third-order far field and work-groups of 128 (7 work-groups per multiprocessor on an H100; the
// far coefficients' shares are private, which leaves the lists the room), else 512; sizes
// asked for are kept (the stack at least the work-group + 256), and switching the far field on or
// off moves the defaults with it.
TEST(NbodyTreeFarField, WalkShapeFollowsTheFarField) {
    using Shape = std::pair<int, int>;  // (stack entries, list bodies)
    const auto shape = [](const TreeForce& t) {
        return Shape{t.walkStackSize(), t.walkListSize()};
    };
    const Shape farShape{1024, 768}, plain{1024, 512};
    TreeForceOptions o{TreeWalk::Group};
    o.thetaFar = kThetaFar;
    TreeForce far(context(), o);
    EXPECT_EQ(shape(far), farShape);
    far.setThetaFar(0);
    EXPECT_EQ(shape(far), plain);
    far.setThetaFar(kThetaFar);
    EXPECT_EQ(shape(far), farShape);
    o.farOrder = 4;
    EXPECT_EQ(shape(TreeForce(context(), o)), plain);
    o.farOrder = 3;
    o.groupSize = 256;
    EXPECT_EQ(shape(TreeForce(context(), o)), plain);
    o.groupSize = 128;
    o.stackSize = 768;
    EXPECT_EQ(TreeForce(context(), o).walkStackSize(), 768);
    o.stackSize = 0;
    o.listSize = 1024;
    EXPECT_EQ(TreeForce(context(), o).walkListSize(), 1024);
    o.listSize = 0;
    o.stackSize = 100;
    EXPECT_EQ(TreeForce(context(), o).walkStackSize(), 128 + 256);
    o.stackSize = 0;
    o.thetaFar = 0;
    EXPECT_EQ(shape(TreeForce(context(), o)), plain);
}

// A walk whose front of opened cells outgrows the stack (here the smallest stack, WG + 256) pops
// as many cells as the stack has room for (see walk in kernels/nbody_tree.cl): more iterations than
// with the default stack, but its longest group a few times the default's, not one node at a time
// (a group of the colliding galaxies' dense core had taken 27 times as long as every other,
// docs/benchmarks.md, session 10). The same cells in another order: the same forces to float
// rounding.
TEST(NbodyTreeFarField, SmallStackSameForces) {
    const auto bodies = makePreset(NbodyPreset::Plummer, 6007, 8);
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    TreeForce& usual = tree(kThetaFar);  // the default stack
    ASSERT_EQ(usual.walkStackSize(), 1024);
    TreeForceOptions o{TreeWalk::Group};
    o.thetaFar = kThetaFar;
    o.stackSize = 1;  // raised to the least the walk takes
    TreeForce small(context(), o);
    ASSERT_EQ(small.walkStackSize(), small.groupSize() + 256);
    const auto a = run(usual, bodies, eps, 0.5f);
    const TreeWalkStats su = usual.lastWalkStats();
    const auto b = run(small, bodies, eps, 0.5f);
    const TreeWalkStats ss = small.lastWalkStats();
    EXPECT_GT(ss.iterationsPerGroup, su.iterationsPerGroup) << "the small stack never filled";
    EXPECT_LE(ss.maxIterations, 3 * su.maxIterations) << "one node at a time";
    EXPECT_NEAR(ss.interactionsPerBody, su.interactionsPerBody, 1e-9);
    double worst = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double dx = a[i].x - b[i].x, dy = a[i].y - b[i].y, dz = a[i].z - b[i].z;
        const double n2 =
            double(a[i].x) * a[i].x + double(a[i].y) * a[i].y + double(a[i].z) * a[i].z;
        if (n2 > 0) worst = std::max(worst, std::sqrt((dx * dx + dy * dy + dz * dz) / n2));
    }
    EXPECT_LE(worst, 1e-4);
    std::printf("iterations %.1f -> %.1f, the longest group's %d -> %d, largest departure %.2e\n",
                su.iterationsPerGroup, ss.iterationsPerGroup, su.maxIterations, ss.maxIterations,
                worst);
}

// Median and 99th percentile of |a - b| / |b| over the bodies with b != 0.
std::pair<double, double> departure(const std::vector<Float4>& a, const std::vector<Float4>& b) {
    std::vector<double> moved;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double dx = a[i].x - b[i].x, dy = a[i].y - b[i].y, dz = a[i].z - b[i].z;
        const double n2 =
            double(b[i].x) * b[i].x + double(b[i].y) * b[i].y + double(b[i].z) * b[i].z;
        if (n2 > 0) moved.push_back(std::sqrt((dx * dx + dy * dy + dz * dz) / n2));
    }
    std::sort(moved.begin(), moved.end());
    if (moved.empty()) return {0, 0};
    return {moved[moved.size() / 2], moved[std::min(moved.size() - 1, moved.size() * 99 / 100)]};
}

// The group walk's forces on `bodies` at theta 0.5: without the far field, then with it at
// thetaFar 0.6 to the third and to the fourth order.
std::array<std::vector<Float4>, 3> withoutAndWithTheFarField(const std::vector<Body>& bodies,
                                                             float eps) {
    std::array<std::vector<Float4>, 3> got;
    for (int order : {0, 3, 4}) {
        TreeForceOptions o{TreeWalk::Group};
        o.thetaFar = order ? 0.6f : 0.0f;
        o.farOrder = order ? order : 4;
        TreeForce t(context(), o);
        got[order ? order - 2 : 0] = run(t, bodies, eps, 0.5f);
    }
    return got;
}

// The fourth order (TreeForceOptions::farOrder 4: the monopole's U and the quadrupole's T) against
// the third, at a wide angle where the truncation shows: each order's departure from the walk
// without the far field, whose truncation goes as thetaFar^4 against thetaFar^3. On two clumps
// 8 apart (the other clump's cells are far and large for their distance) and a Plummer sphere
// (far cells of every size at the groups' edges), the fourth order's median and 99th percentile
// must be under half the third's, and under fixed bounds: a term of U or of the quadrupole's T
// dropped or wrong leaves the fourth order near the third.
TEST(NbodyTreeFarField, FourthOrderDepartsLessThanTheThird) {
    const float eps = presetInfo(NbodyPreset::Plummer).softening;
    struct Case {
        const char* what;
        std::vector<Body> bodies;
        double median, p99;  // bounds on the fourth order's departure
    };
    const Case cases[] = {
        {"two clumps 5003, 8 apart", twoClumps(5003, 8.0), 8e-5, 2e-3},
        {"plummer 6007", makePreset(NbodyPreset::Plummer, 6007, 4), 1.2e-4, 3e-3}};
    for (const Case& c : cases) {
        const auto got = withoutAndWithTheFarField(c.bodies, eps);
        const auto [m3, p3] = departure(got[1], got[0]);
        const auto [m4, p4] = departure(got[2], got[0]);
        std::printf("%s: departure order 3 median %.2e p99 %.2e, order 4 median %.2e p99 %.2e\n",
                    c.what, m3, p3, m4, p4);
        EXPECT_LT(m4, 0.5 * m3) << c.what;
        EXPECT_LT(p4, 0.5 * p3) << c.what;
        EXPECT_LE(m4, c.median) << c.what;
        EXPECT_LE(p4, c.p99) << c.what;
        const Errors e = errors(got[2], c.bodies, eps);
        EXPECT_LE(e.median, 1e-3) << c.what;
        EXPECT_LE(e.p99, 1e-2) << c.what;
    }
}

// A small walk group far from an elongated clump: 100 bodies in a cube of side 0.5 (one or two walk
// groups, whose own cells are never far) and 4,000 in a box of 3.2 x 2 x 1 (no tails to share the
// small group's walk group; cells with large quadrupoles) `apart` away along a skew axis, so that
// the small group's far field is the box's cells alone. The small group's bodies' departure from
// the walk without the far field is then the expansion's truncation alone: of the order of
// (r_g / R)^4 of the pull with the fourth order, ^3 with the third.
std::vector<Body> smallGroupBesideAClump(double apart) {
    auto small = makePreset(NbodyPreset::UniformCube, 100, 31);
    for (Body& b : small)
        b.pos.x *= 0.25f, b.pos.y *= 0.25f, b.pos.z *= 0.25f;
    const double ax = 1 / std::sqrt(1 + 0.49 + 0.25);
    for (Body b : makePreset(NbodyPreset::UniformCube, 4000, 32)) {
        b.pos.x = float(1.6 * b.pos.x + apart * ax), b.pos.y = float(b.pos.y - apart * 0.7 * ax);
        b.pos.z = float(0.5 * b.pos.z + apart * 0.5 * ax);
        small.push_back(b);
    }
    return small;
}

TEST(NbodyTreeFarField, FourthOrderTruncationOfABoxsPull) {
    const auto bodies = smallGroupBesideAClump(5.0);
    const float eps = 0.05f;
    auto got = withoutAndWithTheFarField(bodies, eps);
    for (auto& g : got)
        g.resize(100);  // the small group's bodies
    const auto [m3, p3] = departure(got[1], got[0]);
    const auto [m4, p4] = departure(got[2], got[0]);
    std::printf(
        "small group beside a box: departure order 3 median %.2e p99 %.2e, order 4 "
        "median %.2e p99 %.2e\n",
        m3, p3, m4, p4);
    // PoCL: order 3 median 1.4e-6, p99 9.8e-6; order 4 1.4e-7 and 1.0e-6. Planted faults (one term
    // of U dropped from the sums or from the evaluation, the quadrupole's T dropped) left the
    // fourth order at 0.47 .. 0.74 of the third's median and 0.37 .. 0.75 of its p99.
    EXPECT_GT(m3, 5e-7) << "the far field's truncation is under float rounding: nothing to test";
    EXPECT_LT(m4, 0.25 * m3);
    EXPECT_LT(p4, 0.3 * p3);
    EXPECT_LE(m4, 3.5e-7);
}

// Each preset's suggested far-field angle (NbodyPresetInfo::thetaFar, what the preset setting and
// the bench apply) keeps issue 13's line on that preset at theta 0.5 and 0.55, with the fourth
// order, against the double direct sum (20,000 bodies, as tree_test's accuracy tests).
TEST(NbodyTreeFarField, EveryPresetsSuggestedAngleKeepsTheLine) {
    for (const NbodyPresetInfo& info : allNbodyPresets()) {
        const auto bodies = makePreset(info.preset, 20000, 1);
        TreeForceOptions o{TreeWalk::Group};
        o.thetaFar = info.thetaFar;
        TreeForce t(context(), o);
        EXPECT_GT(t.thetaFar(), 0.0f) << info.name;
        for (float theta : {0.5f, 0.55f}) {
            const Errors e = errors(run(t, bodies, info.softening, theta), bodies, info.softening);
            EXPECT_LE(e.median, 1e-3) << info.name << " theta " << theta;
            EXPECT_LE(e.p99, 1e-2) << info.name << " theta " << theta;
            std::printf("%s, theta %.2f, theta-far %.2f: median %.2e p99 %.2e\n", info.name, theta,
                        info.thetaFar, e.median, e.p99);
        }
    }
}

TEST(NbodyTreeFarField, RefusesAnglesOutsideZeroToOne) {
    for (float bad : {1.0f, 1.5f, -2.0f, NAN}) {
        TreeForceOptions o{TreeWalk::Group};
        o.thetaFar = bad;
        EXPECT_THROW(TreeForce(context(), o), Error) << bad;
        TreeForce t(context(), TreeForceOptions{TreeWalk::Group});
        EXPECT_THROW(t.setThetaFar(bad), Error) << bad;
    }
}

TEST(NbodyTreeFarField, RefusesOrdersOtherThanThreeAndFour) {
    for (int bad : {0, 2, 5, -1}) {
        TreeForceOptions o{TreeWalk::Group};
        o.farOrder = bad;
        EXPECT_THROW(TreeForce(context(), o), Error) << bad;
    }
}

// The angle set on a built walk (the theta-far setting): switching the far field on and off
// rebuilds the walk, and each state gives exactly what a walk built with that angle gives.
TEST(NbodyTreeFarField, AngleSetOnABuiltWalkIsTheWalkBuiltWithIt) {
    const auto bodies = twoClumps(3001, 40);
    const float eps = 0.05f;
    TreeForceOptions o{TreeWalk::Group};
    o.thetaFar = 0;
    TreeForce switched(context(), o);
    const auto offFirst = run(switched, bodies, eps, 0.5f);
    EXPECT_EQ(switched.thetaFar(), 0.0f);
    switched.setThetaFar(kThetaFar);
    EXPECT_EQ(switched.thetaFar(), kThetaFar);
    const auto on = run(switched, bodies, eps, 0.5f);
    switched.setThetaFar(0);
    const auto offAgain = run(switched, bodies, eps, 0.5f);
    // Where the device adds in a fixed order (PoCL) the same walk gives the same bits; a GPU fills
    // a group's lists in another order each run (within 5e-5 of the acceleration, as tree_test).
    const bool exact = context().info().kind == DeviceKind::Cpu;
    const auto equal = [exact](const std::vector<Float4>& a, const std::vector<Float4>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double dx = a[i].x - b[i].x, dy = a[i].y - b[i].y, dz = a[i].z - b[i].z;
            const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
            const double norm = std::sqrt(double(b[i].x) * b[i].x + double(b[i].y) * b[i].y +
                                          double(b[i].z) * b[i].z);
            if (exact ? (d != 0 || a[i].w != b[i].w) : d > 5e-5 * norm) return false;
        }
        return true;
    };
    EXPECT_TRUE(equal(on, run(tree(kThetaFar), bodies, eps, 0.5f)));
    EXPECT_TRUE(equal(offFirst, run(tree(0), bodies, eps, 0.5f)));
    EXPECT_TRUE(equal(offAgain, offFirst));
    EXPECT_FALSE(equal(on, offFirst)) << "the far field changed nothing: it did not switch on";
}

}  // namespace
}  // namespace clviz
