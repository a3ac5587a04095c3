// The eigen step with only some eigenvectors (mnf_solve.cpp's partial route: dpotrf, dsygst,
// dsytrd, dsterf, dstemr, dormtr, dtrtrs) against the one-call dsygvd route with every
// eigenvector and the paper's two-step reference: every eigenvalue, the wanted columns of T, the
// sign rule; the denoise refuses more components than the basis holds; OpenBLAS's thread count
// is restored after a solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "common/error.hpp"
#include "compute/spectral/blas_core.hpp"
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
void checkPartial(CubeShape shape, int vectors, MnfVectorRoute route = MnfVectorRoute::Mrrr,
                  int threads = 0, MnfValueRoute values = MnfValueRoute::Sterf) {
    SCOPED_TRACE(describeShape(shape) + ", " + std::to_string(vectors) + " eigenvectors" +
                 (route == MnfVectorRoute::Mrrr ? "" : ", inverse iteration"));
    const int B = shape.bands;
    const MnfStatistics st = statistics(shape);
    const MnfBasis all = solveMnf(st.noiseCov, st.dataCov, B);
    MnfSolveOptions options;
    options.vectorRoute = route;
    options.vectorThreads = threads;
    options.valueRoute = values;
    MnfSolveTimings t;
    const MnfBasis part = solveMnf(st.noiseCov, st.dataCov, B, vectors, options, &t);
    if (vectors > 0 && vectors < B) {
        EXPECT_GE(t.threads, 1);
        // These scenes' groups come out orthogonal: MRRR's result is the one checked, not the
        // fallback's.
        EXPECT_EQ(t.inverseIteration, route == MnfVectorRoute::InverseIteration);
        if (threads > 0 && route == MnfVectorRoute::Mrrr) {
            EXPECT_EQ(t.threads, std::min(threads, vectors));
        }
    }
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
    // One band, two, a prime band count, a few vectors of many (groups of MRRR on threads), all
    // but one; both eigenvector routes.
    for (MnfVectorRoute route : {MnfVectorRoute::Mrrr, MnfVectorRoute::InverseIteration}) {
        checkPartial({9, 8, 1}, 1, route);
        checkPartial({9, 8, 2}, 1, route);
        checkPartial({23, 19, 13}, 5, route);
        checkPartial({31, 29, 37}, 7, route);
        checkPartial({31, 29, 37}, 20, route);
        checkPartial({31, 29, 37}, 36, route);
        checkPartial({31, 29, 37}, 0, route);
    }
    // MRRR in groups on 2, 3 and 4 threads, whatever the cores here (an uneven last group).
    for (int threads : {2, 3, 4}) {
        checkPartial({31, 29, 37}, 20, MnfVectorRoute::Mrrr, threads);
        checkPartial({31, 29, 37}, 7, MnfVectorRoute::Mrrr, threads);
    }
    checkPartial({23, 19, 13}, 2, MnfVectorRoute::Mrrr, 4);  // more threads than vectors
    // Every eigenvalue by dqds instead of dsterf.
    checkPartial({31, 29, 37}, 20, MnfVectorRoute::Mrrr, 4, MnfValueRoute::Dqds);
    checkPartial({9, 8, 2}, 1, MnfVectorRoute::Mrrr, 0, MnfValueRoute::Dqds);
}

TEST(MnfSolve, PartialSolveWhitensTheNoise) {
    // T_m^T C_N T_m = I and T_m^T C_D T_m = diag(lambda_1..m) for the m columns solved.
    const int B = 29;
    const MnfStatistics st = statistics({37, 31, B}, 8);
    for (const auto& [m, route, threads] :
         {std::tuple{6, MnfVectorRoute::Mrrr, 0}, std::tuple{20, MnfVectorRoute::Mrrr, 4},
          std::tuple{20, MnfVectorRoute::InverseIteration, 0}}) {
        SCOPED_TRACE(std::to_string(m) + " vectors, " + std::to_string(threads) + " threads");
        MnfSolveOptions options;
        options.vectorRoute = route;
        options.vectorThreads = threads;
        const MnfBasis t = solveMnf(st.noiseCov, st.dataCov, B, m, options);
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

TEST(BlasCore, PreAvxFallbacksAreReplacedWhereTheCpuAllows) {
    EXPECT_EQ(betterBlasCore("Prescott", true, true), "SkylakeX");
    EXPECT_EQ(betterBlasCore("prescott", true, false), "Haswell");
    EXPECT_EQ(betterBlasCore("Nehalem", true, false), "Haswell");
    EXPECT_EQ(betterBlasCore("Prescott", false, false), "");  // no better kernels to run
    EXPECT_EQ(betterBlasCore("Haswell", true, true), "");     // a known model: left alone
    EXPECT_EQ(betterBlasCore("SkylakeX", true, true), "");
    EXPECT_EQ(betterBlasCore("Zen", true, false), "");
}

TEST(MnfSolve, ReductionHookIsUsedAndMatchesDsygst) {
    // A caller's reduction (here U^-T C_D U^-1 by explicit triangular solves) gives the same basis
    // as dsygst; a wrong one (C_D left as it is) gives another, so the hook is really used.
    const int B = 13, m = 5;
    const MnfStatistics st = statistics({23, 19, B}, 6);
    const MnfBasis ref = solveMnf(st.noiseCov, st.dataCov, B, m);
    int calls = 0;
    const MnfReduce solves = [&](const std::vector<double>& u, std::vector<double>& a, int n) {
        ++calls;
        // a <- U^-T a (columns), then a <- a U^-1 (rows), by substitution.
        for (int c = 0; c < n; ++c)
            for (int i = 0; i < n; ++i) {
                double s = a[std::size_t(c) * n + i];
                for (int k = 0; k < i; ++k)
                    s -= u[std::size_t(i) * n + k] * a[std::size_t(c) * n + k];
                a[std::size_t(c) * n + i] = s / u[std::size_t(i) * n + i];
            }
        for (int r = 0; r < n; ++r)
            for (int j = 0; j < n; ++j) {
                double s = a[std::size_t(j) * n + r];
                for (int k = 0; k < j; ++k)
                    s -= a[std::size_t(k) * n + r] * u[std::size_t(j) * n + k];
                a[std::size_t(j) * n + r] = s / u[std::size_t(j) * n + j];
            }
    };
    MnfSolveTimings t;
    MnfSolveOptions options;
    options.reduce = solves;
    const MnfBasis hooked = solveMnf(st.noiseCov, st.dataCov, B, m, options, &t);
    EXPECT_EQ(calls, 1);
    EXPECT_GE(t.threads, 1);
    for (int j = 0; j < B; ++j)
        EXPECT_NEAR(hooked.eigenvalues[j], ref.eigenvalues[j], 1e-10 * ref.eigenvalues[0]);
    for (int j = 0; j < m; ++j)
        for (int b = 0; b < B; ++b)
            EXPECT_NEAR(hooked.at(b, j), ref.at(b, j), 1e-8 * std::abs(ref.at(0, 0)) + 1e-12);
    options.reduce = [](const std::vector<double>&, std::vector<double>&, int) {};
    const MnfBasis wrong = solveMnf(st.noiseCov, st.dataCov, B, m, options);
    EXPECT_GT(std::abs(wrong.eigenvalues[0] - ref.eigenvalues[0]), 1e-3 * ref.eigenvalues[0]);
}
