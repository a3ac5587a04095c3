#pragma once
// Steps 3, 5, 6 and 7 of MNF in double: the generalized symmetric eigenproblem
// C_D t = lambda C_N t, in one LAPACKE_dsygvd call (itype 1) when every eigenvector is wanted, else
// through its steps with only the wanted eigenvectors back-transformed (every eigenvalue either
// way: the lab plots them). On that route the reduction C_adj = U^-T C_D U^-1 (C_N = U^T U) can be
// handed to the caller (SpectralMnf does it on the device in FP64), every eigenvalue comes from
// dsterf, then the wanted eigenvectors by inverse iteration (or MRRR groups on helper threads
// beside dsterf) and the back-transformations. Problems of fewer than 512 bands run on one OpenBLAS
// thread per thread. It returns T with T^T C_N T = I, the same T as P V of the paper (P = U D^-1/2
// from C_N = U D U^T, V from P^T C_D P) up to the sign of each column, and the eigenvalues lambda =
// 1 + SNR of each component. Conventions: eigenvalues descending; each column of T has its
// largest-magnitude entry positive (the first such entry on a tie), so results from different
// solvers can be compared.
#include <functional>
#include <vector>

namespace clviz {

struct MnfBasis {
    int bands = 0;
    int vectors = 0;                  // the columns of T held: the first components'
    std::vector<double> eigenvalues;  // descending, `bands` of them
    // Column-major bands x vectors: column j (elements j*bands .. j*bands+bands-1) is component
    // j's weights, so component j of a pixel x is sum_b T[j*bands + b] * (x_b - mean_b).
    std::vector<double> transform;
    double at(int band, int component) const {
        return transform[std::size_t(component) * bands + band];
    }
};

// Step 5 given C_N = U^T U (U upper triangular, column-major, bands x bands): `a` holds C_D on
// entry and must hold C_adj = U^-T C_D U^-1 (its upper triangle at least) on return.
using MnfReduce =
    std::function<void(const std::vector<double>& u, std::vector<double>& a, int bands)>;

// How the partial route finds the wanted eigenvectors of the tridiagonal problem: inverse iteration
// (dstein) after dsterf, in one call on the calling thread (the default: on the GPU host, threads'
// wake-ups and MRRR's own cost there made the groups slower; docs/spectral.md); or MRRR (dstemr)
// in groups on helper threads beside dsterf, falling back to inverse iteration where the groups'
// vectors are not orthogonal.
enum class MnfVectorRoute { InverseIteration, Mrrr };

// How the partial route finds every eigenvalue of the tridiagonal problem: Pal-Walker-Kahan QR
// (dsterf) or dqds (dstemr without vectors).
enum class MnfValueRoute { Sterf, Dqds };

// Every eigenvalue of the tridiagonal form (diagonal d: bands values, off-diagonal e: bands - 1),
// ascending.
using MnfTridiagonalValues =
    std::function<std::vector<double>(const std::vector<double>& d, const std::vector<double>& e)>;

struct MnfSolveOptions {
    MnfReduce reduce;  // step 5 instead of dsygst (SpectralMnf: on the device)
    // Every eigenvalue instead of valueRoute's dsterf or dqds (SpectralMnf: on the device).
    MnfTridiagonalValues tridiagonalValues;
    // noiseCholesky(noiseCov), computed before (SpectralMnf: while the device computes C_D).
    const std::vector<double>* noiseFactor = nullptr;
    MnfVectorRoute vectorRoute = MnfVectorRoute::InverseIteration;
    int vectorThreads = 0;  // MRRR groups (helper threads); 0: one per five vectors, at most 4
    MnfValueRoute valueRoute = MnfValueRoute::Sterf;
};

// Host wall time of the partial route's parts, ms (zero on the dsygvd route).
struct MnfSolveTimings {
    double factorMs = 0;       // dpotrf of C_N (0 when given the factor)
    double reduceMs = 0;       // C_adj (dsygst, or the caller's reduction)
    double tridiagonalMs = 0;  // dsytrd
    double valuesMs = 0;  // every eigenvalue: dsterf, dqds or the caller's (MRRR groups run beside)
    double vectorsMs = 0;  // from dsytrd's end until every wanted eigenvector is back in T
    // Of vectorsMs on the MRRR route: until the last group's dstemr ended (its thread's wake-up
    // included), and the one back-transformation after it.
    double groupsMs = 0;
    double backTransformMs = 0;
    int threads = 0;                // the threads the eigenvectors were split over
    bool inverseIteration = false;  // dstein found them (asked for, or the MRRR groups' fallback)
};

// Solves for the basis with the first `vectors` eigenvectors (0: all). Both covariances are
// bands x bands, symmetric (row-major or column-major alike); `options` apply to the partial route
// (0 < vectors < bands). Throws clviz::Error when C_N is not positive definite (a constant band,
// or fewer noise pixels than bands) or LAPACK fails otherwise.
MnfBasis solveMnf(const std::vector<double>& noiseCov, const std::vector<double>& dataCov,
                  int bands, int vectors = 0, const MnfSolveOptions& options = {},
                  MnfSolveTimings* timings = nullptr);

// C_N = U^T U (dpotrf): U upper triangular, column-major (the lower triangle is C_N's). Throws
// clviz::Error as solveMnf does when C_N is not positive definite.
std::vector<double> noiseCholesky(const std::vector<double>& noiseCov, int bands);

// The bands x bands matrix (column-major) that denoises a centred pixel keeping the first k
// components: D_k = C_N T_k T_k^T, since T^-T = C_N T. D_bands is the identity. k is clamped to
// 0..bands; a k above basis.vectors throws clviz::Error (solve with more eigenvectors first).
std::vector<double> denoiseMatrix(const MnfBasis& basis, const std::vector<double>& noiseCov,
                                  int k);

// How many components have lambda >= 1 + snr (Spectral Python's num_with_snr).
int componentsWithSnr(const MnfBasis& basis, double snr);

}  // namespace clviz
