#include "compute/spectral/reference.hpp"

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"

namespace clviz {

std::vector<double> noiseResidualsReference(const Cube& cube, NoiseEstimate estimate,
                                            const CubeRect& rect) {
    const CubeShape& sh = cube.shape;
    const std::string problem = residualSizeProblem(estimate, sh, rect);
    if (!problem.empty()) throw Error(problem);
    const ResidualSize rs = residualSize(estimate, sh, rect);
    const CubeRect r = clampRect(rect, sh);
    std::vector<double> out(rs.pixels() * std::size_t(sh.bands));
    std::size_t o = 0;
    for (int b = 0; b < sh.bands; ++b)
        for (int l = 0; l < rs.lines; ++l)
            for (int s = 0; s < rs.samples; ++s) {
                if (estimate == NoiseEstimate::Diff) {
                    out[o++] = cube.at(r.line0 + l, r.sample0 + s, b) -
                               cube.at(r.line0 + l + 1, r.sample0 + s + 1, b);
                    continue;
                }
                double w[9];
                int k = 0;
                for (int dl = 0; dl < 3; ++dl)
                    for (int ds = 0; ds < 3; ++ds)
                        w[k++] = cube.at(r.line0 + l + dl, r.sample0 + s + ds, b);
                double centre = w[4], filtered;
                if (estimate == NoiseEstimate::Mean3) {
                    double sum = 0;
                    for (double v : w)
                        sum += v;
                    filtered = sum / 9.0;
                } else {
                    std::nth_element(w, w + 4, w + 9);
                    filtered = w[4];
                }
                out[o++] = centre - filtered;
            }
    return out;
}

std::vector<double> covarianceReference(const std::vector<double>& rows, int bands, std::size_t n,
                                        std::vector<double>* meanOut) {
    const std::size_t B = std::size_t(bands);
    if (n < 2) throw Error("covariance: needs at least 2 pixels");
    std::vector<double> centred(rows.begin(), rows.begin() + std::ptrdiff_t(B * n)), mean(B);
    for (std::size_t b = 0; b < B; ++b) {
        double sum = 0;
        for (std::size_t p = 0; p < n; ++p)
            sum += rows[b * n + p];
        mean[b] = sum / double(n);
        for (std::size_t p = 0; p < n; ++p)
            centred[b * n + p] -= mean[b];
    }
    std::vector<double> cov(B * B);
    for (std::size_t i = 0; i < B; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
            const double* x = centred.data() + i * n;
            const double* y = centred.data() + j * n;
            double sum = 0;
            for (std::size_t p = 0; p < n; ++p)
                sum += x[p] * y[p];
            cov[i * B + j] = cov[j * B + i] = sum / double(n - 1);
        }
    if (meanOut) *meanOut = mean;
    return cov;
}

MnfStatistics mnfStatisticsReference(const Cube& cube, NoiseEstimate estimate,
                                     const CubeRect& rect) {
    const int B = cube.shape.bands;
    MnfStatistics st;
    const std::vector<double> residuals = noiseResidualsReference(cube, estimate, rect);
    st.noiseCov = covarianceReference(residuals, B, residuals.size() / std::size_t(B));
    for (double& v : st.noiseCov)
        v *= noiseCovarianceScale(estimate);
    st.dataCov = covarianceReference(cube.toDouble(), B, cube.shape.pixels(), &st.mean);
    return st;
}

namespace {

// Eigenvalues (ascending) and vectors (column-major, overwriting `a`) of a symmetric matrix.
std::vector<double> symmetricEigen(std::vector<double>& a, int n, const char* what) {
    std::vector<double> w(static_cast<std::size_t>(n));
    const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', n, a.data(), n, w.data());
    if (info != 0) throw Error(std::string("MNF reference: LAPACKE_dsyevd failed on ") + what);
    return w;
}

}  // namespace

MnfBasis mnfTwoStepReference(const std::vector<double>& noiseCov,
                             const std::vector<double>& dataCov, int bands) {
    const std::size_t B = std::size_t(bands);
    // Step 3: C_N = U D U^T, P = U D^-1/2 (column j of U scaled by 1/sqrt(d_j)).
    std::vector<double> p = noiseCov;
    const std::vector<double> d = symmetricEigen(p, bands, "C_N");
    for (std::size_t j = 0; j < B; ++j) {
        if (!(d[j] > 0))
            throw Error("MNF reference: the noise covariance is not positive definite");
        for (std::size_t i = 0; i < B; ++i)
            p[j * B + i] /= std::sqrt(d[j]);
    }
    // Step 5: C_adj = P^T C_D P.
    std::vector<double> cdp(B * B, 0.0), adj(B * B, 0.0);
    for (std::size_t j = 0; j < B; ++j)
        for (std::size_t l = 0; l < B; ++l)
            for (std::size_t i = 0; i < B; ++i)
                cdp[j * B + i] += dataCov[l * B + i] * p[j * B + l];
    for (std::size_t j = 0; j < B; ++j)
        for (std::size_t i = 0; i < B; ++i) {
            double sum = 0;
            for (std::size_t l = 0; l < B; ++l)
                sum += p[i * B + l] * cdp[j * B + l];
            adj[j * B + i] = sum;
        }
    // Step 6: C_adj = V Lambda V^T; step 7: T = P V, both reversed to descending.
    const std::vector<double> lambda = symmetricEigen(adj, bands, "C_adj");
    MnfBasis basis;
    basis.bands = bands;
    basis.vectors = bands;
    basis.eigenvalues.assign(lambda.rbegin(), lambda.rend());
    basis.transform.assign(B * B, 0.0);
    for (std::size_t j = 0; j < B; ++j) {
        const double* v = adj.data() + (B - 1 - j) * B;
        double* t = basis.transform.data() + j * B;
        for (std::size_t l = 0; l < B; ++l)
            for (std::size_t i = 0; i < B; ++i)
                t[i] += p[l * B + i] * v[l];
        std::size_t big = 0;
        for (std::size_t i = 1; i < B; ++i)
            if (std::abs(t[i]) > std::abs(t[big])) big = i;
        if (t[big] < 0)
            for (std::size_t i = 0; i < B; ++i)
                t[i] = -t[i];
    }
    return basis;
}

std::vector<double> mnfTransformReference(const Cube& cube, const std::vector<double>& mean,
                                          const MnfBasis& basis, int m) {
    const std::size_t P = cube.shape.pixels(), B = std::size_t(cube.shape.bands);
    const std::vector<double> x = cube.toDouble();
    std::vector<double> z(std::size_t(m) * P, 0.0);
    for (int c = 0; c < m; ++c)
        for (std::size_t b = 0; b < B; ++b) {
            const double w = basis.at(int(b), c);
            for (std::size_t p = 0; p < P; ++p)
                z[std::size_t(c) * P + p] += w * (x[b * P + p] - mean[b]);
        }
    return z;
}

std::vector<double> mnfDenoiseReference(const Cube& cube, const std::vector<double>& mean,
                                        const MnfBasis& basis, const std::vector<double>& noiseCov,
                                        int k) {
    const std::size_t P = cube.shape.pixels(), B = std::size_t(cube.shape.bands);
    const std::vector<double> d = denoiseMatrix(basis, noiseCov, k);
    const std::vector<double> x = cube.toDouble();
    std::vector<double> out(B * P);
    for (std::size_t i = 0; i < B; ++i)
        for (std::size_t p = 0; p < P; ++p)
            out[i * P + p] = mean[i];
    for (std::size_t j = 0; j < B; ++j)
        for (std::size_t i = 0; i < B; ++i) {
            const double w = d[j * B + i];  // row i, column j
            if (w == 0) continue;
            for (std::size_t p = 0; p < P; ++p)
                out[i * P + p] += w * (x[j * P + p] - mean[j]);
        }
    return out;
}

}  // namespace clviz
