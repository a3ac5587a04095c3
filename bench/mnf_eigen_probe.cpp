// The MNF eigen step on the host, at B x B (default 224) covariances made from random data: each
// LAPACK/BLAS routine of the partial route and of its alternatives alone (wall time, median and
// best of REPEATS, one OpenBLAS thread unless said), then solveMnf with every eigenvector (dsygvd)
// and with 20 (wall time, median and best). Prints the OpenBLAS core it runs on. Run it on the
// machine whose "eigen" row of clviz-bench --suite mnf needs explaining (docs/spectral.md).
// Usage: clviz-mnf-eigen-probe [BANDS] [REPEATS]
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <future>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/parse.hpp"
#include "compute/spectral/mnf_solve.hpp"

extern "C" void openblas_set_num_threads(int threads);
extern "C" char* openblas_get_config(void);
extern "C" char* openblas_get_corename(void);
// Fortran BLAS (OpenBLAS's C implementations ignore the hidden string lengths).
extern "C" void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag,
                       const int* m, const int* n, const double* alpha, const double* a,
                       const int* lda, double* b, const int* ldb, std::size_t, std::size_t,
                       std::size_t, std::size_t);
extern "C" void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b,
                       const int* ldb, const double* beta, double* c, const int* ldc, std::size_t,
                       std::size_t);

namespace {

double msNow() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Stat {
    std::vector<double> ms;
    void add(double v) { ms.push_back(v); }
    double median() {
        std::sort(ms.begin(), ms.end());
        return ms.empty() ? 0 : ms[ms.size() / 2];
    }
    double best() { return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end()); }
};

}  // namespace

int main(int argc, char** argv) {
    const auto n64 = argc > 1 ? clviz::parseInteger(argv[1]) : std::optional<long long>(224);
    const auto r64 = argc > 2 ? clviz::parseInteger(argv[2]) : std::optional<long long>(100);
    if (argc > 3 || !n64 || !r64 || *n64 < 2 || *n64 > 4096 || *r64 < 1 || *r64 > 10000) {
        std::fprintf(stderr, "usage: clviz-mnf-eigen-probe [BANDS 2..4096] [REPEATS 1..10000]\n");
        return 2;
    }
    const int n = int(*n64), repeats = int(*r64), m = std::min(20, n);
    std::printf("OpenBLAS: %s (core %s)\n", openblas_get_config(), openblas_get_corename());
    // C_D = A A^T + I, C_N = 50 I + A A^T / 100: symmetric positive definite, spread spectra.
    std::mt19937 gen(1);
    std::normal_distribution<double> normal;
    std::vector<double> a(std::size_t(n) * n), cd(a.size()), cn(a.size());
    for (double& x : a)
        x = normal(gen);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k)
                s += a[std::size_t(i) * n + k] * a[std::size_t(j) * n + k];
            cd[std::size_t(i) * n + j] = s + (i == j);
            cn[std::size_t(i) * n + j] = s * 0.01 + (i == j ? 50 : 0);
        }
    openblas_set_num_threads(1);
    const char* names[] = {"dpotrf",
                           "dsygst",
                           "dsytrd",
                           "dsterf (all values)",
                           "dstemr (m vectors)",
                           "dormtr",
                           "dtrtrs",
                           "dtrtri (U^-1)",
                           "2 x dtrmm (U^-T A U^-1)",
                           "dgemm B x B x B",
                           "dstebz (m values)",
                           "dstein (m vectors)",
                           "dsytrd, 2 threads",
                           "dsytrd, 4 threads",
                           "copy B x B doubles",
                           "dstemr (m/4 vectors)",
                           "std::async start + join",
                           "dstemr N A (all values, dqds)",
                           "dstemr N I (m values)"};
    constexpr int kParts = 19;
    std::vector<Stat> stats(kParts);
    const double one = 1.0, zero = 0.0;
    for (int r = 0; r < repeats; ++r) {
        std::vector<double> x = cd, u = cn, d(n), e(n), tau(n), z(std::size_t(n) * m), top(n);
        std::vector<lapack_int> support(2 * m);
        lapack_int found = 0;
        lapack_logical tryRac = 1;
        auto timed = [&](int part, const std::function<void()>& f) {
            const double t0 = msNow();
            f();
            stats[part].add(msNow() - t0);
        };
        timed(0, [&] { LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, u.data(), n); });
        std::vector<double> x2 = x;
        timed(1, [&] { LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', n, x.data(), n, u.data(), n); });
        std::vector<double> x3 = x;
        timed(2, [&] {
            LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', n, x.data(), n, d.data(), e.data(), tau.data());
        });
        std::vector<double> all = d, off = e, d2 = d, e2 = e;
        timed(3, [&] { LAPACKE_dsterf(n, all.data(), off.data()); });
        timed(4, [&] {
            LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d.data(), e.data(), 0, 0, n - m + 1, n,
                           &found, top.data(), z.data(), n, m, support.data(), &tryRac);
        });
        timed(5, [&] {
            LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', n, m, x.data(), n, tau.data(), z.data(),
                           n);
        });
        timed(6, [&] {
            LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', n, m, u.data(), n, z.data(), n);
        });
        std::vector<double> ui = u;
        timed(7, [&] { LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'U', 'N', n, ui.data(), n); });
        timed(8, [&] {
            dtrmm_("R", "U", "N", "N", &n, &n, &one, ui.data(), &n, x2.data(), &n, 1, 1, 1, 1);
            dtrmm_("L", "U", "T", "N", &n, &n, &one, ui.data(), &n, x2.data(), &n, 1, 1, 1, 1);
        });
        std::vector<double> g(std::size_t(n) * n);
        timed(9, [&] {
            dgemm_("N", "N", &n, &n, &n, &one, cd.data(), &n, cn.data(), &n, &zero, g.data(), &n, 1,
                   1);
        });
        std::vector<double> w(n);
        std::vector<lapack_int> iblock(n), isplit(n), ifail(m);
        lapack_int mFound = 0, nsplit = 0;
        timed(10, [&] {
            LAPACKE_dstebz('I', 'B', n, 0, 0, n - m + 1, n, 0.0, d2.data(), e2.data(), &mFound,
                           &nsplit, w.data(), iblock.data(), isplit.data());
        });
        std::vector<double> z2(std::size_t(n) * m);
        timed(11, [&] {
            LAPACKE_dstein(LAPACK_COL_MAJOR, n, d2.data(), e2.data(), mFound, w.data(),
                           iblock.data(), isplit.data(), z2.data(), n, ifail.data());
        });
        for (int threads : {2, 4}) {
            std::vector<double> x4 = x3;
            openblas_set_num_threads(threads);
            timed(threads == 2 ? 12 : 13, [&] {
                LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', n, x4.data(), n, d.data(), e.data(),
                               tau.data());
            });
            openblas_set_num_threads(1);
        }
        timed(14, [&] {
            std::vector<double> c = cd;
            x3.swap(c);
        });
        const int quarter = std::max(1, m / 4);
        timed(15, [&] {
            LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d2.data(), e2.data(), 0, 0,
                           n - quarter + 1, n, &found, top.data(), z.data(), n, quarter,
                           support.data(), &tryRac);
        });
        timed(16, [&] { std::async(std::launch::async, [] { return 0; }).get(); });
        std::vector<double> d3 = all, e3 = all;  // placeholders, refilled below
        {
            // dstemr overwrites d and e: fresh copies of the tridiagonal form from x3's reduction.
            std::vector<double> xr = cd, ur = cn, dd(n), ee(n), tt(n);
            LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, ur.data(), n);
            LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', n, xr.data(), n, ur.data(), n);
            LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', n, xr.data(), n, dd.data(), ee.data(), tt.data());
            d3 = dd;
            e3 = ee;
            timed(17, [&] {
                LAPACKE_dstemr(LAPACK_COL_MAJOR, 'N', 'A', n, d3.data(), e3.data(), 0, 0, 0, 0,
                               &found, top.data(), z.data(), n, n, support.data(), &tryRac);
            });
            d3 = dd;
            e3 = ee;
            timed(18, [&] {
                LAPACKE_dstemr(LAPACK_COL_MAJOR, 'N', 'I', n, d3.data(), e3.data(), 0, 0,
                               n - m + 1, n, &found, top.data(), z.data(), n, m, support.data(),
                               &tryRac);
            });
        }
    }
    std::printf("B = %d, m = %d, wall time over %d repeats (ms):  median     best\n", n, m,
                repeats);
    for (int k = 0; k < kParts; ++k)
        std::printf("  %-28s %8.3f %8.3f\n", names[k], stats[k].median(), stats[k].best());
    for (int vectors : {0, m}) {
        Stat s;
        for (int r = 0; r < repeats; ++r) {
            const double t0 = msNow();
            clviz::solveMnf(cn, cd, n, vectors);
            s.add(msNow() - t0);
        }
        std::printf("solveMnf, %d eigenvectors%s: median %.3f ms, best %.3f ms (wall)\n",
                    vectors == 0 ? n : vectors, vectors == 0 ? " (dsygvd)" : "", s.median(),
                    s.best());
    }
    return 0;
}
