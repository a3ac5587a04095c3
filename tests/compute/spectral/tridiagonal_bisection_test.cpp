// The device's eigenvalues of symmetric tridiagonal matrices (multisection on Sturm counts,
// FP64) against LAPACK's dsterf on the host: random matrices of awkward sizes, repeated and
// clustered eigenvalues, a split (zero off-diagonal), a wide range of magnitudes, negative values.
#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/spectral/tridiagonal_bisection.hpp"
#include "tests/support/device_context.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::context;
using clviz::test::errorOf;

namespace {

struct Tridiagonal {
    std::string name;
    std::vector<double> d, e;
};

std::vector<double> dsterf(Tridiagonal t) {
    std::vector<double> e = t.e;
    e.resize(std::max<std::size_t>(t.d.size(), 1));
    const lapack_int info = LAPACKE_dsterf(lapack_int(t.d.size()), t.d.data(), e.data());
    EXPECT_EQ(info, 0) << t.name;
    return t.d;
}

Tridiagonal random(int n, std::uint32_t seed, double scale = 1.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Tridiagonal t{"random n=" + std::to_string(n), std::vector<double>(n), std::vector<double>(n)};
    for (int i = 0; i < n; ++i) {
        t.d[i] = scale * u(rng);
        t.e[i] = i + 1 < n ? scale * u(rng) : 0.0;
    }
    return t;
}

// Expects every eigenvalue within a few units in the last place of the largest, as dsterf's.
void expectMatchesDsterf(const Tridiagonal& t) {
    TridiagonalBisection bisection(context());
    const std::vector<double> got = bisection.eigenvalues(t.d, t.e);
    const std::vector<double> want = dsterf(t);
    ASSERT_EQ(got.size(), want.size()) << t.name;
    double norm = 0;
    for (double v : want)
        norm = std::max(norm, std::abs(v));
    const double tolerance = 64 * 2.2e-16 * std::max(norm, 1e-300) * double(t.d.size());
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, std::abs(got[i] - want[i]));
        if (i > 0) {
            EXPECT_LE(got[i - 1], got[i]) << t.name << ": not ascending at " << i;
        }
    }
    EXPECT_LE(worst, tolerance) << t.name << ": worst difference from dsterf " << worst;
}

}  // namespace

TEST(TridiagonalBisection, MatchesDsterfAtAwkwardSizes) {
    if (!TridiagonalBisection::supported(context(), 1)) GTEST_SKIP() << "no cl_khr_fp64";
    for (int n : {1, 2, 3, 13, 37, 224, 301})
        expectMatchesDsterf(random(n, 7u + unsigned(n)));
}

TEST(TridiagonalBisection, RepeatedClusteredSplitAndWideSpectra) {
    if (!TridiagonalBisection::supported(context(), 1)) GTEST_SKIP() << "no cl_khr_fp64";
    const int n = 64;
    // Every eigenvalue 3 (a diagonal matrix: every off-diagonal zero).
    expectMatchesDsterf({"all equal", std::vector<double>(n, 3.0), std::vector<double>(n, 0.0)});
    // A tight cluster near 1 beside a few large values, as C_adj's noise floor and its signal.
    Tridiagonal cluster = random(n, 11, 1e-7);
    for (int i = 0; i < n; ++i)
        cluster.d[i] += i % 16 == 0 ? 1e4 * (1 + i) : 1.0;
    cluster.name = "clustered near 1 with large values";
    expectMatchesDsterf(cluster);
    // Two blocks (a zero in the middle of the off-diagonal), negative values.
    Tridiagonal split = random(n, 13, 5.0);
    split.e[n / 2] = 0.0;
    for (double& v : split.d)
        v -= 20.0;
    split.name = "split, negative";
    expectMatchesDsterf(split);
    // Magnitudes from 1e-3 to 1e6 along the diagonal.
    Tridiagonal wide = random(n, 17, 1e-3);
    for (int i = 0; i < n; ++i)
        wide.d[i] = std::pow(10.0, -3.0 + 9.0 * i / (n - 1));
    wide.name = "wide range";
    expectMatchesDsterf(wide);
}

TEST(TridiagonalBisection, RefusesWhatItCannotTake) {
    if (!TridiagonalBisection::supported(context(), 1)) GTEST_SKIP() << "no cl_khr_fp64";
    TridiagonalBisection bisection(context());
    EXPECT_NE(errorOf([&] {
                  bisection.eigenvalues({1.0, 2.0, 3.0}, {0.5});
              }).find("off-diagonal needs n - 1"),
              std::string::npos);
    EXPECT_NE(errorOf([&] {
                  bisection.eigenvalues({1.0, NAN}, {0.5});
              }).find("not finite"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { bisection.eigenvalues({}, {}); }).find("cannot take 0 rows"),
              std::string::npos);
}
