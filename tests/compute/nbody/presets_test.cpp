// Initial conditions, the double reference and the C++ baseline: no OpenCL needed.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "compute/nbody/cpu_baseline.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"

using namespace clviz;

TEST(NbodyPresets, ReproducibleAndSeedDependent) {
    for (const auto& p : allNbodyPresets()) {
        const auto a = makePreset(p.preset, 500, 7);
        EXPECT_EQ(a, makePreset(p.preset, 500, 7)) << p.name;
        EXPECT_NE(a, makePreset(p.preset, 500, 8)) << p.name;
        EXPECT_EQ(parsePreset(p.name), p.preset);
        EXPECT_GT(p.dt, 0.0f);
    }
    EXPECT_THROW(parsePreset("galaxy"), Error);
    EXPECT_THROW(makePreset(NbodyPreset::Plummer, 0), Error);
}

TEST(NbodyPresets, UnitMassCentredAndFinite) {
    for (const auto& p : allNbodyPresets()) {
        for (std::size_t n : {1u, 2u, 3u, 1000u}) {
            const auto b = makePreset(p.preset, n, 3);
            ASSERT_EQ(b.size(), n);
            double m = 0, c[3] = {0, 0, 0}, v[3] = {0, 0, 0};
            for (const Body& x : b) {
                for (float f : {x.pos.x, x.pos.y, x.pos.z, x.pos.w, x.vel.x, x.vel.y, x.vel.z})
                    ASSERT_TRUE(std::isfinite(f)) << p.name;
                EXPECT_GT(x.pos.w, 0.0f);
                m += x.pos.w;
                c[0] += x.pos.w * x.pos.x, c[1] += x.pos.w * x.pos.y, c[2] += x.pos.w * x.pos.z;
                v[0] += x.pos.w * x.vel.x, v[1] += x.pos.w * x.vel.y, v[2] += x.pos.w * x.vel.z;
            }
            EXPECT_NEAR(m, 1.0, 1e-5) << p.name << " N=" << n;
            if (n >= 2) {
                for (int k = 0; k < 3; ++k) {
                    EXPECT_NEAR(c[k], 0.0, 1e-5) << p.name;
                    EXPECT_NEAR(v[k], 0.0, 1e-5) << p.name;
                }
            }
        }
    }
}

TEST(NbodyPresets, PlummerIsInVirialEquilibriumInHenonUnits) {
    const auto b = makePreset(NbodyPreset::Plummer, 3000, 5);
    const auto e = referenceEnergy(NbodyReferenceState::from(b), 0.0);
    EXPECT_NEAR(2 * e.kinetic / -e.potential, 1.0,
                0.08);  // virial ratio, sampling noise ~1/sqrt(N)
    EXPECT_NEAR(e.total(), -0.25, 0.02);
}

TEST(NbodyPresets, DiskRotatesOneWay) {
    const auto b = makePreset(NbodyPreset::DiskGalaxy, 2000, 5);
    double lz = 0;
    int prograde = 0;
    for (const Body& x : b) {
        const double l = x.pos.x * x.vel.y - x.pos.y * x.vel.x;
        lz += x.pos.w * l;
        prograde += l > 0;
    }
    EXPECT_GT(lz, 0.0);
    EXPECT_GT(prograde, 1990);  // everything but the central mass and a handful of stragglers
}

TEST(NbodyReference, TwoBodiesByHand) {
    std::vector<Vec4d> pos = {{0, 0, 0, 2.0}, {3, 4, 0, 1.0}};  // distance 5
    const auto f = referenceForces(pos, 0.0);
    EXPECT_NEAR(f.acc[0][0], 1.0 * 3 / 125, 1e-15);
    EXPECT_NEAR(f.acc[0][1], 1.0 * 4 / 125, 1e-15);
    EXPECT_NEAR(f.acc[1][0], -2.0 * 3 / 125, 1e-15);
    EXPECT_NEAR(f.termSum[1], 2.0 * 5 / 125, 1e-15);
    const auto soft = referenceForces(pos, 1.0);  // (25 + 1)^(3/2)
    EXPECT_NEAR(soft.acc[0][0], 3 / std::pow(26.0, 1.5), 1e-15);
}

TEST(NbodyCpuBaseline, MatchesTheReference) {
    const auto b = makePreset(NbodyPreset::Plummer, 777, 2);
    NbodyCpuBaseline cpu(b, 0.05f);
    EXPECT_GT(cpu.forcePass(b.size(), 2), 0.0);
    const auto ref = referenceForces(NbodyReferenceState::from(b).pos, 0.05);
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double err = std::hypot(cpu.ax()[i] - ref.acc[i][0], cpu.ay()[i] - ref.acc[i][1],
                                      cpu.az()[i] - ref.acc[i][2]);
        ASSERT_LE(err, 1e-4 * ref.termSum[i]) << i;
    }
    // A partial pass (what the benchmark does for huge N) fills the first bodies only.
    NbodyCpuBaseline part(b, 0.0f);
    part.forcePass(5, 3);
    EXPECT_NE(part.ax()[4], 0.0f);
    EXPECT_EQ(part.ax()[5], 0.0f);
}
