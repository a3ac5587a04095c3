// The double-precision MNF reference: T^T C_N T = I and T^T C_D T = Lambda; the paper's two-step
// solve and the one-call generalized solve agree; denoise with k = bands returns the cube; the
// noise estimates on hand-made cubes and on white noise; and the eigenvalues and transform of
// Spectral Python's mnf (spy_mnf.py, run with python3) on a generated cube.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include <unistd.h>

#include "common/error.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/scene.hpp"
#include "tests/compute/spectral/test_support.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::errorOf;

namespace {

Cube smallScene(CubeType type = CubeType::F32, std::uint64_t seed = 3) {
    SceneSpec spec;
    spec.shape = {64, 48, 12};  // smooth enough that neighbours differ mostly by noise
    spec.type = type;
    spec.seed = seed;
    return makeScene(spec).cube;
}

// (A^T M A) for column-major A (B x B) and row-major symmetric M.
std::vector<double> congruence(const MnfBasis& t, const std::vector<double>& m) {
    const int B = t.bands;
    std::vector<double> out(std::size_t(B) * B);
    for (int i = 0; i < B; ++i)
        for (int j = 0; j < B; ++j) {
            double sum = 0;
            for (int a = 0; a < B; ++a)
                for (int b = 0; b < B; ++b)
                    sum += t.at(a, i) * m[std::size_t(a) * B + b] * t.at(b, j);
            out[std::size_t(i) * B + j] = sum;
        }
    return out;
}

}  // namespace

TEST(MnfReference, TransformWhitensNoiseAndDiagonalisesData) {
    for (NoiseEstimate est : {NoiseEstimate::Diff, NoiseEstimate::Mean3, NoiseEstimate::Median3}) {
        SCOPED_TRACE(noiseEstimateName(est));
        const Cube cube = smallScene();
        const MnfStatistics st = mnfStatisticsReference(cube, est);
        const MnfBasis basis = solveMnf(st.noiseCov, st.dataCov, 12);
        const std::vector<double> n = congruence(basis, st.noiseCov);
        const std::vector<double> d = congruence(basis, st.dataCov);
        for (int i = 0; i < 12; ++i)
            for (int j = 0; j < 12; ++j) {
                EXPECT_NEAR(n[i * 12 + j], i == j ? 1.0 : 0.0, 1e-9) << i << "," << j;
                EXPECT_NEAR(d[i * 12 + j], i == j ? basis.eigenvalues[i] : 0.0,
                            1e-9 * basis.eigenvalues[0]);
            }
        for (int i = 1; i < 12; ++i)
            EXPECT_GE(basis.eigenvalues[i - 1], basis.eigenvalues[i]);
        EXPECT_GT(basis.eigenvalues[0], 100);  // the scene has strong components...
        EXPECT_LT(basis.eigenvalues[11], 3);   // ...and some at the noise floor
        // The sign rule: each column's largest-magnitude entry is positive.
        for (int j = 0; j < 12; ++j) {
            int big = 0;
            for (int i = 1; i < 12; ++i)
                if (std::abs(basis.at(i, j)) > std::abs(basis.at(big, j))) big = i;
            EXPECT_GT(basis.at(big, j), 0);
        }
    }
}

TEST(MnfReference, PaperTwoStepSolveMatchesTheGeneralizedSolve) {
    const Cube cube = smallScene(CubeType::I16);
    const MnfStatistics st = mnfStatisticsReference(cube, NoiseEstimate::Diff);
    const MnfBasis one = solveMnf(st.noiseCov, st.dataCov, 12);
    const MnfBasis two = mnfTwoStepReference(st.noiseCov, st.dataCov, 12);
    for (int j = 0; j < 12; ++j) {
        EXPECT_NEAR(two.eigenvalues[j], one.eigenvalues[j], 1e-9 * one.eigenvalues[j]);
        // Vectors are compared where the eigenvalue is well separated from its neighbours.
        const double gapBelow = j + 1 < 12 ? one.eigenvalues[j] - one.eigenvalues[j + 1] : 1e9;
        const double gapAbove = j > 0 ? one.eigenvalues[j - 1] - one.eigenvalues[j] : 1e9;
        if (std::min(gapBelow, gapAbove) < 0.05 * one.eigenvalues[j]) continue;
        double norm = 0;
        for (int i = 0; i < 12; ++i)
            norm = std::max(norm, std::abs(one.at(i, j)));
        for (int i = 0; i < 12; ++i)
            EXPECT_NEAR(two.at(i, j), one.at(i, j), 1e-7 * norm) << j;
    }
}

TEST(MnfReference, DenoiseWithEveryComponentReturnsTheCubeAndWithNoneTheMean) {
    const Cube cube = smallScene(CubeType::U8);
    const MnfStatistics st = mnfStatisticsReference(cube, NoiseEstimate::Mean3);
    const MnfBasis basis = solveMnf(st.noiseCov, st.dataCov, 12);
    const std::vector<double> x = cube.toDouble();
    const std::vector<double> all = mnfDenoiseReference(cube, st.mean, basis, st.noiseCov, 12);
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_NEAR(all[i], x[i], 1e-9 * 255) << i;
    const std::vector<double> none = mnfDenoiseReference(cube, st.mean, basis, st.noiseCov, 0);
    const std::size_t P = cube.shape.pixels();
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_DOUBLE_EQ(none[i], st.mean[i / P]);
    // Keeping the strong components removes noise: closer to the noise-free scene than the input.
    SceneSpec clean;
    clean.shape = cube.shape;
    clean.type = CubeType::F64;
    clean.seed = 3;
    clean.noise = 0;
    SceneSpec noisy = clean;
    noisy.noise = 1;
    const Cube truth = makeScene(clean).cube, input = makeScene(noisy).cube;
    const MnfStatistics st2 = mnfStatisticsReference(input, NoiseEstimate::Diff);
    const MnfBasis b2 = solveMnf(st2.noiseCov, st2.dataCov, 12);
    const std::vector<double> den =
        mnfDenoiseReference(input, st2.mean, b2, st2.noiseCov, componentsWithSnr(b2, 10));
    double errIn = 0, errOut = 0;
    for (std::size_t i = 0; i < den.size(); ++i) {
        errIn += std::pow(input.value(i) - truth.value(i), 2);
        errOut += std::pow(den[i] - truth.value(i), 2);
    }
    EXPECT_LT(errOut, 0.5 * errIn) << errOut << " vs " << errIn;
}

TEST(MnfReference, ComponentsHaveTheEigenvaluesAsVariances) {
    const Cube cube = smallScene();
    const MnfStatistics st = mnfStatisticsReference(cube, NoiseEstimate::Diff);
    const MnfBasis basis = solveMnf(st.noiseCov, st.dataCov, 12);
    const int m = 5;
    const std::vector<double> z = mnfTransformReference(cube, st.mean, basis, m);
    const std::vector<double> cz = covarianceReference(z, m, cube.shape.pixels());
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            EXPECT_NEAR(cz[i * m + j], i == j ? basis.eigenvalues[i] : 0,
                        1e-8 * basis.eigenvalues[0]);
}

TEST(MnfReference, ResidualsOfHandMadeCube) {
    // 4 x 4 pixels, 1 band: value = 10 * line + sample, with one spike at (1, 2).
    Cube c = makeCube({4, 4, 1}, CubeType::F64);
    for (int l = 0; l < 4; ++l)
        for (int s = 0; s < 4; ++s)
            c.setValue(c.index(l, s, 0), 10 * l + s + (l == 1 && s == 2 ? 90 : 0));
    const std::vector<double> diff = noiseResidualsReference(c, NoiseEstimate::Diff);
    ASSERT_EQ(diff.size(), 9u);
    EXPECT_EQ(diff[0], -11);       // (0,0) - (1,1)
    EXPECT_EQ(diff[1], -11 - 90);  // (0,1) - (1,2): the spike
    EXPECT_EQ(diff[5], 90 - 11);   // (1,2) - (2,3)
    const std::vector<double> mean = noiseResidualsReference(c, NoiseEstimate::Mean3);
    ASSERT_EQ(mean.size(), 4u);            // interior (1..2) x (1..2)
    EXPECT_DOUBLE_EQ(mean[0], -10.0);      // centre (1,1): plane gives 0, spike in window: -90/9
    EXPECT_DOUBLE_EQ(mean[1], 90 - 10.0);  // centre (1,2) holds the spike
    const std::vector<double> med = noiseResidualsReference(c, NoiseEstimate::Median3);
    EXPECT_DOUBLE_EQ(med[0], 0);         // the median ignores one spike
    EXPECT_DOUBLE_EQ(med[1], 102 - 13);  // window sorted: 1 2 3 11 [13] 21 22 23 102
    EXPECT_NE(errorOf([] {
                  noiseResidualsReference(makeCube({2, 2, 1}, CubeType::U8), NoiseEstimate::Mean3);
              }).find("needs at least"),
              std::string::npos);
}

TEST(MnfReference, NoiseEstimatesRecoverWhiteNoiseVariance) {
    // Flat scene plus unit white noise: each estimate's scaled C_N diagonal is about 1 (mean3
    // only with the 9/8; the median's residual has no constant and is only checked loosely).
    SceneSpec spec;
    spec.shape = {211, 199, 2};
    spec.type = CubeType::F64;
    spec.endmembers = 1;
    Scene scene = makeScene(spec);
    for (NoiseEstimate est : {NoiseEstimate::Diff, NoiseEstimate::Mean3, NoiseEstimate::Median3}) {
        const MnfStatistics st = mnfStatisticsReference(scene.cube, est);
        for (int b = 0; b < 2; ++b) {
            const double ratio = st.noiseCov[b * 2 + b] / std::pow(scene.noiseSigma[b], 2);
            if (est == NoiseEstimate::Median3) {
                EXPECT_GT(ratio, 0.8) << b;
                EXPECT_LT(ratio, 1.6) << b;
            } else {
                EXPECT_NEAR(ratio, 1.0, 0.05) << noiseEstimateName(est) << " band " << b;
            }
        }
    }
}

TEST(MnfReference, ConstantBandIsRefusedWithTheReason) {
    Cube c = smallScene();
    for (int l = 0; l < c.shape.lines; ++l)
        for (int s = 0; s < c.shape.samples; ++s)
            c.setValue(c.index(l, s, 4), 7.0);
    const MnfStatistics st = mnfStatisticsReference(c, NoiseEstimate::Diff);
    EXPECT_NE(errorOf([&] { solveMnf(st.noiseCov, st.dataCov, 12); }).find("not positive definite"),
              std::string::npos);
}

// Spectral Python's mnf on the same cube: eigenvalues within 1e-4 relative and the transform's
// columns for components with SNR > 10 (lambda > 11) and a clear gap to their neighbours.
TEST(MnfReference, MatchesSpectralPython) {
    spectral_test::TempDir dir;
    SceneSpec spec;
    spec.shape = {96, 80, 24};
    spec.type = CubeType::I16;
    spec.seed = 11;
    const Scene scene = makeScene(spec);
    EnviHeader h;
    h.interleave = Interleave::Bil;
    h.byteOrder = ByteOrder::Big;
    h.wavelength = scene.wavelengthNm;
    writeEnvi(dir.file("s.hdr"), scene.cube, h);
    const int m = 8;
    // Debian's interpreter, which python3-spectral installs for (a python3 earlier on PATH, e.g.
    // pyenv's, would not see it).
    const std::string python =
        ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    const std::string cmd = python +
                            " " CLVIZ_TEST_SOURCE_DIR "/tests/compute/spectral/spy_mnf.py " +
                            dir.file("s.hdr") + " " + std::to_string(m) + " 2>&1";
    FILE* pipe = ::popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe))
        out.append(buf, n);
    const int status = ::pclose(pipe);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) GTEST_SKIP() << out;
    ASSERT_EQ(status, 0) << out;
    std::istringstream lines(out);
    std::string line;
    std::getline(lines, line);
    std::istringstream first(line);
    std::vector<double> spy;
    for (double v; first >> v;)
        spy.push_back(v);
    ASSERT_EQ(spy.size(), 24u) << out;

    const MnfStatistics st = mnfStatisticsReference(scene.cube, NoiseEstimate::Diff);
    const MnfBasis basis = solveMnf(st.noiseCov, st.dataCov, 24);
    int compared = 0;
    double worst = 0;
    for (int j = 0; j < 24; ++j) {
        if (basis.eigenvalues[j] <= 11) continue;
        const double rel = std::abs(spy[j] - basis.eigenvalues[j]) / basis.eigenvalues[j];
        worst = std::max(worst, rel);
        EXPECT_LT(rel, 1e-4) << "component " << j << ": " << spy[j] << " vs "
                             << basis.eigenvalues[j];
        ++compared;
    }
    EXPECT_GE(compared, 4);
    int vectors = 0;
    double worstVec = 0;
    for (int j = 0; j < m && std::getline(lines, line); ++j) {
        std::istringstream col(line);
        std::vector<double> t;
        for (double v; col >> v;)
            t.push_back(v);
        ASSERT_EQ(t.size(), 24u);
        const double l = basis.eigenvalues[j];
        const bool gap =
            (j == 0 || basis.eigenvalues[j - 1] > 1.05 * l) && basis.eigenvalues[j + 1] < l / 1.05;
        if (l <= 11 || !gap) continue;
        double norm = 0, err = 0;
        for (int i = 0; i < 24; ++i) {
            norm = std::max(norm, std::abs(basis.at(i, j)));
            err = std::max(err, std::abs(t[i] - basis.at(i, j)));
        }
        worstVec = std::max(worstVec, err / norm);
        EXPECT_LT(err / norm, 1e-4) << "component " << j;
        ++vectors;
    }
    EXPECT_GE(vectors, 2);
    std::printf(
        "Spectral Python: %d eigenvalues with SNR > 10, worst relative error %.3g; "
        "%d transform columns, worst relative error %.3g\n",
        compared, worst, vectors, worstVec);
}
