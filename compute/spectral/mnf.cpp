#include "compute/spectral/mnf.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include "common/elapsed.hpp"
#include "common/error.hpp"
#include "common/parse.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/linalg/covariance.hpp"

namespace clviz {

namespace {

// mnf_project's work-group size (kernels/spectral_mnf.cl takes it as -DGROUP).
constexpr std::size_t kProjectGroup = 256;
// Pixels per mnf_project work-item (the kernel's PIX).
constexpr std::size_t kProjectPixels = 4;
// Bytes the cube buffer has past its last band (see upload()).
constexpr std::size_t kCubeSlack = 32;

std::string inType(bool u8) {
    return u8 ? "-DIN_T=uchar -DIN_T4=uchar4" : "-DIN_T=float -DIN_T4=float4";
}

}  // namespace

SpectralMnf::SpectralMnf(ComputeContext& cc)
    : cc_(cc),
      covariance_(std::make_unique<Covariance>(cc)),
      noiseDiff_(cc),
      reduce_(cc),
      bisection_(cc) {}

bool SpectralMnf::deviceReduceUsed(int bands) {
    return deviceReduce_ && MnfDeviceReduce::supported(cc_, bands);
}

bool SpectralMnf::deviceValuesUsed(int bands) {
    const bool wanted = valuesOn_ == MnfValuesOn::Device ||
                        (valuesOn_ == MnfValuesOn::Auto && cc_.info().kind == DeviceKind::Gpu);
    return wanted && TridiagonalBisection::supported(cc_, bands);
}

MnfReduce SpectralMnf::reducer() {
    if (!deviceReduceUsed(shape_.bands)) return {};
    return [this](const std::vector<double>& u, std::vector<double>& a, int bands) {
        reduce_.reduce(u, a, bands);
    };
}

SpectralMnf::~SpectralMnf() = default;

void SpectralMnf::upload(const Cube& cube) {
    const std::size_t values = cube.shape.values();
    if (values == 0) throw Error("MNF: the cube is empty");
    u8_ = cube.type == CubeType::U8;
    const std::size_t elem = u8_ ? 1 : sizeof(float);
    const std::size_t pixels = cube.shape.pixels(), pitch = roundUp(pixels, 16);
    const std::size_t padded = pitch * std::size_t(cube.shape.bands), bytes = padded * elem;
    if (bytes > cc_.info().maxAllocBytes)
        throw Error("MNF: the cube (" + std::to_string(bytes >> 20) +
                    " MiB on the device) is larger than the device's largest buffer (" +
                    std::to_string(cc_.info().maxAllocBytes >> 20) + " MiB)");
    if (padded >= (std::size_t(1) << 31)) throw Error("MNF: the cube has 2^31 values or more");
    shape_ = cube.shape;
    bandPitch_ = pitch;
    std::vector<float> f;
    if (!u8_) {
        f.resize(values);
        for (std::size_t i = 0; i < values; ++i)
            f[i] = static_cast<float>(cube.value(i));
    }
    // kCubeSlack bytes past the last band: the diff filter reads 16-byte words around the bytes
    // it needs (kernels/spectral_mnf.cl, load16Unaligned).
    cube_ = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, bytes + kCubeSlack);
    // Zeros in the padding and the slack (never used, but defined), then each band's row.
    cc_.queue().enqueueFillBuffer(cube_, cl_uchar(0), 0, bytes + kCubeSlack);
    const std::array<cl::size_type, 3> origin{0, 0, 0},
        region{pixels * elem, std::size_t(cube.shape.bands), 1};
    cc_.queue().enqueueWriteBufferRect(cube_, CL_TRUE, origin, origin, region, pitch * elem, 0,
                                       pixels * elem, 0,
                                       u8_ ? static_cast<const void*>(cube.data.data()) : f.data());
    residuals_ = cl::Buffer();
    components_ = cl::Buffer();
    denoised_ = cl::Buffer();
    componentsRows_ = 0;
    denoisedRows_ = 0;
    result_ = {};
}

const MnfStatisticsResult& SpectralMnf::run(NoiseEstimate estimate, const CubeRect& noiseRect,
                                            int vectors) {
    if (!cube_()) throw Error("MNF: no cube uploaded");
    if (vectors < 0 || vectors > shape_.bands)
        throw Error("MNF: eigenvectors must be 0 (all) to " + std::to_string(shape_.bands));
    result_ = {};  // a run that throws leaves no stale basis for transform() or denoise()
    const auto t0 = std::chrono::steady_clock::now();
    const int B = shape_.bands;
    const std::string problem = residualSizeProblem(estimate, shape_, noiseRect);
    if (!problem.empty()) throw Error(problem);
    const ResidualSize rs = residualSize(estimate, shape_, noiseRect);
    const CubeRect rect = clampRect(noiseRect, shape_);
    const std::size_t n = rs.pixels();
    // u8 cubes with noise=diff take an exact path (noise_diff_gram.hpp): over the whole cube the
    // cube against its shifted window (B x (lines - 1) samples of u8) where the cross product
    // runs, else the two shifted windows as one 2B x n u8 matrix; either way integer sums give
    // cov(Xa - Xb) without rounding.
    const bool exactNoise = u8_ && estimate == NoiseEstimate::Diff;
    const bool cross =
        exactNoise && isWholeCube(rect, shape_) && useCross_ && noiseDiff_.crossStages(B) >= 2;
    // The cross product's pixels: every sample of the first lines - 1 lines, the last of each line
    // paired with itself (a zero difference).
    const std::size_t crossSamples = std::size_t(shape_.lines - 1) * std::size_t(shape_.samples);
    const std::size_t pitch = cross        ? roundUp(crossSamples, 16)
                              : exactNoise ? roundUp(n, 16)
                                           : n;  // 16-byte rows for the tensor path
    const std::size_t residualBytes = cross        ? std::size_t(B) * pitch
                                      : exactNoise ? 2 * std::size_t(B) * pitch
                                                   : n * std::size_t(B) * sizeof(float);
    if (residualBytes > cc_.info().maxAllocBytes)
        throw Error("MNF: the noise residuals (" + std::to_string(residualBytes >> 20) +
                    " MiB) are larger than the device's largest buffer (" +
                    std::to_string(cc_.info().maxAllocBytes >> 20) +
                    " MiB): take the noise from a rectangle");
    if (!residuals_() || residuals_.getInfo<CL_MEM_SIZE>() < residualBytes)
        residuals_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, residualBytes);

    // Step 1.
    cl::Kernel k = cc_.programs().kernel(
        "spectral_mnf.cl",
        cross                             ? "noise_diff_shift"
        : exactNoise                      ? "noise_diff_stack"
        : estimate == NoiseEstimate::Diff ? "noise_diff"
                                          : "noise_window3",
        inType(u8_) + (estimate == NoiseEstimate::Median3 ? " -DMEDIAN" : ""));
    cl::Event filterEvent;
    if (cross) {
        setArgs(k, cube_, residuals_, cl_int(shape_.samples), cl_int(crossSamples), cl_int(pitch),
                cl_int(bandPitch_));
        cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                         cl::NDRange(roundUp(pitch / 16, 64), std::size_t(B)),
                                         cl::NDRange(64, 1), nullptr, &filterEvent);
    } else if (exactNoise) {
        setArgs(k, cube_, residuals_, cl_int(shape_.samples), cl_int(shape_.lines),
                cl_int(rect.sample0), cl_int(rect.line0), cl_int(rs.samples), cl_int(rs.lines),
                cl_int(B), cl_int(pitch), cl_int(bandPitch_));
        // 16 outputs per work-item, the pitch's padding included (written as zeros).
        cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                         cl::NDRange(roundUp(pitch / 16, 64), std::size_t(B)),
                                         cl::NDRange(64, 1), nullptr, &filterEvent);
    } else {
        setArgs(k, cube_, residuals_, cl_int(shape_.samples), cl_int(shape_.lines),
                cl_int(rect.sample0), cl_int(rect.line0), cl_int(rs.samples), cl_int(rs.lines),
                cl_int(bandPitch_));
        cc_.queue().enqueueNDRangeKernel(
            k, cl::NullRange,
            cl::NDRange(roundUp(std::size_t(rs.samples), 32), roundUp(std::size_t(rs.lines), 4),
                        std::size_t(B)),
            cl::NDRange(32, 4, 1), nullptr, &filterEvent);
    }
    // Steps 2 and 4 (the linear-algebra lab's covariance; u8 data exact). The u8 Gram products
    // are both queued before the host waits for either.
    CovarianceResult noise, data;
    if (!exactNoise)
        noise = covariance_->compute(CovarianceVariant::Tensor, SampleType::F32, residuals_, B,
                                     std::int64_t(n));
    else if (cross)
        noiseDiff_.enqueueCross(cube_, residuals_, B, std::int64_t(crossSamples), std::int64_t(n),
                                std::int64_t(bandPitch_), std::int64_t(pitch));
    else
        noiseDiff_.enqueue(*covariance_, residuals_, B, std::int64_t(n), std::int64_t(pitch));
    if (u8_) {
        covariance_->enqueueGramU8(CovarianceVariant::Tensor, cube_, B,
                                   std::int64_t(shape_.pixels()), dataGram_, 0,
                                   std::int64_t(bandPitch_));
    } else {
        data = covariance_->compute(CovarianceVariant::Tensor, SampleType::F32, cube_, B,
                                    std::int64_t(shape_.pixels()), 0, std::int64_t(bandPitch_));
    }
    const auto tq = std::chrono::steady_clock::now();
    timings_.queueMs = msSince(t0);
    if (exactNoise) {
        noiseDiff_.wait(&noise.ms);
        timings_.noiseReadyMs = msSince(tq);
        const auto tc = std::chrono::steady_clock::now();
        noise.covariance = noiseDiff_.covariance();
        timings_.noiseCombineMs = msSince(tc);
    }
    const double scale = noiseCovarianceScale(estimate);
    for (double& v : noise.covariance)
        v *= scale;
    // Step 3's Cholesky factor of C_N while the device may still compute C_D (the partial route).
    const bool partial = vectors > 0 && vectors < B;
    const auto tf = std::chrono::steady_clock::now();
    const std::vector<double> factor =
        partial ? noiseCholesky(noise.covariance, B) : std::vector<double>{};
    const double factorMs = msSince(tf);
    if (u8_) {
        const auto td = std::chrono::steady_clock::now();
        const GramU8 g = Covariance::finishGramU8(dataGram_, &data.ms);
        timings_.dataReadyMs = msSince(td);
        const auto tc = std::chrono::steady_clock::now();
        centreU8(g, B, std::int64_t(shape_.pixels()), data);
        timings_.dataCentreMs = msSince(tc);
    }
    timings_.filterMs = eventMilliseconds(filterEvent);
    timings_.noiseCovMs = noise.ms;
    timings_.dataCovMs = data.ms;
    result_.noiseExact = exactNoise;
    crossUsed_ = cross;

    timings_.covariancesWallMs = msSince(t0) - factorMs;  // the factor counts in eigen

    // Steps 3, 5-7.
    const auto te = std::chrono::steady_clock::now();
    MnfSolveOptions options;
    options.reduce = reducer();
    options.noiseFactor = partial ? &factor : nullptr;
    options.valueRoute = valueRoute_;
    options.vectorThreads = vectorThreads_;
    options.vectorRoute = vectorRoute_;
    const bool valuesOnDevice = deviceValuesUsed(B);
    if (valuesOnDevice)
        options.tridiagonalValues = [this](const std::vector<double>& d,
                                           const std::vector<double>& e) {
            return bisection_.eigenvalues(d, e);
        };
    const bool reduceOnDevice = bool(options.reduce);
    result_.basis =
        solveMnf(noise.covariance, data.covariance, B, vectors, options, &timings_.eigen);
    timings_.eigen.factorMs = partial ? factorMs : 0.0;
    timings_.eigenMs = msSince(te) + factorMs;
    timings_.reduceDeviceMs = reduceOnDevice && partial ? reduce_.deviceMs() : 0.0;
    timings_.valuesDeviceMs = valuesOnDevice && partial ? bisection_.deviceMs() : 0.0;
    result_.estimate = estimate;
    result_.noiseRect = rect;
    result_.mean = data.mean;
    result_.noiseCov = std::move(noise.covariance);
    result_.dataCov = std::move(data.covariance);
    std::vector<float> mu(result_.mean.begin(), result_.mean.end());
    if (!mean_() || mean_.getInfo<CL_MEM_SIZE>() < mu.size() * sizeof(float))
        mean_ = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, mu.size() * sizeof(float));
    const auto tm = std::chrono::steady_clock::now();
    cc_.queue().enqueueWriteBuffer(mean_, CL_TRUE, 0, mu.size() * sizeof(float), mu.data());
    timings_.meansUploadMs = msSince(tm);
    timings_.wallMs = msSince(t0);
    return result_;
}

double SpectralMnf::project(const std::vector<float>& w, const std::vector<float>& offset, int rows,
                            cl::Buffer& out) {
    const int B = shape_.bands;
    const std::size_t P = shape_.pixels();
    const std::size_t outBytes = std::size_t(rows) * P * sizeof(float);
    if (!out() || out.getInfo<CL_MEM_SIZE>() < outBytes)
        out = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, outBytes);
    // The weights and offsets in buffers kept between calls (blocking writes: a few KiB).
    auto upload = [&](cl::Buffer& buf, const std::vector<float>& v) {
        const std::size_t bytes = v.size() * sizeof(float);
        if (!buf() || buf.getInfo<CL_MEM_SIZE>() < bytes)
            buf = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, bytes);
        cc_.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, bytes, v.data());
    };
    upload(weights_, w);
    upload(offsets_, offset);
    // Rows per pass: all of them rounded up to a multiple of 4, else passes of 32.
    const int perPass = std::min(32, int(roundUp(std::size_t(rows), 4)));
    cl::Kernel k = cc_.programs().kernel("spectral_mnf.cl", "mnf_project",
                                         inType(u8_) + " -DROWS=" + std::to_string(perPass) +
                                             " -DGROUP=" + std::to_string(kProjectGroup));
    setArgs(k, cube_, mean_, weights_, offsets_, out, cl_int(B), cl_int(rows), cl_int(P));
    k.setArg(9, cl_int(bandPitch_));
    cl::Event first, last;
    for (int row0 = 0; row0 < rows; row0 += perPass) {
        k.setArg(8, cl_int(row0));
        // kProjectPixels adjacent pixels per work-item.
        cc_.queue().enqueueNDRangeKernel(
            k, cl::NullRange,
            cl::NDRange(roundUp((P + kProjectPixels - 1) / kProjectPixels, kProjectGroup)),
            cl::NDRange(kProjectGroup), nullptr, row0 == 0 ? &first : &last);
    }
    return rows > perPass ? spanMilliseconds(first, last) : eventMilliseconds(first);
}

void SpectralMnf::transform(int m) {
    if (result_.basis.bands == 0) throw Error("MNF: transform before run()");
    const int B = shape_.bands;
    if (m < 1 || m > B) throw Error("MNF: components must be 1 to " + std::to_string(B));
    const auto t0 = std::chrono::steady_clock::now();
    ensureVectors(m);
    std::vector<float> w(std::size_t(m) * B);  // T_m^T, row-major m x B
    for (int c = 0; c < m; ++c)
        for (int b = 0; b < B; ++b)
            w[std::size_t(c) * B + b] = float(result_.basis.at(b, c));
    timings_.transformMs = project(w, std::vector<float>(std::size_t(m), 0.0f), m, components_);
    timings_.transformWallMs = msSince(t0);
    componentsRows_ = m;
}

void SpectralMnf::denoise(int k, const std::vector<int>& bands) {
    if (result_.basis.bands == 0) throw Error("MNF: denoise before run()");
    const int B = shape_.bands;
    std::vector<int> rows = bands;
    if (rows.empty())
        for (int b = 0; b < B; ++b)
            rows.push_back(b);
    for (int b : rows)
        if (b < 0 || b >= B)
            throw Error("MNF: denoise of band " + std::to_string(b) + " of " + std::to_string(B));
    ensureVectors(std::clamp(k, 0, B));
    denoiseMatrix_ = clviz::denoiseMatrix(result_.basis, result_.noiseCov, k);
    const std::vector<double>& d = denoiseMatrix_;
    std::vector<float> w(rows.size() * std::size_t(B));  // the rows of D_k (d is column-major)
    std::vector<float> offset;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (int j = 0; j < B; ++j)
            w[r * B + j] = float(d[std::size_t(j) * B + rows[r]]);
        offset.push_back(float(result_.mean[rows[r]]));
    }
    timings_.denoiseMs = project(w, offset, int(rows.size()), denoised_);
    denoisedRows_ = int(rows.size());
}

void SpectralMnf::ensureVectors(int count) {
    if (count <= result_.basis.vectors) return;
    result_.basis = solveMnf(result_.noiseCov, result_.dataCov, shape_.bands);
}

std::vector<float> SpectralMnf::readComponents() {
    std::vector<float> out(std::size_t(componentsRows_) * shape_.pixels());
    if (!out.empty())
        cc_.queue().enqueueReadBuffer(components_, CL_TRUE, 0, out.size() * sizeof(float),
                                      out.data());
    return out;
}

std::vector<float> SpectralMnf::readDenoised() {
    std::vector<float> out(std::size_t(denoisedRows_) * shape_.pixels());
    if (denoised_())
        cc_.queue().enqueueReadBuffer(denoised_, CL_TRUE, 0, out.size() * sizeof(float),
                                      out.data());
    return out;
}

}  // namespace clviz
