#include "compute/spectral/mnf_solve.hpp"

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <string>

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

// Every eigenvalue but only the first `vectors` eigenvectors: C_N = U^T U (dpotrf), the standard
// problem U^-T C_D U^-1 (dsygst), its tridiagonal form (dsytrd), all eigenvalues from it
// (dsterf), the top `vectors` eigenvectors by MRRR (dstemr), back through the Householder
// reflections (dormtr) and U (dtrtrs: T = U^-1 Z). What dsygvd spends on the other B - vectors
// back-transformations is saved.
MnfBasis solvePartial(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                      int bands, int vectors) {
    const std::size_t B = std::size_t(bands), V = std::size_t(vectors);
    std::vector<double> a = dataCov, u = noiseCov;
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', bands, u.data(), bands);
    if (info > 0) notPositiveDefinite(info);
    if (info != 0) lapackFailed("dpotrf", info);
    info = LAPACKE_dsygst(LAPACK_COL_MAJOR, 1, 'U', bands, a.data(), bands, u.data(), bands);
    if (info != 0) lapackFailed("dsygst", info);
    std::vector<double> d(B), e(std::max<std::size_t>(B, 1)), tau(std::max<std::size_t>(B, 1));
    info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', bands, a.data(), bands, d.data(), e.data(),
                          tau.data());
    if (info != 0) lapackFailed("dsytrd", info);
    // Every eigenvalue (dsterf) on a second thread while this one finds the eigenvectors: the
    // two need only the tridiagonal form, and each is a third of the solve.
    std::vector<double> all = d, off = e;
    std::future<lapack_int> values = std::async(
        std::launch::async, [&] { return LAPACKE_dsterf(bands, all.data(), off.data()); });
    // Waits for the values before anything below can throw (the thread uses `all` and `off`).
    struct JoinValues {
        std::future<lapack_int>& f;
        ~JoinValues() {
            if (f.valid()) f.wait();
        }
    } join{values};
    // dstemr overwrites d and e; its e needs B entries (the last is workspace).
    std::vector<double> top(B), z(B * V);
    std::vector<lapack_int> support(2 * V);
    lapack_int found = 0;
    lapack_logical tryRac = 1;
    info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', bands, d.data(), e.data(), 0, 0,
                          bands - vectors + 1, bands, &found, top.data(), z.data(), bands,
                          lapack_int(V), support.data(), &tryRac);
    if (info != 0) lapackFailed("dstemr", info);
    if (found != vectors) lapackFailed("dstemr", -1000 - found);
    info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', bands, vectors, a.data(), bands,
                          tau.data(), z.data(), bands);
    if (info != 0) lapackFailed("dormtr", info);
    info = LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', bands, vectors, u.data(), bands,
                          z.data(), bands);
    if (info != 0) lapackFailed("dtrtrs", info);
    info = values.get();
    if (info != 0) lapackFailed("dsterf", info);
    MnfBasis basis;
    basis.bands = bands;
    basis.vectors = vectors;
    basis.eigenvalues.assign(all.rbegin(), all.rend());
    basis.transform.resize(B * V);
    for (std::size_t j = 0; j < V; ++j)  // dstemr's order is ascending too
        copySigned(z.data() + (V - 1 - j) * B, B, basis.transform.data() + j * B);
    return basis;
}

}  // namespace

MnfBasis solveMnf(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands, int vectors) {
    const std::size_t B = std::size_t(bands);
    if (bands < 1 || noiseCov.size() != B * B || dataCov.size() != B * B)
        throw Error("MNF: covariances must be bands x bands");
    if (vectors < 0 || vectors > bands)
        throw Error("MNF: eigenvectors must be 0 (all) to " + std::to_string(bands));
    const SingleBlasThread oneThread(bands < kSingleThreadBands);
    if (vectors == 0 || vectors == bands) return solveAll(noiseCov, dataCov, bands);
    return solvePartial(noiseCov, dataCov, bands, vectors);
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
