#include "compute/spectral/mnf_solve.hpp"

#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "common/error.hpp"

// OpenBLAS's thread control (libopenblas, which clviz_spectral_data links; declared here rather
// than through <cblas.h>, which the alternatives system may point at another BLAS's header).
extern "C" void openblas_set_num_threads(int threads);
extern "C" int openblas_get_num_threads(void);

namespace clviz {

namespace {

// Below this many bands the eigenproblem runs on one OpenBLAS thread: waking a pool of threads
// for a 224 x 224 problem costs more than it saves (docs/spectral.md, "Eigen step").
constexpr int kSingleThreadBands = 512;

// Sets OpenBLAS to one thread for its lifetime, then restores the previous count.
class SingleBlasThread {
  public:
    explicit SingleBlasThread(bool active) : previous_(active ? openblas_get_num_threads() : 0) {
        if (previous_ > 1) openblas_set_num_threads(1);
    }
    ~SingleBlasThread() {
        if (previous_ > 1) openblas_set_num_threads(previous_);
    }
    SingleBlasThread(const SingleBlasThread&) = delete;
    SingleBlasThread& operator=(const SingleBlasThread&) = delete;

  private:
    int previous_;
};

[[noreturn]] void notPositiveDefinite(lapack_int minor) {
    throw Error("MNF: the noise covariance is not positive definite (minor " +
                std::to_string(minor) +
                "): a band is constant or noise-free, or there are fewer noise pixels than bands");
}

[[noreturn]] void lapackFailed(const char* routine, lapack_int info) {
    throw Error(std::string("MNF: LAPACKE_") + routine + " failed (info " + std::to_string(info) +
                ")");
}

// Copies column `src` of `vectors` (column-major, B rows) into `dst` with the sign rule: the
// largest-magnitude entry positive (the first such entry on a tie).
void copySigned(const double* col, std::size_t B, double* dst) {
    std::size_t big = 0;
    for (std::size_t i = 1; i < B; ++i)
        if (std::abs(col[i]) > std::abs(col[big])) big = i;
    const double sign = col[big] < 0 ? -1.0 : 1.0;
    for (std::size_t i = 0; i < B; ++i)
        dst[i] = sign * col[i];
}

// Every eigenvector: one dsygvd call (Cholesky of C_N, reduction, divide and conquer).
MnfBasis solveAll(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands) {
    const std::size_t B = std::size_t(bands);
    std::vector<double> a = dataCov, b = noiseCov, w(B);
    const lapack_int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', bands, a.data(), bands,
                                           b.data(), bands, w.data());
    if (info > bands) notPositiveDefinite(info - bands);
    if (info != 0) lapackFailed("dsygvd", info);
    MnfBasis basis;
    basis.bands = bands;
    basis.vectors = bands;
    basis.eigenvalues.resize(B);
    basis.transform.resize(B * B);
    for (std::size_t j = 0; j < B; ++j) {  // LAPACK's order is ascending: reverse it
        const std::size_t src = B - 1 - j;
        basis.eigenvalues[j] = w[src];
        copySigned(a.data() + src * B, B, basis.transform.data() + j * B);
    }
    return basis;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The threads the eigenvectors are split over: one per five wanted vectors (fewer is not worth a
// thread), at most four and at most the cores there are.
int vectorThreads(int vectors) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    return std::clamp(vectors / 5, 1, std::min(4, cores));
}

// The wanted eigenvectors of group [first, first + count) of the ascending wanted eigenvalues
// `w`, into columns of `z` (B x count, column-major): inverse iteration on the tridiagonal form
// (d, e), then back through the Householder reflections (a, tau: dormtr) and U (dtrtrs).
// Returns 0, or the LAPACK routine that failed and its info.
struct GroupFailure {
    const char* routine = nullptr;
    lapack_int info = 0;
};
GroupFailure solveGroup(int bands, const std::vector<double>& d, const std::vector<double>& e,
                        const double* w, int count, const std::vector<double>& a,
                        const std::vector<double>& tau, const std::vector<double>& u, double* z) {
    // One block (iblock all 1, isplit n): inverse iteration needs no splitting to be right.
    std::vector<lapack_int> iblock(std::size_t(count), 1), isplit(1, bands);
    std::vector<lapack_int> ifail(std::size_t(count), 0);
    // The _work form: LAPACKE_dstein's NaN check reads `bands` eigenvalues where a group has fewer.
    std::vector<double> work(5 * std::size_t(bands));
    std::vector<lapack_int> iwork(static_cast<std::size_t>(bands), 0);
    lapack_int info =
        LAPACKE_dstein_work(LAPACK_COL_MAJOR, bands, d.data(), e.data(), count, w, iblock.data(),
                            isplit.data(), z, bands, work.data(), iwork.data(), ifail.data());
    if (info != 0) return {"dstein", info};
    info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', bands, count, a.data(), bands,
                          tau.data(), z, bands);
    if (info != 0) return {"dormtr", info};
    info = LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', bands, count, u.data(), bands, z, bands);
    if (info != 0) return {"dtrtrs", info};
    return {};
}

// Every eigenvalue but only the first `vectors` eigenvectors: C_N = U^T U (dpotrf), the standard
// problem U^-T C_D U^-1 (dsygst or `reduce`), its tridiagonal form (dsytrd), every eigenvalue from
// it (dsterf), the top `vectors` eigenvectors by inverse iteration (dstein) with those values as
// shifts, back through the Householder reflections (dormtr) and U (dtrtrs: T = U^-1 Z), the
// eigenvectors in groups on a few threads (started before dsytrd, so their start-up is hidden).
// What dsygvd spends on the other B - vectors eigenvectors is saved.
MnfBasis solvePartial(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                      int bands, int vectors, const MnfReduce& reduce,
                      const std::vector<double>* noiseFactor, MnfSolveTimings& t) {
    const std::size_t B = std::size_t(bands), V = std::size_t(vectors);
    std::vector<double> a = dataCov;
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> u = noiseFactor ? *noiseFactor : noiseCholesky(noiseCov, bands);
    lapack_int info = 0;
    t.factorMs = noiseFactor ? 0.0 : msSince(t0);
    t0 = std::chrono::steady_clock::now();
    if (reduce) {
        reduce(u, a, bands);
    } else {
        info = LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', bands, a.data(), bands, u.data(), bands);
        if (info != 0) lapackFailed("dsygst", info);
    }
    t.reduceMs = msSince(t0);

    // The helper threads wait for the groups; `go` is set once they are known (or the solve
    // failed: no groups), and every thread is joined before anything below can leave.
    const int threads = vectorThreads(vectors);
    std::vector<double> d(B), e(std::max<std::size_t>(B, 1)), tau(std::max<std::size_t>(B, 1));
    std::vector<double> all, w, z(B * V);
    std::vector<int> first;  // group g: wanted values first[g] .. first[g + 1] - 1
    std::vector<GroupFailure> failures(std::size_t(threads), GroupFailure{});
    std::mutex mutex;
    std::condition_variable ready;
    bool go = false;
    auto runGroup = [&](int g) {
        if (g + 1 >= int(first.size())) return;
        const int count = first[g + 1] - first[g];
        failures[g] = solveGroup(bands, d, e, w.data() + first[g], count, a, tau, u,
                                 z.data() + std::size_t(first[g]) * B);
    };
    std::vector<std::thread> helpers;
    struct Release {
        std::mutex& m;
        std::condition_variable& cv;
        bool& go;
        std::vector<std::thread>& helpers;
        ~Release() {
            {
                std::lock_guard lock(m);
                go = true;
            }
            cv.notify_all();
            for (std::thread& h : helpers)
                h.join();
        }
    } release{mutex, ready, go, helpers};
    for (int g = 1; g < threads; ++g)
        helpers.emplace_back([&, g] {  // OpenBLAS's thread count is global: solveMnf set it
            {
                std::unique_lock lock(mutex);
                ready.wait(lock, [&] { return go; });
            }
            runGroup(g);
        });

    t0 = std::chrono::steady_clock::now();
    info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', bands, a.data(), bands, d.data(), e.data(),
                          tau.data());
    if (info != 0) lapackFailed("dsytrd", info);
    t.tridiagonalMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    all = d;
    std::vector<double> off = e;
    info = LAPACKE_dsterf(bands, all.data(), off.data());
    if (info != 0) lapackFailed("dsterf", info);
    t.valuesMs = msSince(t0);

    t0 = std::chrono::steady_clock::now();
    w.assign(all.end() - vectors, all.end());  // the wanted values, ascending
    double norm = 0;                           // dstein's: the largest row sum of |T|
    for (std::size_t i = 0; i < B; ++i)
        norm = std::max(norm, std::abs(d[i]) + (i > 0 ? std::abs(e[i - 1]) : 0.0) +
                                  (i + 1 < B ? std::abs(e[i]) : 0.0));
    first = {0};
    for (int split : eigenvectorSplits(w, norm, threads))
        first.push_back(split);
    first.push_back(vectors);
    {
        std::lock_guard lock(mutex);
        go = true;
    }
    ready.notify_all();
    runGroup(0);
    for (std::thread& h : helpers)
        h.join();
    helpers.clear();
    t.vectorsMs = msSince(t0);
    t.threads = int(first.size()) - 1;
    for (const GroupFailure& f : failures)
        if (f.routine) lapackFailed(f.routine, f.info);

    MnfBasis basis;
    basis.bands = bands;
    basis.vectors = vectors;
    basis.eigenvalues.assign(all.rbegin(), all.rend());
    basis.transform.resize(B * V);
    for (std::size_t j = 0; j < V; ++j)  // ascending too: reverse
        copySigned(z.data() + (V - 1 - j) * B, B, basis.transform.data() + j * B);
    return basis;
}

}  // namespace

std::vector<double> noiseCholesky(const std::vector<double>& noiseCov, int bands) {
    if (bands < 1 || noiseCov.size() != std::size_t(bands) * std::size_t(bands))
        throw Error("MNF: covariances must be bands x bands");
    std::vector<double> u = noiseCov;
    const lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', bands, u.data(), bands);
    if (info > 0) notPositiveDefinite(info);
    if (info != 0) lapackFailed("dpotrf", info);
    return u;
}

std::vector<int> eigenvectorSplits(const std::vector<double>& ascending, double norm, int groups) {
    const int n = int(ascending.size());
    const double apart = 1e-3 * norm;  // dstein's ORTOL
    std::vector<int> splits;
    for (int g = 1; g < groups; ++g) {
        const int ideal = int((std::int64_t(n) * g + groups / 2) / groups);
        // The allowed index nearest the ideal one, after the last split.
        int best = -1;
        for (int k = (splits.empty() ? 0 : splits.back()) + 1; k < n; ++k)
            if (ascending[k] - ascending[k - 1] > apart &&
                (best < 0 || std::abs(k - ideal) < std::abs(best - ideal)))
                best = k;
        if (best > 0 && (splits.empty() || best > splits.back())) splits.push_back(best);
    }
    return splits;
}

MnfBasis solveMnf(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands, int vectors, const MnfReduce& reduce, MnfSolveTimings* timings,
                  const std::vector<double>* noiseFactor) {
    if (noiseFactor && noiseFactor->size() != std::size_t(bands) * std::size_t(bands))
        throw Error("MNF: the noise factor must be bands x bands");
    const std::size_t B = std::size_t(bands);
    if (bands < 1 || noiseCov.size() != B * B || dataCov.size() != B * B)
        throw Error("MNF: covariances must be bands x bands");
    if (vectors < 0 || vectors > bands)
        throw Error("MNF: eigenvectors must be 0 (all) to " + std::to_string(bands));
    const SingleBlasThread oneThread(bands < kSingleThreadBands);
    MnfSolveTimings t;
    MnfBasis basis = vectors == 0 || vectors == bands
                         ? solveAll(noiseCov, dataCov, bands)
                         : solvePartial(noiseCov, dataCov, bands, vectors, reduce, noiseFactor, t);
    if (timings) *timings = t;
    return basis;
}

std::vector<double> denoiseMatrix(const MnfBasis& basis, const std::vector<double>& noiseCov,
                                  int k) {
    const std::size_t B = std::size_t(basis.bands);
    k = std::clamp(k, 0, basis.bands);
    if (k > basis.vectors)
        throw Error("MNF: denoise keeping " + std::to_string(k) + " components from a basis of " +
                    std::to_string(basis.vectors) + " eigenvectors");
    // M = T_k T_k^T, then D = C_N M (C_N symmetric, so its layout does not matter).
    std::vector<double> m(B * B, 0.0), d(B * B, 0.0);
    for (int c = 0; c < k; ++c) {
        const double* t = basis.transform.data() + std::size_t(c) * B;
        for (std::size_t j = 0; j < B; ++j)
            for (std::size_t i = 0; i < B; ++i)
                m[j * B + i] += t[i] * t[j];
    }
    for (std::size_t j = 0; j < B; ++j)
        for (std::size_t l = 0; l < B; ++l) {
            const double mlj = m[j * B + l];
            if (mlj == 0) continue;
            for (std::size_t i = 0; i < B; ++i)
                d[j * B + i] += noiseCov[l * B + i] * mlj;
        }
    return d;
}

int componentsWithSnr(const MnfBasis& basis, double snr) {
    return int(std::count_if(basis.eigenvalues.begin(), basis.eigenvalues.end(),
                             [&](double l) { return l >= 1 + snr; }));
}

}  // namespace clviz
