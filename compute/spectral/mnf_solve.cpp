#include "compute/spectral/mnf_solve.hpp"

#include <lapacke.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "common/elapsed.hpp"
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

// The helper threads the eigenvectors are split over: one per five wanted vectors (fewer is not
// worth a thread), at most four, and at least one core left for dsterf where there are two. On the
// GPU host 1, 2 and 4 helpers measured within that host's run-to-run noise (docs/spectral.md).
int vectorThreads(int vectors) {
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    return std::clamp(vectors / 5, 1, std::max(1, std::min(4, cores - 1)));
}

// No routine where a step succeeded; else the LAPACK routine that failed and its info.
struct GroupFailure {
    const char* routine = nullptr;
    lapack_int info = 0;
};

// The tridiagonal problem's eigenvectors z (B x count) back to the MNF basis: through the
// Householder reflections (dormtr), then U (dtrtrs: T = U^-1 Z).
GroupFailure backTransform(int bands, int count, const std::vector<double>& a,
                           const std::vector<double>& tau, const std::vector<double>& u,
                           double* z) {
    lapack_int info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', bands, count, a.data(), bands,
                                     tau.data(), z, bands);
    if (info != 0) return {"dormtr", info};
    info = LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', bands, count, u.data(), bands, z, bands);
    if (info != 0) return {"dtrtrs", info};
    return {};
}

// The wanted eigenvectors of group [first, first + count) of the ascending wanted eigenvalues
// `w`, into columns of `z` (B x count, column-major): inverse iteration on the tridiagonal form
// (d, e), then backTransform.
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
    return backTransform(bands, count, a, tau, u, z);
}

// Cosine above which two eigenvectors from different MRRR calls count as not orthogonal (each
// call's own are to ~1e-14; calls split inside a cluster of close eigenvalues may lose that).
constexpr double kCrossGroupCosine = 1e-10;

// The largest |z_i . z_j| over columns of different groups (z: B x V, column-major).
double crossGroupCosine(const std::vector<double>& z, std::size_t B,
                        const std::vector<int>& first) {
    double worst = 0;
    for (std::size_t g = 0; g + 1 < first.size(); ++g)
        for (int i = first[g]; i < first[g + 1]; ++i)
            for (int j = first[g + 1]; j < first.back(); ++j) {
                double dot = 0;
                for (std::size_t k = 0; k < B; ++k)
                    dot += z[std::size_t(i) * B + k] * z[std::size_t(j) * B + k];
                worst = std::max(worst, std::abs(dot));
            }
    return worst;
}

// Every eigenvalue but only the first `vectors` eigenvectors: C_N = U^T U (dpotrf), the standard
// problem U^-T C_D U^-1 (dsygst or the caller's reduction), its tridiagonal form (dsytrd), every
// eigenvalue (dsterf), then the top `vectors` eigenvectors by inverse iteration (dstein, one call
// that reorthogonalises every cluster) with dsterf's eigenvalues, back through the Householder
// reflections (dormtr) and U (dtrtrs: T = U^-1 Z). On request they come instead from MRRR in
// groups on helper threads beside dsterf (started before dsytrd, so their start-up is hidden; each
// group's by dstemr over its index range, the group that finishes last takes them all back),
// with inverse iteration where the groups' eigenvectors are not orthogonal to one another (a
// cluster of close eigenvalues split between two groups). What dsygvd spends on the other
// B - vectors eigenvectors is saved.
MnfBasis solvePartial(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                      int bands, int vectors, const MnfSolveOptions& options, MnfSolveTimings& t) {
    const std::size_t B = std::size_t(bands), V = std::size_t(vectors);
    std::vector<double> a = dataCov;
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> u =
        options.noiseFactor ? *options.noiseFactor : noiseCholesky(noiseCov, bands);
    lapack_int info = 0;
    t.factorMs = options.noiseFactor ? 0.0 : msSince(t0);
    t0 = std::chrono::steady_clock::now();
    if (options.reduce) {
        options.reduce(u, a, bands);
    } else {
        info = LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', bands, a.data(), bands, u.data(), bands);
        if (info != 0) lapackFailed("dsygst", info);
    }
    t.reduceMs = msSince(t0);

    // Groups of the wanted indices (ascending: wanted value k is eigenvalue B - V + k), equal
    // shares. The helpers wait for `go`, set after dsytrd (or when the solve fails: then they
    // find no tridiagonal form and return), and are joined before anything below can leave.
    const bool mrrr = options.vectorRoute == MnfVectorRoute::Mrrr;
    const int groups = !mrrr ? 0
                             : std::clamp(options.vectorThreads > 0 ? options.vectorThreads
                                                                    : vectorThreads(vectors),
                                          1, vectors);
    std::vector<int> first;
    for (int g = 0; g <= groups; ++g)
        first.push_back(int(std::int64_t(vectors) * g / std::max(groups, 1)));
    std::vector<double> d(B), e(std::max<std::size_t>(B, 1)), tau(std::max<std::size_t>(B, 1));
    std::vector<double> z(B * V);
    std::vector<GroupFailure> failures(std::size_t(groups), GroupFailure{});
    GroupFailure backFailure;
    // The helpers wait until `phase` says run (after dsytrd) or leave (the solve failed first).
    enum Phase : int { kWait, kRun, kLeave };
    int phase = kWait;
    std::mutex mutex;
    std::condition_variable changed;
    // The group that finishes last takes every wanted column back through the reflections and U
    // in one dormtr + dtrtrs (as cheap for 20 columns as for 5 here), while dsterf still runs on
    // this thread; the groups' MRRR calls run at once. Only that one thread calls into BLAS:
    // Debian 12's OpenBLAS (0.3.21) gave wrong columns now and then when two threads ran dormtr /
    // dtrtrs at once (9 test runs of 150, here and on the GPU host).
    std::atomic<int> finished{0};
    std::chrono::steady_clock::time_point released;  // set before the helpers are let go
    bool transformed = false;
    auto runGroup = [&](int g) {
        const int count = first[g + 1] - first[g];
        if (count > 0) {
            std::vector<double> dd = d, ee = e, w(B);
            std::vector<lapack_int> support(2 * std::size_t(count));
            lapack_int found = 0;
            lapack_logical tryRac = 1;
            double* zg = z.data() + std::size_t(first[g]) * B;
            const lapack_int il = bands - vectors + 1 + first[g],
                             iu = bands - vectors + first[g + 1];
            const lapack_int info =
                LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', bands, dd.data(), ee.data(), 0, 0, il,
                               iu, &found, w.data(), zg, bands, count, support.data(), &tryRac);
            if (info != 0 || found != count)
                failures[g] = {"dstemr", info != 0 ? info : -1000 - found};
        }
        if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 != groups) return;
        const auto tb = std::chrono::steady_clock::now();
        t.groupsMs = std::chrono::duration<double, std::milli>(tb - released).count();
        for (const GroupFailure& f : failures)
            if (f.routine) return;  // this thread's caller falls back to inverse iteration
        if (groups > 1 && crossGroupCosine(z, B, first) > kCrossGroupCosine) return;
        backFailure = backTransform(bands, vectors, a, tau, u, z.data());
        transformed = !backFailure.routine;
        t.backTransformMs = msSince(tb);
    };
    std::vector<std::thread> helpers;
    struct Release {  // lets the helpers go (to leave, unless they run) and joins them
        std::mutex& m;
        std::condition_variable& cv;
        int& phase;
        std::vector<std::thread>& helpers;
        ~Release() {
            {
                std::lock_guard lock(m);
                if (phase == kWait) phase = kLeave;
            }
            cv.notify_all();
            for (std::thread& h : helpers)
                h.join();
        }
    } release{mutex, changed, phase, helpers};
    for (int g = 0; g < groups; ++g)
        helpers.emplace_back([&, g] {  // OpenBLAS's thread count is global: solveMnf set it
            int now;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return phase != kWait; });
                now = phase;
            }
            if (now == kRun) runGroup(g);
        });

    t0 = std::chrono::steady_clock::now();
    info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', bands, a.data(), bands, d.data(), e.data(),
                          tau.data());
    if (info != 0) lapackFailed("dsytrd", info);
    t.tridiagonalMs = msSince(t0);
    t0 = released = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex);
        phase = kRun;
    }
    changed.notify_all();
    std::vector<double> all = d, off = e;
    if (options.tridiagonalValues) {
        all = options.tridiagonalValues(d, e);
        if (all.size() != B) throw Error("MNF: the tridiagonal eigenvalues came back incomplete");
    } else if (options.valueRoute == MnfValueRoute::Dqds) {
        std::vector<double> values(B), unused(1);
        std::vector<lapack_int> support(2 * B);
        lapack_int found = 0;
        lapack_logical tryRac = 1;
        info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'N', 'A', bands, all.data(), off.data(), 0, 0, 0, 0,
                              &found, values.data(), unused.data(), 1, 1, support.data(), &tryRac);
        if (info != 0 || found != bands) lapackFailed("dstemr", info != 0 ? info : -1000 - found);
        all = values;  // ascending, as dsterf's
    } else {
        info = LAPACKE_dsterf(bands, all.data(), off.data());
        if (info != 0) lapackFailed("dsterf", info);
    }
    t.valuesMs = msSince(t0);
    for (std::thread& h : helpers)
        h.join();
    helpers.clear();
    // Helpers joined: `transformed` and `backFailure` are theirs no more.
    if (backFailure.routine) lapackFailed(backFailure.routine, backFailure.info);
    t.threads = groups;
    if (!transformed) {  // asked for, or the groups failed or are not orthogonal to one another
        const GroupFailure f =
            solveGroup(bands, d, e, all.data() + (B - V), vectors, a, tau, u, z.data());
        if (f.routine) lapackFailed(f.routine, f.info);
        t.inverseIteration = true;
        t.threads = 1;
    }
    t.vectorsMs = msSince(t0);  // from dsytrd's end: dsterf beside them included

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

MnfBasis solveMnf(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands, int vectors, const MnfSolveOptions& options,
                  MnfSolveTimings* timings) {
    if (options.noiseFactor &&
        options.noiseFactor->size() != std::size_t(bands) * std::size_t(bands))
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
                         : solvePartial(noiseCov, dataCov, bands, vectors, options, t);
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
    // D = C_N T_k T_k^T as (C_N T_k) T_k^T: 2 B^2 k multiply-adds instead of B^3 for C_N times
    // the B x B product T_k T_k^T (C_N symmetric, so its layout does not matter).
    const std::size_t K = std::size_t(k);
    std::vector<double> p(B * K, 0.0), d(B * B, 0.0);  // p: B x k, column c = C_N t_c
    for (std::size_t c = 0; c < K; ++c) {
        const double* t = basis.transform.data() + c * B;
        double* pc = p.data() + c * B;
        for (std::size_t l = 0; l < B; ++l) {
            const double tl = t[l];
            if (tl == 0) continue;
            for (std::size_t i = 0; i < B; ++i)
                pc[i] += noiseCov[l * B + i] * tl;
        }
    }
    for (std::size_t c = 0; c < K; ++c) {
        const double* t = basis.transform.data() + c * B;
        const double* pc = p.data() + c * B;
        for (std::size_t j = 0; j < B; ++j) {
            const double tj = t[j];
            for (std::size_t i = 0; i < B; ++i)
                d[j * B + i] += pc[i] * tj;
        }
    }
    return d;
}

int componentsWithSnr(const MnfBasis& basis, double snr) {
    return int(std::count_if(basis.eigenvalues.begin(), basis.eigenvalues.end(),
                             [&](double l) { return l >= 1 + snr; }));
}

}  // namespace clviz
