// The eigen step with only some eigenvectors (mnf_solve.cpp's partial route: dpotrf, dsygst,
// dsytrd, dsterf, dstemr, dormtr, dtrtrs) against the one-call dsygvd route with every
// eigenvector and the paper's two-step reference: every eigenvalue, the wanted columns of T, the
// sign rule; the denoise refuses more components than the basis holds; OpenBLAS's thread count
// is restored after a solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "compute/spectral/mnf_solve.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/scene.hpp"
#include "tests/support/error_message.hpp"

extern "C" void openblas_set_num_threads(int threads);
extern "C" int openblas_get_num_threads(void);

using namespace clviz;
using clviz::test::errorOf;

namespace {

MnfStatistics statistics(CubeShape shape, std::uint64_t seed = 4) {
    SceneSpec spec;
    spec.shape = shape;
    spec.type = CubeType::F32;
    spec.seed = seed;
    return mnfStatisticsReference(makeScene(spec).cube, NoiseEstimate::Diff);
}

// The partial solve's eigenvalues and columns against the full solve's.
void checkPartial(CubeShape shape, int vectors) {
    SCOPED_TRACE(describeShape(shape) + ", " + std::to_string(vectors) + " eigenvectors");
    const int B = shape.bands;
    const MnfStatistics st = statistics(shape);
    const MnfBasis all = solveMnf(st.noiseCov, st.dataCov, B);
    const MnfBasis part = solveMnf(st.noiseCov, st.dataCov, B, vectors);
    ASSERT_EQ(all.vectors, B);
    ASSERT_EQ(part.vectors, vectors == 0 ? B : vectors);
    ASSERT_EQ(part.eigenvalues.size(), std::size_t(B));
    ASSERT_EQ(part.transform.size(), std::size_t(B) * part.vectors);
    for (int j = 0; j < B; ++j)
        EXPECT_NEAR(part.eigenvalues[j], all.eigenvalues[j], 1e-10 * all.eigenvalues[0])
            << "eigenvalue " << j;
    for (int j = 0; j < part.vectors; ++j) {
        double norm = 0, err = 0;
        for (int b = 0; b < B; ++b) {
            norm = std::max(norm, std::abs(all.at(b, j)));
            err = std::max(err, std::abs(part.at(b, j) - all.at(b, j)));
        }
        EXPECT_LE(err, 1e-8 * norm) << "component " << j;
    }
}

}  // namespace

TEST(MnfSolve, PartialEigenvectorsMatchTheFullSolve) {
    // One band, two, a prime band count, a few vectors of many, all but one.
    checkPartial({9, 8, 1}, 1);
    checkPartial({9, 8, 2}, 1);
    checkPartial({23, 19, 13}, 5);
    checkPartial({31, 29, 37}, 7);
    checkPartial({31, 29, 37}, 36);
    checkPartial({31, 29, 37}, 0);
}

TEST(MnfSolve, PartialSolveWhitensTheNoise) {
    // T_m^T C_N T_m = I and T_m^T C_D T_m = diag(lambda_1..m) for the m columns solved.
    const int B = 29, m = 6;
    const MnfStatistics st = statistics({37, 31, B}, 8);
    const MnfBasis t = solveMnf(st.noiseCov, st.dataCov, B, m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            double n = 0, d = 0;
            for (int a = 0; a < B; ++a)
                for (int b = 0; b < B; ++b) {
                    n += t.at(a, i) * st.noiseCov[std::size_t(a) * B + b] * t.at(b, j);
                    d += t.at(a, i) * st.dataCov[std::size_t(a) * B + b] * t.at(b, j);
                }
            EXPECT_NEAR(n, i == j ? 1.0 : 0.0, 1e-9) << i << " " << j;
            EXPECT_NEAR(d, i == j ? t.eigenvalues[i] : 0.0, 1e-9 * t.eigenvalues[0])
                << i << " " << j;
        }
}

TEST(MnfSolve, BadArgumentsAndNoiseAreRefused) {
    const MnfStatistics st = statistics({17, 13, 5});
    EXPECT_NE(errorOf([&] { solveMnf(st.noiseCov, st.dataCov, 5, 6); }).find("eigenvectors"),
              std::string::npos);
    EXPECT_THROW(solveMnf(st.noiseCov, st.dataCov, 5, -1), Error);
    // A zero noise band: C_N is singular, on both routes with the same reason.
    std::vector<double> noise = st.noiseCov;
    for (int b = 0; b < 5; ++b)
        noise[std::size_t(2) * 5 + b] = noise[std::size_t(b) * 5 + 2] = 0;
    for (int vectors : {0, 2})
        EXPECT_NE(
            errorOf([&] { solveMnf(noise, st.dataCov, 5, vectors); }).find("not positive definite"),
            std::string::npos)
            << vectors;
    const MnfBasis two = solveMnf(st.noiseCov, st.dataCov, 5, 2);
    EXPECT_NO_THROW(denoiseMatrix(two, st.noiseCov, 2));
    EXPECT_NE(errorOf([&] { denoiseMatrix(two, st.noiseCov, 3); }).find("2 eigenvectors"),
              std::string::npos);
}

TEST(MnfSolve, OpenBlasThreadCountIsRestored) {
    const int before = openblas_get_num_threads();
    openblas_set_num_threads(2);
    const MnfStatistics st = statistics({17, 13, 5});
    solveMnf(st.noiseCov, st.dataCov, 5);
    solveMnf(st.noiseCov, st.dataCov, 5, 2);
    EXPECT_EQ(openblas_get_num_threads(), 2);
    openblas_set_num_threads(before);
}
