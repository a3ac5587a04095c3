// The MNF eigen step on the host, at B x B (default 224) covariances made from random data:
// each LAPACK routine of the partial route alone (thread CPU time, one OpenBLAS thread, best of
// --repeats), then solveMnf with every eigenvector (dsygvd) and with 20 (wall time, median and
// best). Run it on the machine whose "eigen" row of clviz-bench --suite mnf needs explaining
// (docs/spectral.md, "On the GPU").
// Usage: clviz-mnf-eigen-probe [BANDS] [REPEATS]
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <random>
#include <vector>

#include "common/parse.hpp"
#include "compute/spectral/mnf_solve.hpp"

extern "C" void openblas_set_num_threads(int threads);

namespace {

double threadCpuMs() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
    const auto n64 = argc > 1 ? clviz::parseInteger(argv[1]) : std::optional<long long>(224);
    const auto r64 = argc > 2 ? clviz::parseInteger(argv[2]) : std::optional<long long>(20);
    if (argc > 3 || !n64 || !r64 || *n64 < 2 || *n64 > 4096 || *r64 < 1 || *r64 > 10000) {
        std::fprintf(stderr, "usage: clviz-mnf-eigen-probe [BANDS 2..4096] [REPEATS 1..10000]\n");
        return 2;
    }
    const int n = int(*n64), repeats = int(*r64), m = std::min(20, n);
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
    const char* names[] = {
        "dpotrf", "dsygst", "dsytrd", "dsterf (all values)", "dstemr (m vectors)",
        "dormtr", "dtrtrs"};
    std::vector<double> best(7, 1e300);
    for (int r = 0; r < repeats; ++r) {
        std::vector<double> x = cd, u = cn, d(n), e(n), tau(n), z(std::size_t(n) * m), top(n);
        std::vector<lapack_int> support(2 * m);
        lapack_int found = 0;
        lapack_logical tryRac = 1;
        double t[8];
        t[0] = threadCpuMs();
        LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', n, u.data(), n);
        t[1] = threadCpuMs();
        LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', n, x.data(), n, u.data(), n);
        t[2] = threadCpuMs();
        LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', n, x.data(), n, d.data(), e.data(), tau.data());
        t[3] = threadCpuMs();
        std::vector<double> all = d, off = e;
        LAPACKE_dsterf(n, all.data(), off.data());
        t[4] = threadCpuMs();
        LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d.data(), e.data(), 0, 0, n - m + 1, n,
                       &found, top.data(), z.data(), n, m, support.data(), &tryRac);
        t[5] = threadCpuMs();
        LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', n, m, x.data(), n, tau.data(), z.data(), n);
        t[6] = threadCpuMs();
        LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', n, m, u.data(), n, z.data(), n);
        t[7] = threadCpuMs();
        for (int k = 0; k < 7; ++k)
            best[k] = std::min(best[k], t[k + 1] - t[k]);
    }
    std::printf("B = %d, m = %d, one OpenBLAS thread, thread CPU time, best of %d (ms):\n", n, m,
                repeats);
    double sum = 0;
    for (int k = 0; k < 7; ++k) {
        std::printf("  %-20s %8.3f\n", names[k], best[k]);
        sum += best[k];
    }
    std::printf("  %-20s %8.3f\n", "sum", sum);
    for (int vectors : {0, m}) {
        std::vector<double> ms;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            clviz::solveMnf(cn, cd, n, vectors);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("solveMnf, %d eigenvectors%s: median %.3f ms, best %.3f ms (wall)\n",
                    vectors == 0 ? n : vectors, vectors == 0 ? " (dsygvd)" : "", ms[ms.size() / 2],
                    ms[0]);
    }
    return 0;
}
