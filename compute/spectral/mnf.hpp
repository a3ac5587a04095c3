#pragma once
// Maximum Noise Fraction on the OpenCL device. The cube is uploaded once (u8 as u8, so its data
// covariance takes the linear-algebra lab's exact integer path; every other type as float), each
// band's row padded to a multiple of 16 values (bandPitch(): the covariance's 16-byte loads need
// aligned rows); then each run() does
//   filter  step 1 on the device: the noise residuals (kernels/spectral_mnf.cl), bands x n floats;
//           for u8 cubes with noise=diff the shifted window instead (whole cube: bands x
//           (lines - 1) samples u8), or both windows stacked (a rectangle: 2 bands x n u8)
//   C_N     step 2: the residuals' covariance (compute/linalg/covariance), scaled by the estimate;
//           u8 + diff: exact integer sums, the cube against its shifted window in one product or
//           the stacked windows' Gram matrix, folded into the B x B Gram matrix of their
//           difference on the device either way (noise_diff_gram.hpp)
//   C_D     step 4: the cube's covariance and band means (same kernel; exact for u8)
//   eigen   steps 3, 5-7 in double (mnf_solve.hpp), every eigenvalue and the eigenvectors asked
//           for: on the CPU, but for step 5 (C_adj = U^-T C_D U^-1) on the device in FP64 where it
//           has cl_khr_fp64 (mnf_device_reduce.hpp; setDeviceReduce(false): LAPACK's dsygst)
// C_N's and C_D's Gram products are queued together, and the host waits once for both.
// and transform()/denoise() do step 8 and the inverse on the device into float buffers.
// The covariances depend only on the cube and the noise estimate: run() keeps them, so changing
// m or k costs only the transform or the denoise (and one more eigen solve, with every
// eigenvector, when m or k passes the eigenvectors run() computed).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/linalg/covariance.hpp"
#include "compute/spectral/cube.hpp"
#include "compute/spectral/mnf_device_reduce.hpp"
#include "compute/spectral/mnf_solve.hpp"
#include "compute/spectral/noise_diff_gram.hpp"
#include "compute/spectral/noise_estimate.hpp"
#include "compute/spectral/tridiagonal_bisection.hpp"

namespace clviz {

class ComputeContext;

// Milliseconds per step: device time from profiling events, except eigen (host wall time).
struct MnfTimings {
    double filterMs = 0, noiseCovMs = 0, dataCovMs = 0, eigenMs = 0, transformMs = 0;
    double denoiseMs = 0;
    double wallMs = 0;  // host wall time of the last run() (all of steps 1-7, transfers included)
    // Host wall time of run()'s parts, ms: from its start until both covariances are on the host
    // and centred (steps 1, 2, 4 and their reads; less C_N's Cholesky factorisation, done while
    // C_D is still computed and counted in eigenMs and eigen.factorMs), then the eigen step's parts
    // (mnf_solve.hpp; reduce includes the device round trip when step 5 runs there), then the
    // means' upload.
    double covariancesWallMs = 0, meansUploadMs = 0;
    // Its u8 parts: kernels and reads queued; the wait for C_N's numerators (B x B, folded on the
    // device); C_N from them; the wait for the data Gram matrix (and its copy into a symmetric
    // one); its centring.
    double queueMs = 0, noiseReadyMs = 0, noiseCombineMs = 0, dataReadyMs = 0, dataCentreMs = 0;
    MnfSolveTimings eigen;
    double reduceDeviceMs = 0;   // the device's share of eigen.reduceMs (0 on the host route)
    double valuesDeviceMs = 0;   // the device's share of eigen.valuesMs (0 on the host routes)
    double transformWallMs = 0;  // transform(): weights built and uploaded, until its kernels end
};

struct MnfStatisticsResult {
    NoiseEstimate estimate = NoiseEstimate::Diff;
    CubeRect noiseRect;       // clamped to the cube
    bool noiseExact = false;  // C_N from exact integer sums (u8 cube, noise=diff)
    std::vector<double> mean, noiseCov, dataCov;  // row-major bands x bands covariances
    MnfBasis basis;
};

enum class MnfValuesOn { Auto, Device, Host };

class SpectralMnf {
  public:
    explicit SpectralMnf(ComputeContext& cc);
    ~SpectralMnf();

    // Copies the cube to the device (throws clviz::Error when it does not fit a buffer or is too
    // small for any noise estimate).
    void upload(const Cube& cube);
    const CubeShape& shape() const { return shape_; }
    bool exactIntegerPath() const { return u8_; }

    // Steps 1-7, the noise from the pixels of `noiseRect` (default: the whole cube), with the
    // first `vectors` eigenvectors (0: all; the most components transform() and denoise() will
    // be asked for). Throws clviz::Error when the cube or rectangle is too small for `estimate`
    // or C_N is not positive definite (the message says why).
    const MnfStatisticsResult& run(NoiseEstimate estimate, const CubeRect& noiseRect = {},
                                   int vectors = 0);
    const MnfStatisticsResult& result() const { return result_; }

    // Step 8: the first m components, m x pixels floats (component after component) in
    // components(). Needs run().
    void transform(int m);
    const cl::Buffer& components() const { return components_; }
    std::vector<float> readComponents();

    // The inverse MNF keeping k components: bands x pixels floats in denoised(), or only the
    // listed bands (rows of denoised() in that order: what a viewer shows).
    void denoise(int k, const std::vector<int>& bands = {});
    const cl::Buffer& denoised() const { return denoised_; }
    // The last denoise()'s D_k (bands x bands, column-major; mnf_solve.hpp's denoiseMatrix).
    const std::vector<double>& denoiseMatrix() const { return denoiseMatrix_; }
    std::vector<float> readDenoised();

    const MnfTimings& timings() const { return timings_; }
    // Step 5 on the device in FP64 where it can (the default), or LAPACK's dsygst on the host.
    void setDeviceReduce(bool on) { deviceReduce_ = on; }
    // Where every eigenvalue of step 6 is found: Auto (the default) on GPUs, by bisection in FP64,
    // and on the host elsewhere (a CPU device's OpenCL is far slower at it than LAPACK there); or
    // as told, the device only where it can (cl_khr_fp64). On the host, by the value route below.
    void setValuesOn(MnfValuesOn where) { valuesOn_ = where; }
    bool deviceValuesUsed(int bands);
    // Every eigenvalue by dsterf (the default) or dqds (mnf_solve.hpp).
    void setValueRoute(MnfValueRoute route) { valueRoute_ = route; }
    // noise=diff on u8 over the whole cube by the cross product (the default, where the device
    // runs it) or the stacked windows (noise_diff_gram.hpp); for tests and the bench.
    void setCrossNoise(bool on) { useCross_ = on; }
    bool crossNoiseUsed() const { return crossUsed_; }
    // Helper threads for the eigenvectors (0: mnf_solve.cpp's choice).
    void setVectorThreads(int threads) { vectorThreads_ = threads; }
    // The eigenvectors by inverse iteration after dsterf (the default) or MRRR groups beside it.
    void setVectorRoute(MnfVectorRoute route) { vectorRoute_ = route; }
    bool deviceReduceUsed(int bands);
    // The cube on the device: band b's values from element b * bandPitch().
    const cl::Buffer& cubeBuffer() const { return cube_; }
    std::size_t bandPitch() const { return bandPitch_; }

  private:
    double project(const std::vector<float>& w, const std::vector<float>& offset, int rows,
                   cl::Buffer& out);
    void ensureVectors(int count);  // solves again, with every eigenvector, when count passes
    MnfReduce reducer();            // the device's step 5, or none (dsygst)

    ComputeContext& cc_;
    std::unique_ptr<Covariance> covariance_;
    CubeShape shape_;
    bool u8_ = false;
    std::size_t bandPitch_ = 0;
    cl::Buffer cube_, residuals_, mean_, components_, denoised_, weights_, offsets_;
    NoiseDiffGram noiseDiff_;  // C_N of u8 + noise=diff
    GramU8Job dataGram_;
    int componentsRows_ = 0;
    int denoisedRows_ = 0;
    std::vector<double> denoiseMatrix_;
    MnfStatisticsResult result_;
    MnfTimings timings_;
    bool deviceReduce_ = true;
    MnfValuesOn valuesOn_ = MnfValuesOn::Auto;
    bool useCross_ = true, crossUsed_ = false;
    MnfValueRoute valueRoute_ = MnfValueRoute::Sterf;
    int vectorThreads_ = 0;
    MnfVectorRoute vectorRoute_ = MnfVectorRoute::InverseIteration;
    MnfDeviceReduce reduce_;
    TridiagonalBisection bisection_;
};

}  // namespace clviz
