// Covariance of tall-skinny matrices against CPU references: the u8 paths bit for bit (exact
// integer sums, the same centring), float within FP32 rounding of a double reference. Chunks are
// forced small so several partials are added, and shapes are awkward (1 band, primes, samples
// not a multiple of the 64-sample stage, a padded row pitch).
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "compute/linalg/covariance.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

struct Shape {
    int bands;
    std::int64_t samples;
    int chunks;
};
const Shape kShapes[] = {{1, 2, 0},    {3, 5, 1},     {13, 1000, 3},
                         {67, 389, 2}, {70, 4099, 0}, {129, 263, 4}};

class CovarianceVariants : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(CovarianceVariants, U8IsExactToTheLastBit) {
    const auto v = static_cast<CovarianceVariant>(GetParam());
    Covariance cov(context());
    for (const Shape& s : kShapes) {
        const auto x = randomBytes(std::size_t(s.bands) * s.samples, s.bands * 31 + s.samples);
        cl::Buffer dx = upload(x);
        const GramU8 want = referenceGramU8(x.data(), s.bands, s.samples);
        const GramU8 got = cov.gramU8(v, dx, s.bands, s.samples, s.chunks);
        EXPECT_EQ(got.sums, want.sums) << s.bands << " x " << s.samples << "; " << seedNote();
        EXPECT_EQ(got.gram, want.gram) << s.bands << " x " << s.samples << "; " << seedNote();
        const CovarianceResult r = cov.compute(v, SampleType::U8, dx, s.bands, s.samples, s.chunks);
        const CovarianceResult ref = referenceCovariance(x.data(), s.bands, s.samples);
        EXPECT_EQ(r.covariance, ref.covariance);  // bit for bit
        EXPECT_EQ(r.mean, ref.mean);
    }
}

TEST_P(CovarianceVariants, U8AtTheOverflowLimitStaysExact) {
    // All 255: every chunk's 32-bit partial reaches 255^2 * 33025 = 2,147,450,625 (< 2^31), and
    // the total is far above 2^32, so a missing flush or a 32-bit total would show.
    const auto v = static_cast<CovarianceVariant>(GetParam());
    const int bands = 3;
    const std::int64_t samples = 2 * kMaxU8ChunkSamples + 17;
    std::vector<std::uint8_t> x(std::size_t(bands) * samples, 255);
    x[5] = 0;  // not quite constant, so the covariance is not zero
    cl::Buffer dx = upload(x);
    Covariance cov(context());
    const GramU8 got = cov.gramU8(v, dx, bands, samples, 1);  // 1 chunk asked: capped at the limit
    EXPECT_EQ(got.gram, referenceGramU8(x.data(), bands, samples).gram);
}

TEST_P(CovarianceVariants, FloatMatchesTheDoubleReference) {
    const auto v = static_cast<CovarianceVariant>(GetParam());
    Covariance cov(context());
    for (const Shape& s : kShapes) {
        // An offset far from zero: the means must be taken out before the products.
        const auto x = randomFloats(std::size_t(s.bands) * s.samples, s.bands + s.samples, 90, 110);
        cl::Buffer dx = upload(x);
        const CovarianceResult r =
            cov.compute(v, SampleType::F32, dx, s.bands, s.samples, s.chunks);
        const CovarianceResult ref = referenceCovariance(x.data(), s.bands, s.samples);
        ASSERT_EQ(r.covariance.size(), ref.covariance.size());
        double worst = 0;
        for (std::size_t e = 0; e < r.covariance.size(); ++e)
            worst = std::max(worst, std::abs(r.covariance[e] - ref.covariance[e]));
        // Variance of U(90, 110) is 33; FP32 products and chunk sums stay within 1e-4 of it.
        EXPECT_LT(worst, 33 * 1e-4) << s.bands << " x " << s.samples << "; " << seedNote();
        for (int b = 0; b < s.bands; ++b)
            EXPECT_NEAR(r.mean[b], ref.mean[b], 1e-4);
    }
}

TEST_P(CovarianceVariants, APaddedRowPitchIsHonoured) {
    const auto v = static_cast<CovarianceVariant>(GetParam());
    const int bands = 5;
    const std::int64_t samples = 1001, pitch = 1008;
    auto padded = randomBytes(std::size_t(bands) * pitch, 77);
    std::vector<std::uint8_t> packed;
    for (int b = 0; b < bands; ++b)
        packed.insert(packed.end(), padded.begin() + b * pitch,
                      padded.begin() + b * pitch + samples);
    cl::Buffer dx = upload(padded);
    Covariance cov(context());
    EXPECT_EQ(cov.gramU8(v, dx, bands, samples, 2, nullptr, pitch).gram,
              referenceGramU8(packed.data(), bands, samples).gram);
}

TEST_P(CovarianceVariants, FloatWithAPaddedPitchAndStageTails) {
    // cov_gram_f32: rows past a 64-row tile (200 bands: tiles of 64, 64, 64 and 8 rows), a pitch
    // that is not a multiple of 4 (so no row is assumed 16-byte aligned), chunks ending
    // mid-stage, and a diagonal tile read once for both operands.
    const auto v = static_cast<CovarianceVariant>(GetParam());
    const int bands = 200;
    const std::int64_t samples = 357, pitch = 371;
    const auto padded = randomFloats(std::size_t(bands) * pitch, 4242, -3, 5);
    std::vector<float> packed;
    for (int b = 0; b < bands; ++b)
        packed.insert(packed.end(), padded.begin() + b * pitch,
                      padded.begin() + b * pitch + samples);
    cl::Buffer dx = upload(padded);
    Covariance cov(context());
    const CovarianceResult ref = referenceCovariance(packed.data(), bands, samples);
    for (int chunks : {1, 3, 7}) {
        const CovarianceResult r =
            cov.compute(v, SampleType::F32, dx, bands, samples, chunks, pitch);
        ASSERT_EQ(r.covariance.size(), ref.covariance.size());
        double worst = 0;
        for (std::size_t e = 0; e < r.covariance.size(); ++e)
            worst = std::max(worst, std::abs(r.covariance[e] - ref.covariance[e]));
        // Variance of U(-3, 5) is 5.3.
        EXPECT_LT(worst, 5.3 * 1e-5) << chunks << " chunks; " << seedNote();
    }
}

INSTANTIATE_TEST_SUITE_P(
    All, CovarianceVariants, ::testing::Range(0, kCovarianceVariantCount), [](const auto& info) {
        std::string id = covarianceVariantInfo(static_cast<CovarianceVariant>(info.param)).id;
        for (auto& ch : id)
            if (ch == '-') ch = '_';
        return id;
    });

TEST(Covariance, RefusesBadInput) {
    Covariance cov(context());
    cl::Buffer small = upload(std::vector<std::uint8_t>(10));
    EXPECT_THROW(cov.compute(CovarianceVariant::Tiled, SampleType::U8, small, 2, 1), Error);
    EXPECT_THROW(cov.compute(CovarianceVariant::Tiled, SampleType::U8, small, 4, 5), Error);
    EXPECT_THROW(cov.compute(CovarianceVariant::Tiled, SampleType::F32, small, 1, 5), Error);
    EXPECT_THROW(cov.gramU8(CovarianceVariant::Tiled, small, 0, 5), Error);
    // Partial sums larger than any buffer: refused with a message, not an OpenCL error.
    const int bands = 32767;
    const std::uint64_t perChunk = std::uint64_t(bands) * bands * 4;
    const int chunks = static_cast<int>(context().info().maxAllocBytes / perChunk) + 1;
    const std::int64_t samples = std::int64_t(chunks) * 256;
    cl::Buffer wide(context().context(), CL_MEM_READ_ONLY, std::size_t(bands) * samples);
    EXPECT_THROW(cov.gramU8(CovarianceVariant::Tiled, wide, bands, samples, chunks), Error);
}

TEST(Covariance, ChunksKeepEveryComputeUnitBusyAndStayExact) {
    Covariance cov(context());
    const int chunks = cov.defaultChunks(SampleType::U8, 224, 667418);
    EXPECT_GE(chunks * 10, static_cast<int>(context().info().computeUnits));  // 10 tile pairs
    EXPECT_GE(std::int64_t(chunks) * kMaxU8ChunkSamples, 667418);
}

// cov-tensor's all-bands kernel (kernels/cov_gram_u8_staged.cl: up to 224 bands, 16-byte aligned
// rows): 1 band, primes, a partial last row block, samples not a multiple of the 64-sample stage
// or of 16, and the row padding filled with bytes that must not be counted.
namespace {

// `someShapes`: 1 band, a partial block, an even and an odd block count, 7 blocks (the triangle
// schedule's) full and partial (each shape is a build).
void expectStagedU8ExactOnAwkwardShapes(const StagedU8Options& options, bool someShapes) {
    struct Case {
        int bands;
        std::int64_t samples, pitch;
        int chunks;
    };
    // 193-224 bands are 7 row blocks: 193 (one row in the last block), 211 and 223 (primes),
    // 200, 224 (whole blocks); 40 chunks: more than the second pass's 32 slices.
    const Case cases[] = {{1, 2, 16, 0},        {3, 389, 400, 2},   {31, 1000, 1008, 3},
                          {32, 4099, 4112, 0},  {33, 130, 144, 1},  {67, 257, 272, 2},
                          {129, 700, 704, 3},   {193, 131, 144, 2}, {200, 64, 64, 1},
                          {211, 333, 336, 3},   {223, 1, 16, 1},    {224, 1601, 1616, 4},
                          {211, 5003, 5008, 40}};
    Covariance cov(context());
    cov.setStagedU8Options(options);
    for (const Case& c : cases) {
        if (someShapes && c.bands != 1 && c.bands != 33 && c.bands != 67 && c.bands != 211 &&
            c.bands != 224)
            continue;
        ASSERT_GE(cov.u8StagedStages(c.bands, c.pitch), 2) << c.bands << " bands";
        const auto padded = randomBytes(std::size_t(c.bands) * c.pitch, c.bands * 7 + c.samples);
        std::vector<std::uint8_t> packed;
        for (int b = 0; b < c.bands; ++b)
            packed.insert(packed.end(), padded.begin() + b * c.pitch,
                          padded.begin() + b * c.pitch + c.samples);
        cl::Buffer dx = upload(padded);
        const GramU8 want = referenceGramU8(packed.data(), c.bands, c.samples);
        const GramU8 got = cov.gramU8(CovarianceVariant::Tensor, dx, c.bands, c.samples, c.chunks,
                                      nullptr, c.pitch);
        EXPECT_EQ(got.sums, want.sums) << c.bands << " x " << c.samples << "; " << seedNote();
        EXPECT_EQ(got.gram, want.gram) << c.bands << " x " << c.samples << "; " << seedNote();
    }
}

void expectStagedU8ExactAtTheOverflowLimit(const StagedU8Options& options) {
    const int bands = 35;  // two row blocks, one of 3 rows
    const std::int64_t samples = 2 * kMaxU8ChunkSamples + 17, pitch = (samples + 15) / 16 * 16;
    std::vector<std::uint8_t> x(std::size_t(bands) * pitch, 255);
    x[5] = 0;
    std::vector<std::uint8_t> packed;
    for (int b = 0; b < bands; ++b)
        packed.insert(packed.end(), x.begin() + b * pitch, x.begin() + b * pitch + samples);
    cl::Buffer dx = upload(x);
    Covariance cov(context());
    cov.setStagedU8Options(options);
    ASSERT_GE(cov.u8StagedStages(bands, pitch), 2);
    const GramU8 got = cov.gramU8(CovarianceVariant::Tensor, dx, bands, samples, 1, nullptr, pitch);
    const GramU8 want = referenceGramU8(packed.data(), bands, samples);
    EXPECT_EQ(got.gram, want.gram);  // above 2^32: the 64-bit sums (in place: atomics) hold them
    EXPECT_EQ(got.sums, want.sums);
}

// The staged kernel's options (StagedU8Options): split work-groups per chunk, more chunks per
// compute unit, chunks added in place by 64-bit atomics, swizzled stages read by ldmatrix, the
// second pass with several work-items per entry, the warps' schedule for 7 row blocks (Fano
// triangles or distances), the partials in fragment or matrix order.
// (dp4a row sums and ldmatrix: NVIDIA's path; elsewhere the portable twin runs them alike, from
// the same swizzled stages.)
struct StagedCase {
    int split, chunksPerUnit;
    bool addInPlace, rowSumsByDp4a;
    bool ldmatrix = true;
    int reduceSlices = 16;
    bool triangles = true;  // the 7-block shapes: the Fano schedule, else the distance schedule
    bool fragmentStores = true;      // split 1, two passes: partials in fragment order
    bool pairedWarps = false;        // the triangles: two warps per triangle, two tiles each
    int l2PrefetchBytes = 128;       // the copies' L2 prefetch (NVIDIA; a build option elsewhere)
    bool columnsByLdmatrix = false;  // (NVIDIA) every B fragment by ldmatrix
};
const StagedCase kStagedCases[] = {
    {1, 1, false, false},
    {2, 1, false, false},
    {4, 2, false, true},
    {1, 1, true, false},
    {2, 2, true, true},
    {3, 1, true, false},
    {1, 1, false, true},
    {1, 1, false, false, false, 1},
    {1, 1, false, false, true, 1},
    {1, 1, false, false, false, 8},
    {2, 1, false, false, false, 2},
    {1, 1, false, true, false, 4},
    {3, 2, true, false, false, 4},
    {1, 1, false, false, true, 4, false},
    {1, 1, false, false, false, 4, false},
    {1, 1, true, true, true, 4, false},
    {1, 1, false, false, true, 4, true, false},
    {1, 1, false, false, true, 1, false, false},
    // paired warps: dp4a or MMA row sums, fragment or matrix partials, added in place
    {1, 1, false, true, true, 4, true, true, true},
    {1, 1, false, false, true, 8, true, true, true},
    {1, 1, false, true, true, 2, true, false, true},
    {1, 1, true, false, true, 4, true, true, true},
    // 4 and 32 work-items per entry in the second pass (fragment and matrix order), the copies'
    // L2 prefetch
    {1, 1, false, true, true, 4},
    {1, 1, false, true, true, 32},
    {1, 1, false, false, true, 32, true, false},
    {1, 1, false, true, true, 4, true, true, false, 256},
    {1, 1, false, true, true, 32, true, true, false, 0},
    // every B fragment by ldmatrix, on the triangles and the distances
    {1, 1, false, true, true, 16, true, true, false, 128, true},
    {1, 1, false, false, true, 16, false, true, false, 128, true}};

class StagedU8OptionCases : public ::testing::TestWithParam<StagedCase> {
  protected:
    StagedU8Options options() const {
        StagedU8Options o;
        o.split = GetParam().split, o.chunksPerUnit = GetParam().chunksPerUnit;
        o.addInPlace = GetParam().addInPlace, o.rowSumsByDp4a = GetParam().rowSumsByDp4a;
        o.ldmatrix = GetParam().ldmatrix, o.reduceSlices = GetParam().reduceSlices;
        o.triangles = GetParam().triangles, o.fragmentStores = GetParam().fragmentStores;
        o.pairedWarps = GetParam().pairedWarps, o.l2PrefetchBytes = GetParam().l2PrefetchBytes;
        o.columnsByLdmatrix = GetParam().columnsByLdmatrix;
        return o;
    }
};

}  // namespace

TEST_P(StagedU8OptionCases, StagedU8IsExactOnAwkwardShapes) {
    // The defaults and the paired warps (every 7-block shape a triangle build) on every shape, the
    // other options on some.
    const StagedCase& c = GetParam();
    const StagedU8Options d;
    expectStagedU8ExactOnAwkwardShapes(
        options(),
        !c.pairedWarps &&
            (c.split != d.split || c.chunksPerUnit != d.chunksPerUnit || c.addInPlace ||
             c.rowSumsByDp4a != d.rowSumsByDp4a || c.ldmatrix != d.ldmatrix ||
             c.reduceSlices != d.reduceSlices || c.triangles != d.triangles ||
             c.fragmentStores != d.fragmentStores || c.pairedWarps != d.pairedWarps ||
             c.l2PrefetchBytes != d.l2PrefetchBytes || c.columnsByLdmatrix != d.columnsByLdmatrix));
}

TEST_P(StagedU8OptionCases, StagedU8AtTheOverflowLimitStaysExact) {
    expectStagedU8ExactAtTheOverflowLimit(options());
}

INSTANTIATE_TEST_SUITE_P(Covariance, StagedU8OptionCases, ::testing::ValuesIn(kStagedCases),
                         [](const ::testing::TestParamInfo<StagedCase>& info) {
                             return "Split" + std::to_string(info.param.split) + "PerUnit" +
                                    std::to_string(info.param.chunksPerUnit) +
                                    (info.param.addInPlace ? "InPlace" : "TwoPasses") +
                                    (info.param.rowSumsByDp4a ? "Dp4a" : "") +
                                    (info.param.ldmatrix ? "" : "RowLoads") + "Slices" +
                                    std::to_string(info.param.reduceSlices) +
                                    (info.param.triangles ? "" : "Distances") +
                                    (info.param.fragmentStores ? "" : "MatrixStores") +
                                    (info.param.pairedWarps ? "PairedWarps" : "") +
                                    (info.param.l2PrefetchBytes != 128
                                         ? "L2x" + std::to_string(info.param.l2PrefetchBytes)
                                         : "") +
                                    (info.param.columnsByLdmatrix ? "ColumnsByLdmatrix" : "");
                         });

TEST(Covariance, StagedU8RefusesBadOptionsAndAddsInPlaceOnlyWithInt64Atomics) {
    Covariance cov(context());
    StagedU8Options bad;
    bad.split = 0;
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    bad.split = 5;
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    bad.split = 1, bad.chunksPerUnit = 9;
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    bad.chunksPerUnit = 1, bad.reduceSlices = 3;  // 256 work-items: a power of two
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    bad.reduceSlices = 64;
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    bad.reduceSlices = 32, bad.l2PrefetchBytes = 64;  // 0, 128 or 256
    EXPECT_THROW(cov.setStagedU8Options(bad), Error);
    StagedU8Options inPlace;
    inPlace.addInPlace = true, inPlace.chunksPerUnit = 2;
    cov.setStagedU8Options(inPlace);
    EXPECT_EQ(cov.stagedU8AddsInPlace(),
              context().info().hasExtension("cl_khr_int64_base_atomics"));
    EXPECT_EQ(cov.stagedU8Chunks(10 * kMaxU8ChunkSamples),
              std::max(10, 2 * static_cast<int>(context().info().computeUnits)));
}

TEST(Covariance, StagedU8RunsWhereItsRowsFitAndFillsTheDevice) {
    Covariance cov(context());
    EXPECT_GE(cov.u8StagedStages(224, 667424), 2);
    EXPECT_EQ(cov.u8StagedStages(kMaxStagedU8Bands + 1, 1024), 0);  // too many bands
    EXPECT_EQ(cov.u8StagedStages(64, 1000), 0);                     // rows not 16-byte aligned
    const int chunks = cov.stagedU8Chunks(667418);
    EXPECT_GE(chunks, static_cast<int>(context().info().computeUnits));
    EXPECT_GE(std::int64_t(chunks) * kMaxU8ChunkSamples, 667418);
    EXPECT_EQ(cov.stagedU8Chunks(100), 2);  // at least one 64-sample stage per chunk
    EXPECT_EQ(cov.stagedU8Chunks(10 * kMaxU8ChunkSamples),
              std::max(10, static_cast<int>(context().info().computeUnits)));
}

// The u8 product's device time splits into the Gram kernel, the second pass (none where the chunks
// are added in place) and the gap between them: each pass's own time is reported, inside the span.
TEST(Covariance, U8ReportsEachPassInsideItsSpan) {
    const int bands = 211;
    const std::int64_t samples = 1601, pitch = 1616;
    cl::Buffer dx = upload(randomBytes(std::size_t(bands) * pitch, 29));
    Covariance cov(context());
    StagedU8Options twoLaunches;
    twoLaunches.fusedReduce = false;
    cov.setStagedU8Options(twoLaunches);
    double ms = 0, gramMs = 0, secondMs = -1;
    cov.gramU8(CovarianceVariant::Tensor, dx, bands, samples, 3, &ms, pitch, &gramMs, &secondMs);
    EXPECT_GT(gramMs, 0.0);
    EXPECT_GT(secondMs, 0.0);
    EXPECT_LE(gramMs + secondMs, ms * 1.0001);
    // The defaults: the chunks added inside the Gram kernel (no second pass) where the fused
    // reduce runs, else two launches.
    cov.setStagedU8Options(StagedU8Options{});
    const bool fused = cov.stagedU8FusedReduceRefusal(bands, samples, pitch, 3).empty();
    cov.gramU8(CovarianceVariant::Tensor, dx, bands, samples, 3, &ms, pitch, &gramMs, &secondMs);
    EXPECT_EQ(secondMs == 0.0, fused);
    EXPECT_GT(gramMs, 0.0);
    EXPECT_LE(gramMs + secondMs, ms * 1.0001);
    StagedU8Options inPlace;
    inPlace.addInPlace = true;
    cov.setStagedU8Options(inPlace);
    if (!cov.stagedU8AddsInPlace()) GTEST_SKIP() << "no 64-bit atomics: nothing added in place";
    cov.gramU8(CovarianceVariant::Tensor, dx, bands, samples, 3, &ms, pitch, &gramMs, &secondMs);
    EXPECT_EQ(secondMs, 0.0);
    EXPECT_GT(gramMs, 0.0);
}

// The fused reduce (StagedU8Options::fusedReduce): the Gram kernel's groups meet at a device-wide
// barrier and add the partials themselves. Only where every group is resident at once (no more
// than the compute units) and the barrier's PTX builds; elsewhere (PoCL: no inline PTX) the two
// launches run, with the same reduce function.
TEST(Covariance, FusedReduceRunsOnlyWhereItsGroupsAreAllResident) {
    Covariance cov(context());
    const int units = static_cast<int>(context().info().computeUnits);
    const int bands = 211;
    const std::int64_t samples = std::int64_t(units + 1) * 128, pitch = samples;
    const std::string fused = cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units);
    if (cov.tensorActive())
        EXPECT_EQ(fused, "") << "inline PTX builds here: the fused reduce should run";
    else
        EXPECT_NE(fused.find("inline PTX"), std::string::npos) << fused;
    // One group more than the compute units: never (the barrier would wait for it).
    EXPECT_NE(
        cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units + 1).find("compute units"),
        std::string::npos);
    StagedU8Options o;
    o.fusedReduce = false;
    cov.setStagedU8Options(o);
    EXPECT_NE(cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units).find("off"),
              std::string::npos);
    o = StagedU8Options{}, o.split = 2;  // groups sharing a chunk: matrix-order partials
    cov.setStagedU8Options(o);
    EXPECT_NE(cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units).find("fragment-order"),
              std::string::npos);
    o = StagedU8Options{}, o.fragmentStores = false;
    cov.setStagedU8Options(o);
    EXPECT_NE(cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units).find("fragment-order"),
              std::string::npos);
    EXPECT_NE(cov.stagedU8FusedReduceRefusal(300, samples, 16 * 1024, units), "");  // no staging
    o = StagedU8Options{}, o.fusedDeadlineUs = -1;
    EXPECT_THROW(cov.setStagedU8Options(o), Error);
    o.fusedDeadlineUs = 1000001;
    EXPECT_THROW(cov.setStagedU8Options(o), Error);
}

// Whichever path the refusal names runs (fused: no second pass), exact on awkward shapes, with
// the barrier's counter carried across products of different group counts in one job (it is
// never reset: each launch's target is the arrivals so far).
TEST(Covariance, FusedReduceIsExactAndCountsItsBarrierAcrossProducts) {
    Covariance cov(context());
    const int units = static_cast<int>(context().info().computeUnits);
    struct Case {
        int bands;
        std::int64_t samples, pitch;
        int chunks;
    };
    const Case cases[] = {{224, 5003, 5008, 3}, {224, 1601, 1616, 40}, {211, 64 * 131, 64 * 131, 0},
                          {1, 70, 80, 2},       {33, 999, 1008, 1},    {224, 333, 336, units + 1},
                          {224, 4099, 4112, 7}};
    GramU8Job job;
    for (const Case& c : cases) {
        const auto x = randomBytes(std::size_t(c.bands) * c.pitch, c.bands + c.samples);
        std::vector<std::uint8_t> packed;
        for (int b = 0; b < c.bands; ++b)
            packed.insert(packed.end(), x.begin() + b * c.pitch,
                          x.begin() + b * c.pitch + c.samples);
        cl::Buffer dx = upload(x);
        const bool fused =
            cov.stagedU8FusedReduceRefusal(c.bands, c.samples, c.pitch, c.chunks).empty();
        cov.enqueueGramU8(CovarianceVariant::Tensor, dx, c.bands, c.samples, job, c.chunks,
                          c.pitch);
        double ms = 0, gramMs = 0, secondMs = -1;
        const GramU8 got = Covariance::finishGramU8(job, &ms, &gramMs, &secondMs);
        const GramU8 want = referenceGramU8(packed.data(), c.bands, c.samples);
        EXPECT_EQ(got.sums, want.sums) << c.bands << " x " << c.samples << "; " << seedNote();
        EXPECT_EQ(got.gram, want.gram) << c.bands << " x " << c.samples << "; " << seedNote();
        EXPECT_EQ(job.fused, fused) << c.bands << " x " << c.samples << ", " << c.chunks;
        EXPECT_FALSE(job.fusedTimedOut) << "the barrier timed out at its 4 ms deadline";
        EXPECT_EQ(secondMs == 0.0, fused) << c.bands << " x " << c.samples;
    }
}

// A barrier that times out (deadline 0: every group but the last to arrive gives up at once)
// leaves its share unadded: the host says so and adds the chunks by the second pass, exactly.
TEST(Covariance, FusedReduceFallsBackToTheSecondPassWhenItsBarrierTimesOut) {
    Covariance cov(context());
    StagedU8Options o;
    o.fusedDeadlineUs = 0;
    cov.setStagedU8Options(o);
    const int units = static_cast<int>(context().info().computeUnits);
    const int bands = 224;
    const std::int64_t samples = std::int64_t(units) * 192 - 5, pitch = std::int64_t(units) * 192;
    const std::string why = cov.stagedU8FusedReduceRefusal(bands, samples, pitch, units);
    if (!why.empty()) GTEST_SKIP() << "no fused reduce here: " << why;
    const auto x = randomBytes(std::size_t(bands) * pitch, 97);
    std::vector<std::uint8_t> packed;
    for (int b = 0; b < bands; ++b)
        packed.insert(packed.end(), x.begin() + b * pitch, x.begin() + b * pitch + samples);
    cl::Buffer dx = upload(x);
    GramU8Job job;
    for (int run = 0; run < 2; ++run) {
        cov.enqueueGramU8(CovarianceVariant::Tensor, dx, bands, samples, job, units, pitch);
        double secondMs = -1;
        const GramU8 got = Covariance::finishGramU8(job, nullptr, nullptr, &secondMs);
        const GramU8 want = referenceGramU8(packed.data(), bands, samples);
        EXPECT_TRUE(job.fused);
        EXPECT_TRUE(job.fusedTimedOut) << "run " << run;
        EXPECT_GT(secondMs, 0.0);
        EXPECT_EQ(got.sums, want.sums);
        EXPECT_EQ(got.gram, want.gram);
    }
}
