// MNF on the device (PoCL in CI) against the double-precision CPU reference: covariances,
// eigenvalues, the transform and the denoise, for every noise estimate on u8 (the exact integer
// covariance path), i16 and f32 cubes of awkward sizes, and once at Indian Pines' 145 x 145 x 200.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include <lapacke.h>
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_select.hpp"

#include "compute/spectral/mnf.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/scene.hpp"
#include "compute/spectral/view_image.hpp"
#include "tests/support/device_context.hpp"

using namespace clviz;

namespace {

using test::context;

double maxAbs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v)
        m = std::max(m, std::abs(x));
    return m;
}

// Holds the device's steps 1-7 to the reference: covariances within `covTol` of their largest
// entry, eigenvalues with SNR > 10 within 1e-4 relative; then the device transform and denoise to
// the reference's formulas applied with the device's own basis.
void checkAgainstReference(const Cube& cube, NoiseEstimate est, double covTol, int minCompared = 1,
                           const CubeRect& rect = {}) {
    SCOPED_TRACE(std::string(cubeTypeName(cube.type)) + " " + describeShape(cube.shape) + " " +
                 noiseEstimateName(est));
    const int B = cube.shape.bands;
    SpectralMnf mnf(context());
    mnf.upload(cube);
    const MnfStatisticsResult& dev = mnf.run(est, rect);
    const MnfStatistics ref = mnfStatisticsReference(cube, est, rect);
    const double nScale = maxAbs(ref.noiseCov), dScale = maxAbs(ref.dataCov);
    for (std::size_t i = 0; i < ref.noiseCov.size(); ++i) {
        ASSERT_NEAR(dev.noiseCov[i], ref.noiseCov[i], covTol * nScale) << "C_N " << i;
        ASSERT_NEAR(dev.dataCov[i], ref.dataCov[i], covTol * dScale) << "C_D " << i;
    }
    // Band means: exact sums for u8, FP32 chunk sums (added in double) otherwise.
    for (int b = 0; b < B; ++b)
        ASSERT_NEAR(dev.mean[b], ref.mean[b],
                    (cube.type == CubeType::U8 ? 1e-12 : 1e-6) * std::abs(ref.mean[b]));
    const MnfBasis refBasis = solveMnf(ref.noiseCov, ref.dataCov, B);
    int compared = 0;
    double worst = 0;
    for (int j = 0; j < B; ++j) {
        if (refBasis.eigenvalues[j] <= 11) continue;
        worst = std::max(worst, std::abs(dev.basis.eigenvalues[j] / refBasis.eigenvalues[j] - 1));
        EXPECT_NEAR(dev.basis.eigenvalues[j], refBasis.eigenvalues[j],
                    1e-4 * refBasis.eigenvalues[j])
            << "eigenvalue " << j;
        ++compared;
    }
    EXPECT_GE(compared, minCompared);
    std::printf("%s %s %s: %d eigenvalues with SNR > 10, worst relative error %.2g\n",
                cubeTypeName(cube.type), describeShape(cube.shape).c_str(), noiseEstimateName(est),
                compared, worst);

    const int m = std::min(B, 7);
    mnf.transform(m);
    const std::vector<float> z = mnf.readComponents();
    const std::vector<double> zRef = mnfTransformReference(cube, dev.mean, dev.basis, m);
    ASSERT_EQ(z.size(), zRef.size());
    const double zScale = maxAbs(zRef);
    for (std::size_t i = 0; i < z.size(); ++i)
        ASSERT_NEAR(z[i], zRef[i], 2e-5 * zScale) << i;

    const std::vector<double> x = cube.toDouble();
    const double xScale = maxAbs(x);
    mnf.denoise(B);  // every component: the cube itself
    std::vector<float> all = mnf.readDenoised();
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_NEAR(all[i], x[i], 1e-4 * xScale) << i;
    const int k = std::max(1, componentsWithSnr(dev.basis, 10));
    mnf.denoise(k);
    const std::vector<float> den = mnf.readDenoised();
    const std::vector<double> denRef =
        mnfDenoiseReference(cube, dev.mean, dev.basis, dev.noiseCov, k);
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_NEAR(den[i], denRef[i], 1e-4 * xScale) << i;
}

Cube scene(CubeShape shape, CubeType type, std::uint64_t seed = 5) {
    SceneSpec spec;
    spec.shape = shape;
    spec.type = type;
    spec.seed = seed;
    return makeScene(spec).cube;
}

}  // namespace

TEST(SpectralMnf, EveryEstimateAndTypeMatchesTheReference) {
    for (CubeType type : {CubeType::U8, CubeType::I16, CubeType::F32})
        for (NoiseEstimate est :
             {NoiseEstimate::Diff, NoiseEstimate::Mean3, NoiseEstimate::Median3})
            checkAgainstReference(scene({67, 53, 37}, type), est, 2e-6);
}

TEST(SpectralMnf, U8CovariancesAreExact) {
    // C_D through the integer Gram path, and with noise=diff C_N too (the stacked windows), also
    // from a rectangle whose residual count (36 x 22) is not a multiple of the 16-byte pitch.
    const Cube cube = scene({61, 59, 13}, CubeType::U8);
    SpectralMnf mnf(context());
    mnf.upload(cube);
    EXPECT_TRUE(mnf.exactIntegerPath());
    for (const CubeRect rect : {CubeRect{}, CubeRect{3, 5, 37, 23}}) {
        const MnfStatisticsResult& dev = mnf.run(NoiseEstimate::Diff, rect);
        EXPECT_TRUE(dev.noiseExact);
        const MnfStatistics ref = mnfStatisticsReference(cube, NoiseEstimate::Diff, rect);
        for (std::size_t i = 0; i < ref.dataCov.size(); ++i) {
            EXPECT_NEAR(dev.dataCov[i], ref.dataCov[i], 1e-12 * std::abs(ref.dataCov[i]) + 1e-12);
            EXPECT_NEAR(dev.noiseCov[i], ref.noiseCov[i], 1e-12 * std::abs(ref.noiseCov[i]) + 1e-12)
                << i;
        }
    }
    EXPECT_FALSE(mnf.run(NoiseEstimate::Mean3).noiseExact);  // residuals that are not integers
}

TEST(SpectralMnf, U8DiffNoiseAtAwkwardShapes) {
    // C_N folded on the device (noise_diff_gram.hpp), by the cross product and by the stacked
    // windows (the same bits), and C_D against the double reference: two lines, prime widths, 1,
    // 2, 13, 37 and 224 bands; one line is refused with a message; a rectangle takes the stacked
    // windows.
    const CubeShape shapes[] = {{41, 2, 1}, {43, 2, 2}, {17, 3, 13}, {47, 3, 37}, {19, 17, 224}};
    for (const CubeShape& shape : shapes) {
        const Cube cube = scene(shape, CubeType::U8, 7);
        SCOPED_TRACE(describeShape(cube.shape));
        SpectralMnf mnf(context());
        mnf.upload(cube);
        // The stacked windows' route first: the cross product must give the same bits.
        mnf.setCrossNoise(false);
        const std::vector<double> stacked = mnf.run(NoiseEstimate::Diff).noiseCov;
        EXPECT_FALSE(mnf.crossNoiseUsed());
        mnf.setCrossNoise(true);
        const MnfStatisticsResult& dev = mnf.run(NoiseEstimate::Diff);
        EXPECT_TRUE(dev.noiseExact);
        EXPECT_TRUE(mnf.crossNoiseUsed());
        ASSERT_EQ(dev.noiseCov, stacked);
        const MnfStatistics ref = mnfStatisticsReference(cube, NoiseEstimate::Diff);
        const double nScale = maxAbs(ref.noiseCov), dScale = maxAbs(ref.dataCov);
        for (std::size_t i = 0; i < ref.noiseCov.size(); ++i) {
            ASSERT_NEAR(dev.noiseCov[i], ref.noiseCov[i], 1e-12 * nScale) << "C_N " << i;
            ASSERT_NEAR(dev.dataCov[i], ref.dataCov[i], 1e-12 * dScale) << "C_D " << i;
        }
    }
    SpectralMnf mnf(context());
    mnf.upload(scene({37, 1, 13}, CubeType::U8));
    EXPECT_THROW(mnf.run(NoiseEstimate::Diff), Error);
    mnf.upload(scene({37, 11, 13}, CubeType::U8));
    mnf.run(NoiseEstimate::Diff, {1, 2, 30, 8});
    EXPECT_FALSE(mnf.crossNoiseUsed());
}

TEST(SpectralMnf, AwkwardSizes) {
    // One band, a prime width, a cube two lines high (diff only), shapes off every tile size.
    checkAgainstReference(scene({31, 7, 1}, CubeType::F32), NoiseEstimate::Diff, 2e-6, 0);
    checkAgainstReference(scene({4, 3, 2}, CubeType::F32, 9), NoiseEstimate::Diff, 2e-6, 0);
    checkAgainstReference(scene({17, 19, 3}, CubeType::U8), NoiseEstimate::Median3, 2e-6, 0);
    SpectralMnf mnf(context());
    mnf.upload(scene({2, 2, 3}, CubeType::U8));
    EXPECT_THROW(mnf.run(NoiseEstimate::Mean3), Error);
    EXPECT_THROW(mnf.transform(2), Error);  // nothing run yet
    // A run that fails leaves nothing for transform() to use, even after a good one.
    mnf.upload(scene({7, 6, 3}, CubeType::U8));
    mnf.run(NoiseEstimate::Diff);
    EXPECT_THROW(mnf.run(NoiseEstimate::Mean3, {0, 0, 2, 2}), Error);
    EXPECT_THROW(mnf.transform(2), Error);
}

TEST(SpectralMnf, NoiseFromARectangle) {
    // An off-centre rectangle (prime sides) for the noise; the data statistics stay whole-cube.
    const CubeRect rect{5, 7, 41, 37};
    for (NoiseEstimate est : {NoiseEstimate::Diff, NoiseEstimate::Mean3, NoiseEstimate::Median3})
        checkAgainstReference(scene({67, 53, 19}, CubeType::U8), est, 2e-6, 1, rect);
    SpectralMnf mnf(context());
    mnf.upload(scene({67, 53, 3}, CubeType::U8));
    EXPECT_EQ(mnf.run(NoiseEstimate::Diff, rect).noiseRect, rect);
    try {
        mnf.run(NoiseEstimate::Mean3, {60, 51, 0, 0});  // 7 x 2 left: too thin for a 3 x 3 window
        FAIL() << "a 7 x 2 rectangle was accepted for mean3";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("the rectangle is 7 x 2"), std::string::npos)
            << e.what();
    }
}

TEST(SpectralMnf, DenoiseOfSelectedBands) {
    const Cube cube = scene({29, 31, 11}, CubeType::I16);
    SpectralMnf mnf(context());
    mnf.upload(cube);
    const MnfStatisticsResult& dev = mnf.run(NoiseEstimate::Mean3);
    mnf.denoise(3, {10, 0, 4});
    const std::vector<float> rows = mnf.readDenoised();
    const std::vector<double> ref = mnfDenoiseReference(cube, dev.mean, dev.basis, dev.noiseCov, 3);
    const std::size_t P = cube.shape.pixels();
    ASSERT_EQ(rows.size(), 3 * P);
    const int bands[] = {10, 0, 4};
    double scale = 0;
    for (double v : ref)
        scale = std::max(scale, std::abs(v));
    for (int r = 0; r < 3; ++r)
        for (std::size_t p = 0; p < P; ++p)
            ASSERT_NEAR(rows[r * P + p], ref[bands[r] * P + p], 1e-5 * scale) << r << " " << p;
    EXPECT_THROW(mnf.denoise(3, {11}), Error);
}

TEST(SpectralMnf, FewEigenvectorsThenMoreComponents) {
    // run() with 3 eigenvectors; a transform of 3 uses them, one of 5 and a denoise of 6 solve
    // again with every eigenvector. Every result matches the reference's formulas.
    const Cube cube = scene({41, 23, 11}, CubeType::U8);
    SpectralMnf mnf(context());
    mnf.upload(cube);
    EXPECT_THROW(mnf.run(NoiseEstimate::Diff, {}, 12), Error);
    const MnfStatisticsResult& dev = mnf.run(NoiseEstimate::Diff, {}, 3);
    EXPECT_EQ(dev.basis.vectors, 3);
    ASSERT_EQ(dev.basis.eigenvalues.size(), 11u);
    const MnfBasis full = solveMnf(dev.noiseCov, dev.dataCov, 11);
    for (int j = 0; j < 11; ++j)
        EXPECT_NEAR(dev.basis.eigenvalues[j], full.eigenvalues[j], 1e-10 * full.eigenvalues[0]);
    for (int m : {3, 5}) {
        mnf.transform(m);
        EXPECT_EQ(mnf.result().basis.vectors, m == 3 ? 3 : 11);
        const std::vector<float> z = mnf.readComponents();
        const std::vector<double> zRef = mnfTransformReference(cube, dev.mean, full, m);
        ASSERT_EQ(z.size(), zRef.size());
        const double zScale = maxAbs(zRef);
        for (std::size_t i = 0; i < z.size(); ++i)
            ASSERT_NEAR(z[i], zRef[i], 2e-5 * zScale) << m << " " << i;
    }
    mnf.run(NoiseEstimate::Diff, {}, 2);
    mnf.denoise(6);
    const std::vector<float> den = mnf.readDenoised();
    const std::vector<double> denRef = mnfDenoiseReference(cube, dev.mean, full, dev.noiseCov, 6);
    ASSERT_EQ(den.size(), denRef.size());
    for (std::size_t i = 0; i < den.size(); ++i)
        ASSERT_NEAR(den[i], denRef[i], 1e-4 * 255) << i;
}

TEST(SpectralMnf, ExactDiffOnTwoLinesAndPrimeWidths) {
    // Two lines leave one line of residuals (the filter's 16-output groups then wrap no line);
    // prime widths leave residual counts off 16, cubes off the band pitch.
    for (const CubeShape shape :
         {CubeShape{101, 2, 5}, CubeShape{13, 11, 4}, CubeShape{7, 31, 3}}) {
        const Cube cube = scene(shape, CubeType::U8, 11);
        SpectralMnf mnf(context());
        mnf.upload(cube);
        EXPECT_EQ(mnf.bandPitch() % 16, 0u);
        const MnfStatisticsResult& dev = mnf.run(NoiseEstimate::Diff);
        const MnfStatistics ref = mnfStatisticsReference(cube, NoiseEstimate::Diff);
        for (std::size_t i = 0; i < ref.dataCov.size(); ++i) {
            EXPECT_NEAR(dev.dataCov[i], ref.dataCov[i], 1e-12 * std::abs(ref.dataCov[i]) + 1e-12)
                << describeShape(shape) << " " << i;
            EXPECT_NEAR(dev.noiseCov[i], ref.noiseCov[i], 1e-12 * std::abs(ref.noiseCov[i]) + 1e-12)
                << describeShape(shape) << " " << i;
        }
    }
}

TEST(SpectralMnf, IndianPinesSizeU8) {
    // Exact covariances (u8, diff): only the double eigen solve and float transform differ.
    checkAgainstReference(scene({145, 145, 200}, CubeType::U8), NoiseEstimate::Diff, 1e-12, 4);
}

TEST(SpectralPicture, StretchesThreeRowsToRgba) {
    // 3 rows x 5 pixels of u8; channel stretches chosen so the expected bytes are easy to state.
    const std::vector<std::uint8_t> src = {0,   10,  20, 30, 40, 100, 110, 120,
                                           130, 140, 7,  7,  7,  7,   7};
    ComputeContext& cc = context();
    cl::Buffer in(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, src.size(),
                  const_cast<std::uint8_t*>(src.data()));
    cl::Buffer out(cc.context(), CL_MEM_WRITE_ONLY, 5 * 4);
    SpectralPicture picture(cc);
    picture.enqueue(in, true, 5, {ChannelStretch{1, 100, 140}, {0, 0, 20}, {2, 7, 7}}, out);
    std::vector<std::uint8_t> rgba(20);
    cc.queue().enqueueReadBuffer(out, CL_TRUE, 0, 20, rgba.data());
    const std::vector<std::uint8_t> want = {0, 0,   0,   255, 64, 128, 0,   255, 128, 255,
                                            0, 255, 191, 255, 0,  255, 255, 255, 0,   255};
    // pixel 1: R (110-100)/40 = 0.25 -> 64 (rounded 63.75), G 10/20 -> 128 (127.5 rounds to even:
    // 128)
    for (int i = 0; i < 20; ++i)
        EXPECT_NEAR(rgba[i], want[i], 1) << i;
    // Float rows (components): negative values clamp to 0.
    const std::vector<float> f = {-1, 0, 0.5f, 1, 2};
    cl::Buffer fin(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, f.size() * 4,
                   const_cast<float*>(f.data()));
    picture.enqueue(fin, false, 5, {ChannelStretch{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, out);
    cc.queue().enqueueReadBuffer(out, CL_TRUE, 0, 20, rgba.data());
    const int grey[] = {0, 0, 128, 255, 255};
    for (int p = 0; p < 5; ++p)
        EXPECT_NEAR(rgba[4 * p], grey[p], 1) << p;
}

namespace {

// A symmetric positive definite B x B matrix (column-major) with a spread spectrum, and another
// symmetric one.
std::vector<double> spdMatrix(int B, std::uint64_t seed, double diagonal) {
    std::vector<double> a(std::size_t(B) * B), s(a.size());
    std::uint64_t x = seed;
    for (double& v : a) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        v = double(x >> 11) / double(1ull << 53) - 0.5;
    }
    for (int i = 0; i < B; ++i)
        for (int j = 0; j < B; ++j) {
            double t = 0;
            for (int k = 0; k < B; ++k)
                t += a[std::size_t(k) * B + i] * a[std::size_t(k) * B + j];
            s[std::size_t(j) * B + i] = t + (i == j ? diagonal : 0.0);
        }
    return s;
}

}  // namespace

TEST(MnfDeviceReduce, MatchesLapackDsygst) {
    // One band, two, a prime, 37, and more bands than work-items in a group (rows per work-item).
    if (!MnfDeviceReduce::supported(context(), 2)) GTEST_SKIP() << "no cl_khr_fp64";
    MnfDeviceReduce reduce(context());
    for (int B : {1, 2, 13, 37, 300}) {
        SCOPED_TRACE(B);
        std::vector<double> u = spdMatrix(B, 3 + B, 0.5), cd = spdMatrix(B, 7 + B, 0.0);
        ASSERT_EQ(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', B, u.data(), B), 0);
        std::vector<double> ref = cd, dev = cd;
        ASSERT_EQ(LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', B, ref.data(), B, u.data(), B), 0);
        reduce.reduce(u, dev, B);
        EXPECT_GT(reduce.deviceMs(), 0.0);
        double scale = 0;
        for (int j = 0; j < B; ++j)
            for (int i = 0; i <= j; ++i)
                scale = std::max(scale, std::abs(ref[std::size_t(j) * B + i]));
        for (int j = 0; j < B; ++j)
            for (int i = 0; i <= j; ++i)  // dsygst writes the upper triangle only
                ASSERT_NEAR(dev[std::size_t(j) * B + i], ref[std::size_t(j) * B + i], 1e-11 * scale)
                    << i << " " << j;
    }
    std::vector<double> u(4), a(9);
    EXPECT_THROW(reduce.reduce(u, a, 2), Error);  // not 2 x 2
}

TEST(SpectralMnf, DeviceReductionAndValuesMatchTheHostRoute) {
    // The partial route (the bench's and the viewer's: m eigenvectors) with step 5 on the device
    // and with dsygst, then with step 6's eigenvalues on the device (bisection) instead of dsterf:
    // every eigenvalue, the m columns, T^T C_N T = I; 1, 2, 13 and 37 bands.
    for (const CubeShape shape :
         {CubeShape{9, 8, 1}, CubeShape{17, 11, 2}, CubeShape{23, 19, 13}, CubeShape{31, 29, 37}}) {
        SCOPED_TRACE(describeShape(shape));
        const int B = shape.bands, m = std::max(1, std::min(B - 1, 7));
        const Cube cube = scene(shape, CubeType::U8, 21);
        SpectralMnf mnf(context());
        mnf.upload(cube);
        mnf.setDeviceReduce(false);
        mnf.setValuesOn(MnfValuesOn::Host);
        const MnfStatisticsResult host = mnf.run(NoiseEstimate::Diff, {}, m);
        EXPECT_EQ(mnf.timings().reduceDeviceMs, 0.0);
        EXPECT_EQ(mnf.timings().valuesDeviceMs, 0.0);
        auto expectSameAsHost = [&](const MnfStatisticsResult& dev) {
            ASSERT_EQ(dev.basis.vectors, host.basis.vectors);
            for (int j = 0; j < B; ++j)
                EXPECT_NEAR(dev.basis.eigenvalues[j], host.basis.eigenvalues[j],
                            1e-10 * host.basis.eigenvalues[0])
                    << j;
            for (int j = 0; j < dev.basis.vectors; ++j) {
                double norm = 0;
                for (int b = 0; b < B; ++b)
                    norm = std::max(norm, std::abs(host.basis.at(b, j)));
                for (int b = 0; b < B; ++b)
                    EXPECT_NEAR(dev.basis.at(b, j), host.basis.at(b, j), 1e-8 * norm)
                        << b << " " << j;
            }
            for (int i = 0; i < dev.basis.vectors; ++i)
                for (int j = 0; j < dev.basis.vectors; ++j) {
                    double n = 0;
                    for (int a = 0; a < B; ++a)
                        for (int b = 0; b < B; ++b)
                            n += dev.basis.at(a, i) * dev.noiseCov[std::size_t(a) * B + b] *
                                 dev.basis.at(b, j);
                    EXPECT_NEAR(n, i == j ? 1.0 : 0.0, 1e-9) << i << " " << j;
                }
        };
        mnf.setDeviceReduce(true);
        const bool reduceOnDevice = mnf.deviceReduceUsed(B);
        expectSameAsHost(mnf.run(NoiseEstimate::Diff, {}, m));
        if (reduceOnDevice && m < B) {  // one band: every eigenvector, dsygvd's route
            EXPECT_GT(mnf.timings().reduceDeviceMs, 0.0);
        }
        mnf.setValuesOn(MnfValuesOn::Device);
        const bool valuesOnDevice = mnf.deviceValuesUsed(B);
        expectSameAsHost(mnf.run(NoiseEstimate::Diff, {}, m));
        if (valuesOnDevice && m < B) {
            EXPECT_GT(mnf.timings().valuesDeviceMs, 0.0);
        }
    }
}
