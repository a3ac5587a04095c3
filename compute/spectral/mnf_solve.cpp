#include "compute/spectral/mnf_solve.hpp"

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"

namespace clviz {

MnfBasis solveMnf(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands) {
    const std::size_t B = std::size_t(bands);
    if (bands < 1 || noiseCov.size() != B * B || dataCov.size() != B * B)
        throw Error("MNF: covariances must be bands x bands");
    std::vector<double> a = dataCov, b = noiseCov, w(B);
    const lapack_int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', bands, a.data(), bands,
                                           b.data(), bands, w.data());
    if (info > bands)
        throw Error(
            "MNF: the noise covariance is not positive definite (minor " +
            std::to_string(info - bands) +
            "): a band is constant or noise-free, or there are fewer noise pixels than bands");
    if (info != 0) throw Error("MNF: LAPACKE_dsygvd failed (info " + std::to_string(info) + ")");
    MnfBasis basis;
    basis.bands = bands;
    basis.eigenvalues.resize(B);
    basis.transform.resize(B * B);
    for (std::size_t j = 0; j < B; ++j) {  // LAPACK's order is ascending: reverse it
        const std::size_t src = B - 1 - j;
        basis.eigenvalues[j] = w[src];
        const double* col = a.data() + src * B;
        std::size_t big = 0;
        for (std::size_t i = 1; i < B; ++i)
            if (std::abs(col[i]) > std::abs(col[big])) big = i;
        const double sign = col[big] < 0 ? -1.0 : 1.0;
        for (std::size_t i = 0; i < B; ++i)
            basis.transform[j * B + i] = sign * col[i];
    }
    return basis;
}

std::vector<double> denoiseMatrix(const MnfBasis& basis, const std::vector<double>& noiseCov,
                                  int k) {
    const std::size_t B = std::size_t(basis.bands);
    k = std::clamp(k, 0, basis.bands);
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
