#pragma once
// The double-precision CPU reference of all eight MNF steps, the yardstick for the device path
// (tests/compute/spectral/) and for Spectral Python (tests/compute/spectral/spy_check.py):
//   1 noise residuals (noise_estimate.hpp)      5 C_adj = P^T C_D P
//   2 C_N = scale * cov(residuals)              6 C_adj = V Lambda V^T, descending
//   3 C_N = U D U^T, P = U D^-1/2               7 T = P V
//   4 C_D = cov(X)                              8 Z = T^T (X - mean), first m components
// Covariances remove the mean and divide by n - 1 (numpy's np.cov). Steps 3 and 5-7 are done two
// ways: the paper's (two symmetric eigenproblems, mnfTwoStepReference) and the one-call
// generalized problem the lab uses (solveMnf); the tests hold them to each other.
#include <vector>

#include "compute/spectral/cube.hpp"
#include "compute/spectral/mnf_solve.hpp"
#include "compute/spectral/noise_estimate.hpp"

namespace clviz {

// Step 1: bands x n residuals, band after band (n = residualSize(...).pixels(), in line order),
// from the pixels of `rect` (default: the whole cube).
std::vector<double> noiseResidualsReference(const Cube& cube, NoiseEstimate estimate,
                                            const CubeRect& rect = {});

// The covariance (row-major bands x bands, mean removed, divided by n - 1) of a bands x n matrix
// held band after band; `mean` receives the bands' means when given.
std::vector<double> covarianceReference(const std::vector<double>& rows, int bands, std::size_t n,
                                        std::vector<double>* mean = nullptr);

struct MnfStatistics {
    std::vector<double> mean;      // per band, of the whole cube
    std::vector<double> noiseCov;  // C_N, scaled
    std::vector<double> dataCov;   // C_D
};

// Steps 1, 2 and 4 (noise from `rect`, data statistics from the whole cube). Throws
// clviz::Error when the cube or rectangle is too small for the estimate.
MnfStatistics mnfStatisticsReference(const Cube& cube, NoiseEstimate estimate,
                                     const CubeRect& rect = {});

// Steps 3 and 5-7 as the paper writes them (LAPACKE_dsyevd twice), with solveMnf's conventions
// (descending, the largest-magnitude entry of each column positive).
MnfBasis mnfTwoStepReference(const std::vector<double>& noiseCov,
                             const std::vector<double>& dataCov, int bands);

// Step 8: m x pixels components, component after component (BSQ of an m-band cube).
std::vector<double> mnfTransformReference(const Cube& cube, const std::vector<double>& mean,
                                          const MnfBasis& basis, int m);

// The inverse MNF keeping k components: mean + D_k (x - mean) for every pixel, bands x pixels.
std::vector<double> mnfDenoiseReference(const Cube& cube, const std::vector<double>& mean,
                                        const MnfBasis& basis, const std::vector<double>& noiseCov,
                                        int k);

}  // namespace clviz
