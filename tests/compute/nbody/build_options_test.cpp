// The force kernel's build options and launch config as a pure function of the request and a
// made-up device: each variant's -D switches, fp64, NVIDIA's extras, and every clamp with the
// note that says so. No OpenCL device needed.
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/error.hpp"
#include "compute/core/device_info.hpp"
#include "compute/nbody/build_options.hpp"

using namespace clviz;

namespace {

DeviceInfo device(const char* name, DeviceKind kind, unsigned computeUnits,
                  std::size_t maxWorkGroup, std::uint64_t localBytes,
                  std::vector<std::string> extensions) {
    DeviceInfo d;
    d.name = name;
    d.kind = kind;
    d.computeUnits = computeUnits;
    d.maxWorkGroupSize = maxWorkGroup;
    d.localMemBytes = localBytes;
    d.extensions = std::move(extensions);
    return d;
}

DeviceInfo nvidiaGpu() {
    return device("Test GPU", DeviceKind::Gpu, 132, 1024, 48 * 1024,
                  {"cl_khr_fp64", "cl_nv_compiler_options"});
}

DeviceInfo cpu() {
    return device("Test CPU", DeviceKind::Cpu, 2, 4096, 4 * 1024 * 1024, {"cl_khr_fp64"});
}

NbodyForceBuildRequest request(NbodyVariant v, int wg, int unroll, int bpi, int split = 0,
                               std::size_t n = 1 << 16) {
    NbodyForceBuildRequest r;
    r.config = {v, wg, unroll, bpi, split};
    r.n = n;
    return r;
}

bool has(const std::string& options, const std::string& what) {
    return (" " + options + " ").find(" " + what + " ") != std::string::npos;
}

}  // namespace

TEST(NbodyBuildOptions, EachVariantGetsItsSwitchAndTheResolvedTunables) {
    const struct {
        NbodyVariant variant;
        const char* define;
        int unroll, bpi, split;  // as built from a request of 8, 2, 4
    } cases[] = {
        {NbodyVariant::Naive, "-DVARIANT_NAIVE", 1, 1, 1},
        {NbodyVariant::Tiled, "-DVARIANT_TILED", 1, 1, 1},
        {NbodyVariant::Unrolled, "-DVARIANT_UNROLLED", 8, 2, 1},
        {NbodyVariant::Vectorized, "-DVARIANT_VECTORIZED", 8, 2, 1},
        {NbodyVariant::AsyncCopy, "-DVARIANT_ASYNC_COPY", 8, 2, 1},
        {NbodyVariant::SmallN, "-DVARIANT_SMALL_N", 8, 2, 4},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(variantName(c.variant));
        const NbodyForceBuild b = nbodyForceBuild(request(c.variant, 64, 8, 2, 4), cpu());
        EXPECT_TRUE(has(b.options, c.define)) << b.options;
        EXPECT_TRUE(has(b.options, "-DWG=64")) << b.options;
        EXPECT_TRUE(has(b.options, "-DUNROLL=" + std::to_string(c.unroll))) << b.options;
        EXPECT_TRUE(has(b.options, "-DBPI=" + std::to_string(c.bpi))) << b.options;
        EXPECT_TRUE(has(b.options, "-DSPLIT=" + std::to_string(c.split))) << b.options;
        EXPECT_TRUE(has(b.options, "-cl-fast-relaxed-math")) << b.options;
        EXPECT_FALSE(has(b.options, "-DREAL_DOUBLE")) << b.options;
        EXPECT_FALSE(has(b.options, "-DSELF_GUARD")) << b.options;
        EXPECT_EQ(b.config.workGroupSize, 64);
        EXPECT_EQ(b.config.unroll, c.unroll);
        EXPECT_EQ(b.config.bodiesPerItem, c.bpi);
        EXPECT_EQ(b.config.split, c.split);
        EXPECT_EQ(b.note, "");
        // Naive: one body per work-item; the others: (wg / split) work-items x bodies per item.
        EXPECT_EQ(b.bodiesPerGroup,
                  c.variant == NbodyVariant::Naive ? 64u : std::size_t(64 / c.split) * c.bpi);
    }
}

TEST(NbodyBuildOptions, DoublePrecisionAndTheSelfInteractionGuard) {
    auto r = request(NbodyVariant::Tiled, 64, 1, 1);
    r.precision = NbodyPrecision::Double;
    r.softening = 0.0f;
    const auto b = nbodyForceBuild(r, nvidiaGpu());
    EXPECT_TRUE(has(b.options, "-DREAL_DOUBLE")) << b.options;
    EXPECT_TRUE(has(b.options, "-DSELF_GUARD")) << b.options;
    EXPECT_FALSE(has(b.options, "-DNV_INLINE_PTX")) << b.options;  // the float rsqrt only
}

TEST(NbodyBuildOptions, NvidiaExtrasOnlyWhereTheyApply) {
    auto r = request(NbodyVariant::Unrolled, 256, 4, 2);
    EXPECT_TRUE(has(nbodyForceBuild(r, nvidiaGpu()).options, "-DNV_INLINE_PTX"));
    EXPECT_FALSE(has(nbodyForceBuild(r, cpu()).options, "-DNV_INLINE_PTX"));
    r.inlinePtx = false;  // the compiler refused it once
    EXPECT_FALSE(has(nbodyForceBuild(r, nvidiaGpu()).options, "-DNV_INLINE_PTX"));
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).options.find("maxrregcount"), std::string::npos);

    r.verboseBuildLog = true;
    EXPECT_TRUE(has(nbodyForceBuild(r, nvidiaGpu()).options, "-cl-nv-verbose"));
    EXPECT_FALSE(has(nbodyForceBuild(r, cpu()).options, "-cl-nv-verbose"));

    // Above 256 work-items: at most 65536 / wg registers each, a multiple of 8.
    r.config.workGroupSize = 512;
    EXPECT_TRUE(has(nbodyForceBuild(r, nvidiaGpu()).options, "-cl-nv-maxrregcount=128"));
    r.config.workGroupSize = 1024;
    EXPECT_TRUE(has(nbodyForceBuild(r, nvidiaGpu()).options, "-cl-nv-maxrregcount=64"));
    EXPECT_EQ(nbodyForceBuild(r, cpu()).options.find("maxrregcount"), std::string::npos);
}

TEST(NbodyBuildOptions, WorkGroupAboveTheDeviceLimitIsClampedAndSaid) {
    DeviceInfo d = cpu();
    d.maxWorkGroupSize = 96;  // not a power of two: the largest one below
    const auto b = nbodyForceBuild(request(NbodyVariant::Tiled, 256, 1, 1), d);
    EXPECT_EQ(b.config.workGroupSize, 64);
    EXPECT_TRUE(has(b.options, "-DWG=64")) << b.options;
    EXPECT_EQ(b.note, "work-group size 256 exceeds the device limit; using 64");
}

TEST(NbodyBuildOptions, LocalMemoryLimitHalvesTheGroupUntilTheTilesFit) {
    DeviceInfo d = nvidiaGpu();
    d.localMemBytes = 16 * 1024;
    auto r = request(NbodyVariant::AsyncCopy, 512, 4, 1);
    r.precision = NbodyPrecision::Double;  // two tiles of 32-byte bodies: 32 KiB at 512
    const auto b = nbodyForceBuild(r, d);
    EXPECT_EQ(b.config.workGroupSize, 256);
    EXPECT_NE(
        b.note.find("work-group size 512 needs 32.0 KiB of local memory (device has 16.0 KiB)"),
        std::string::npos)
        << b.note;
    // Naive keeps no tile: no local memory, no clamp.
    EXPECT_EQ(nbodyForceBuild(request(NbodyVariant::Naive, 1024, 1, 1), d).config.workGroupSize,
              1024);
    EXPECT_EQ(nbodyLocalBytes(NbodyVariant::Tiled, 64, NbodyPrecision::Float), 64u * 16);
}

TEST(NbodyBuildOptions, VectorizedNeedsFourWorkItems) {
    const auto b = nbodyForceBuild(request(NbodyVariant::Vectorized, 2, 1, 1), cpu());
    EXPECT_EQ(b.config.workGroupSize, 4);
    EXPECT_EQ(b.note, "vectorized needs work-groups of at least 4");
}

// The vectorized kernel's j-vector is the device's native SIMD width for the precision, 4 to 16,
// at most the work-group; $CLVIZ_NBODY_VECTOR_WIDTH overrides it.
TEST(NbodyBuildOptions, VectorWidthFollowsTheDeviceSimd) {
    DeviceInfo avx512 = cpu();
    avx512.nativeFloatWidth = 16;
    avx512.nativeDoubleWidth = 8;
    auto options = [](const NbodyForceBuildRequest& r, const DeviceInfo& d) {
        return nbodyForceBuild(r, d).options;
    };
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 64, 2, 1), avx512), "-DVW=16"));
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 8, 1, 1), avx512), "-DVW=8"));
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 4, 1, 1), avx512), "-DVW=4"));
    auto fp64 = request(NbodyVariant::Vectorized, 64, 2, 1);
    fp64.precision = NbodyPrecision::Double;
    EXPECT_TRUE(has(options(fp64, avx512), "-DVW=8"));
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 256, 2, 1), nvidiaGpu()), "-DVW=4"));
    EXPECT_FALSE(options(request(NbodyVariant::Unrolled, 64, 2, 1), avx512).find("-DVW") !=
                 std::string::npos);
    // The tile walk is wg / VW vectors: the unroll factor is clamped to it.
    EXPECT_EQ(nbodyForceBuild(request(NbodyVariant::Vectorized, 64, 64, 1), avx512).config.unroll,
              4);
    setenv("CLVIZ_NBODY_VECTOR_WIDTH", "8", 1);
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 64, 2, 1), avx512), "-DVW=8"));
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 64, 2, 1), nvidiaGpu()), "-DVW=8"));
    setenv("CLVIZ_NBODY_VECTOR_WIDTH", "5", 1);  // not a width: ignored
    EXPECT_TRUE(has(options(request(NbodyVariant::Vectorized, 64, 2, 1), avx512), "-DVW=16"));
    unsetenv("CLVIZ_NBODY_VECTOR_WIDTH");
}

TEST(NbodyBuildOptions, UnrollIsClampedToTheTileWalk) {
    // Unrolled walks wg bodies; vectorized wg / 4 float4 groups; small-n wg / split.
    EXPECT_EQ(nbodyForceBuild(request(NbodyVariant::Unrolled, 8, 64, 1), cpu()).config.unroll, 8);
    EXPECT_EQ(nbodyForceBuild(request(NbodyVariant::Vectorized, 16, 64, 1), cpu()).config.unroll,
              4);
    EXPECT_EQ(nbodyForceBuild(request(NbodyVariant::SmallN, 64, 64, 1, 8), cpu()).config.unroll, 8);
}

TEST(NbodyBuildOptions, SmallNSplitFillsTheDeviceAndStaysWithinTheGroup) {
    // 132 compute units want 528 groups; 4096 bodies in groups of 256 / split bodies.
    auto r = request(NbodyVariant::SmallN, 256, 8, 1, 0, 4096);
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).config.split, 32);  // capped at 32
    r.n = 1 << 20;  // plenty of groups without splitting
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).config.split, 1);
    r.n = 16384;  // 64 groups at split 1, 528 wanted: 16 gives 1024
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).config.split, 16);
    r.config.workGroupSize = 8;
    r.config.split = 32;  // more than the group has
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).config.split, 8);
}

TEST(NbodyBuildOptions, KernelLimitRebuildsSmallerAndSaysWhy) {
    auto r = request(NbodyVariant::SmallN, 512, 8, 2, 0, 1 << 20);
    r.kernelMaxWorkGroup = 384;
    const auto b = nbodyForceBuild(r, nvidiaGpu());
    EXPECT_EQ(b.config.workGroupSize, 256);
    EXPECT_TRUE(has(b.options, "-DWG=256")) << b.options;
    EXPECT_FALSE(has(b.options, "-cl-nv-maxrregcount=128")) << b.options;
    EXPECT_EQ(b.note, "this kernel runs at most 384 work-items per group on Test GPU; using 256");
    r.kernelMaxWorkGroup = 1024;  // fits: nothing to say
    EXPECT_EQ(nbodyForceBuild(r, nvidiaGpu()).note, "");
}

TEST(NbodyBuildOptions, DeviceDefaultsShrinkBodiesPerItemForSmallNOnGpus) {
    const auto big = nbodyDeviceDefaults(NbodyVariant::Unrolled, true, 1 << 20, 132);
    EXPECT_EQ(big.workGroupSize, 256);
    EXPECT_EQ(big.unroll, 16);
    EXPECT_EQ(big.bodiesPerItem, 4);
    EXPECT_EQ(big.split, 0);
    // 16384 / (256 x bpi) groups against 198 wanted: down to 1.
    EXPECT_EQ(nbodyDeviceDefaults(NbodyVariant::Unrolled, true, 16384, 132).bodiesPerItem, 1);
    EXPECT_EQ(nbodyDeviceDefaults(NbodyVariant::Unrolled, false, 16, 2).bodiesPerItem, 2);
    const auto tiled = nbodyDeviceDefaults(NbodyVariant::Tiled, false, 1000, 2);
    EXPECT_EQ(tiled.workGroupSize, 64);
    EXPECT_EQ(tiled.unroll, 1);
    EXPECT_EQ(tiled.bodiesPerItem, 1);
}

TEST(NbodyBuildOptions, RequestedFieldsBeatTunedOnesWhichBeatDefaults) {
    const NbodyKernelConfig defaults{NbodyVariant::Unrolled, 256, 16, 4, 0};
    const NbodyKernelConfig tuned{NbodyVariant::Unrolled, 128, 8, 2, 1};
    const NbodyKernelConfig requested{NbodyVariant::Unrolled, 0, 32, 0, 0};
    EXPECT_EQ(resolveKernelConfig(requested, defaults, nullptr),
              (NbodyKernelConfig{NbodyVariant::Unrolled, 256, 32, 4, 0}));
    EXPECT_EQ(resolveKernelConfig(requested, defaults, &tuned),
              (NbodyKernelConfig{NbodyVariant::Unrolled, 128, 32, 2, 1}));
}

// The variant table is the one place variant facts live: every reader agrees with its rows.
TEST(NbodyVariantTable, EveryReaderFollowsTheRows) {
    std::string choices;
    std::vector<NbodyVariant> kernels, candidates;
    for (const NbodyVariantRow& row : kNbodyVariants) {
        EXPECT_EQ(parseVariant(row.name), row.variant) << row.name;
        EXPECT_STREQ(variantName(row.variant), row.name);
        EXPECT_STREQ(variantDefine(row.variant), row.define);
        choices += std::string(choices.empty() ? "" : "|") + row.name;
        if (*row.define) kernels.push_back(row.variant);
        if (row.autoConsiders) candidates.push_back(row.variant);
        for (const bool gpu : {true, false}) {
            const NbodyLaunchDefaults& d = gpu ? row.gpu : row.cpu;
            // A large N: nothing shrinks.
            const NbodyKernelConfig c = nbodyDeviceDefaults(row.variant, gpu, 1u << 24, 1);
            EXPECT_EQ(c.workGroupSize, d.workGroupSize) << row.name;
            EXPECT_EQ(c.unroll, d.unroll) << row.name;
            EXPECT_EQ(c.bodiesPerItem, d.bodiesPerItem) << row.name;
        }
        EXPECT_EQ(nbodyLocalBytes(row.variant, 64, NbodyPrecision::Float),
                  std::size_t(row.localTiles) * 64 * 16)
            << row.name;
        EXPECT_EQ(nbodyLocalBytes(row.variant, 64, NbodyPrecision::Double),
                  std::size_t(row.localTiles) * 64 * 32)
            << row.name;
    }
    EXPECT_EQ(nbodyVariantChoiceText(), choices);
    EXPECT_EQ(nbodyVariantChoices().size(), std::size(kNbodyVariants));
    EXPECT_EQ(allNbodyVariants(), kernels);
    EXPECT_EQ(autoCandidates(), candidates);
    // What the rows say today: auto weighs the four tile-blocking kernels and pairs.
    EXPECT_EQ(candidates, (std::vector<NbodyVariant>{
                              NbodyVariant::Unrolled, NbodyVariant::Vectorized,
                              NbodyVariant::AsyncCopy, NbodyVariant::SmallN, NbodyVariant::Pairs}));
    EXPECT_EQ(nbodyLocalBytes(NbodyVariant::AsyncCopy, 128, NbodyPrecision::Float), 2u * 128 * 16);
    EXPECT_EQ(nbodyLocalBytes(NbodyVariant::Naive, 128, NbodyPrecision::Float), 0u);
    EXPECT_THROW(parseVariant("fastest"), Error);
}
