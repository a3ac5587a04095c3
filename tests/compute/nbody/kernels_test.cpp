// Every force-kernel variant, at several work-group sizes and awkward N, against the double
// precision CPU reference: the accelerations of the initial state and the state after one step.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "common/error.hpp"
#include "compute/nbody/autotune_store.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/simulation.hpp"
#include "tests/compute/nbody/test_support.hpp"

using namespace clviz;
using clviz::test::context;

namespace {

const std::size_t kSizes[] = {1, 2, 3, 31, 256, 1000, 4099};

// A Plummer sphere with one body moved onto another (r == 0 between distinct bodies), so the
// eps == 0 cases exercise the guard on more than the self-interaction.
std::vector<Body> bodiesFor(std::size_t n) {
    auto b = makePreset(NbodyPreset::Plummer, n, 42 + n);
    if (n >= 3) b[2].pos = {b[1].pos.x, b[1].pos.y, b[1].pos.z, b[2].pos.w};
    return b;
}

// Softening per N: 0 for some sizes (the r^2 == 0 guard), 0.05 for the rest.
float softeningFor(std::size_t n) {
    return (n == 1 || n == 3 || n == 256) ? 0.0f : 0.05f;
}

struct Expected {
    std::vector<Body> start;
    NbodyReferenceForces forces;  // a(x0)
    NbodyReferenceState afterStep;
};

// The reference is the expensive part on a 2-core CI box: computed once per N.
const Expected& expected(std::size_t n, NbodyIntegrator integrator) {
    static std::map<std::pair<std::size_t, int>, Expected> cache;
    auto key = std::make_pair(n, static_cast<int>(integrator));
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    Expected e;
    e.start = bodiesFor(n);
    auto state = NbodyReferenceState::from(e.start);
    e.forces = referenceForces(state.pos, softeningFor(n));
    NbodyParams p;
    p.dt = 0.01f;
    p.softening = softeningFor(n);
    p.damping = 1.0f;
    referenceStep(state, integrator, p, 1);
    e.afterStep = std::move(state);
    return cache.emplace(key, std::move(e)).first->second;
}

void checkConfig(NbodySimulation& sim, const NbodyKernelConfig& config, NbodyIntegrator integrator,
                 double tolerance) {
    sim.setKernelConfig(config);
    sim.setIntegrator(integrator);
    for (std::size_t n : kSizes) {
        const Expected& e = expected(n, integrator);
        NbodyParams p;
        p.dt = 0.01f;
        p.softening = softeningFor(n);
        sim.setParams(p);
        sim.load(e.start);
        const std::string what = describe(sim.effectiveKernelConfig()) + " N=" + std::to_string(n) +
                                 " eps=" + std::to_string(p.softening);
        std::string where;
        const auto acc = sim.readAccelerationsDouble();
        EXPECT_LE(test::worstForceError(acc, e.forces, &where), tolerance)
            << what << " worst " << where;
        if (n > 1) {
            EXPECT_LE(test::normwiseForceError(acc, e.forces), tolerance) << what;
        }
        sim.step(1);
        const double state = worstStateError(e.start, sim.readBodies(), e.afterStep, tolerance);
        EXPECT_LE(state, 1.0) << what << " (state after one step, error / tolerance)";
    }
}

void checkVariant(NbodyVariant v, const std::vector<NbodyKernelConfig>& extra = {}) {
    NbodySimulation sim(context());
    for (int wg : {2, 32, 256}) {
        NbodyKernelConfig c;
        c.variant = v;
        c.workGroupSize = wg;
        checkConfig(sim, c, NbodyIntegrator::Leapfrog, 1e-4);
    }
    for (auto c : extra) {
        c.variant = v;
        checkConfig(sim, c, NbodyIntegrator::Taylor, 1e-4);
    }
}

NbodyKernelConfig cfg(int wg, int unroll, int bpi, int split = 0) {
    NbodyKernelConfig c;
    c.workGroupSize = wg;
    c.unroll = unroll;
    c.bodiesPerItem = bpi;
    c.split = split;
    return c;
}

}  // namespace

TEST(NbodyKernels, Naive) {
    checkVariant(NbodyVariant::Naive, {cfg(1, 0, 0)});
}
TEST(NbodyKernels, Tiled) {
    checkVariant(NbodyVariant::Tiled, {cfg(1, 0, 0)});
}
TEST(NbodyKernels, Unrolled) {
    checkVariant(NbodyVariant::Unrolled, {cfg(64, 64, 1), cfg(16, 4, 8), cfg(128, 1, 4)});
}
TEST(NbodyKernels, Vectorized) {
    checkVariant(NbodyVariant::Vectorized, {cfg(4, 1, 1), cfg(64, 16, 4)});
}
// Every j-vector width the vectorized kernel has (the device's native SIMD width is the default:
// 16 on PoCL with AVX-512, 4 on GPUs), forced through the expert override, including a tile of
// one vector (wg = VW) and a float4 group on a wide device.
TEST(NbodyKernels, VectorizedAtEveryVectorWidth) {
    for (const char* vw : {"4", "8", "16"}) {
        setenv("CLVIZ_NBODY_VECTOR_WIDTH", vw, 1);
        NbodySimulation sim(context());  // a fresh program for each width
        for (auto c : {cfg(16, 0, 0), cfg(64, 4, 2)}) {
            c.variant = NbodyVariant::Vectorized;
            checkConfig(sim, c, NbodyIntegrator::Leapfrog, 1e-4);
        }
    }
    unsetenv("CLVIZ_NBODY_VECTOR_WIDTH");
}
TEST(NbodyKernels, AsyncCopy) {
    checkVariant(NbodyVariant::AsyncCopy, {cfg(1, 1, 1), cfg(64, 8, 4)});
}
TEST(NbodyKernels, SmallN) {
    checkVariant(NbodyVariant::SmallN, {cfg(64, 4, 1, 2), cfg(128, 1, 2, 8), cfg(32, 1, 1, 32)});
}

// Each pair once: blocks of wg * bpi bodies, so these shapes give 1 block (N = 1, 2), even and odd
// block counts, and bodies per item above the pairs met per phase (bpi 8).
TEST(NbodyKernels, Pairs) {
    checkVariant(NbodyVariant::Pairs, {cfg(2, 0, 1), cfg(16, 0, 8), cfg(64, 0, 2)});
}

TEST(NbodyKernels, PairsComputeInFloatOnly) {
    NbodySimulation sim(context());
    sim.load(bodiesFor(300));
    NbodyKernelConfig pairs;
    pairs.variant = NbodyVariant::Pairs;
    sim.setKernelConfig(pairs);
    if (sim.supportsFp64()) {
        EXPECT_THROW(sim.setPrecision(NbodyPrecision::Double), Error);
    }
    const NbodyAutotuneResult tuned = sim.autotune(NbodyVariant::Pairs, 0.2);
    EXPECT_EQ(tuned.best.variant, NbodyVariant::Pairs);
    EXPECT_GT(tuned.candidates, 0);
    EXPECT_EQ(sim.effectiveKernelConfig(), tuned.best);  // 0 fields: the remembered tune
    if (!sim.supportsFp64()) return;
    sim.setKernelConfig({});
    sim.setPrecision(NbodyPrecision::Double);
    EXPECT_THROW(sim.autotune(NbodyVariant::Pairs, 0.2), Error);
}

// Auto runs the pairs variant when the auto-tune remembers it fastest, and leaves it out where it
// cannot run: in fp64 and on a slice of the bodies (several devices).
TEST(NbodyKernels, AutoPicksPairsWhereItIsFastestAndAllowed) {
    const auto bodies = bodiesFor(1000);
    auto store = std::make_shared<NbodyAutotuneStore>();
    NbodyEnvironment env;
    env.autotune = store;
    NbodySimulation sim(context(), env);
    sim.setAutoTuneBudget(0.05);
    sim.load(bodies);
    const auto key = [&](NbodyVariant v, NbodyPrecision p) {
        return NbodyAutotuneStore::key(context().info(), v, p, bodies.size());
    };
    store->store(key(NbodyVariant::Pairs, NbodyPrecision::Float),
                 {NbodyVariant::Pairs, 32, 0, 2, 0}, 1e-6);  // "faster than anything"
    sim.setVariant(NbodyVariant::Auto);
    EXPECT_EQ(sim.effectiveKernelConfig().variant, NbodyVariant::Pairs) << sim.autoChoice();
    const Expected& e = expected(1000, NbodyIntegrator::Leapfrog);
    std::string where;
    EXPECT_LE(test::worstForceError(sim.readAccelerationsDouble(), e.forces, &where), 1e-4)
        << where;

    sim.setOwnedRange(0, 500);  // half the bodies: another device has the rest
    EXPECT_NE(sim.effectiveKernelConfig().variant, NbodyVariant::Pairs) << sim.autoChoice();
    sim.setOwnedRange(0, 1000);
    if (!sim.supportsFp64()) return;
    sim.setPrecision(NbodyPrecision::Double);
    EXPECT_NE(sim.effectiveKernelConfig().variant, NbodyVariant::Pairs) << sim.autoChoice();
}

TEST(NbodyKernels, DoublePrecisionIsFarTighter) {
    NbodySimulation sim(context());
    if (!sim.supportsFp64()) GTEST_SKIP() << "no cl_khr_fp64 on " << context().info().name;
    sim.setPrecision(NbodyPrecision::Double);
    for (NbodyVariant v : allNbodyVariants()) {
        NbodyKernelConfig c;
        c.variant = v;
        c.workGroupSize = 32;
        checkConfig(sim, c, NbodyIntegrator::Leapfrog, 1e-9);
    }
}

TEST(NbodyKernels, InvalidConfigsAreClearErrors) {
    NbodySimulation sim(context());
    auto message = [&](NbodyKernelConfig c) -> std::string {
        try {
            sim.setKernelConfig(c);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(message(cfg(3, 0, 0)).find("power of two"), std::string::npos);
    EXPECT_NE(message(cfg(1 << 20, 0, 0)).find("work-group size"), std::string::npos);
    EXPECT_NE(message(cfg(64, 3, 0)).find("unroll"), std::string::npos);
    EXPECT_NE(message(cfg(64, 0, 16)).find("bodies per item"), std::string::npos);
    EXPECT_NE(message(cfg(64, 0, 0, 64)).find("split"), std::string::npos);
    EXPECT_THROW(parseVariant("fastest"), Error);
    EXPECT_EQ(parseVariant("small-n"), NbodyVariant::SmallN);
    EXPECT_EQ(variantNames().size(), 6u);
}

TEST(NbodyKernels, UnrollLargerThanTheTileIsClampedAndSaid) {
    NbodySimulation sim(context());
    sim.load(makePreset(NbodyPreset::UniformCube, 100));
    NbodyKernelConfig c = cfg(8, 64, 1);
    c.variant = NbodyVariant::Unrolled;
    sim.setKernelConfig(c);
    const auto eff = sim.effectiveKernelConfig();
    EXPECT_EQ(eff.workGroupSize, 8);
    EXPECT_EQ(eff.unroll, 8);
    EXPECT_EQ(sim.kernelConfig().unroll, 64);  // what was asked stays visible
}

TEST(NbodyKernels, SmallNSplitsToFillTheDevice) {
    NbodySimulation sim(context());
    // The built-in default, not a split some earlier auto-tune remembered in ~/.cache (the viewer's
    // auto variant tunes small-n too).
    sim.setUseAutotuneMemory(false);
    sim.load(makePreset(NbodyPreset::UniformCube, 64));
    NbodyKernelConfig c = cfg(64, 1, 1);
    c.variant = NbodyVariant::SmallN;
    sim.setKernelConfig(c);
    // The smallest split that gives every compute unit 4 groups of 64 / split bodies each.
    int want = 1;
    while (want < 32 && want < static_cast<int>(4 * context().info().computeUnits))
        want *= 2;
    EXPECT_EQ(sim.effectiveKernelConfig().split, want);
}
