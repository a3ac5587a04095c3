#include "compute/spectral/noise_diff_gram.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

NoiseDiffGram::NoiseDiffGram(ComputeContext& cc) : cc_(cc), ptx_(cc), kernels_(cc) {}

void NoiseDiffGram::enqueue(Covariance& covariance, const cl::Buffer& stacked, int bands,
                            std::int64_t samples, std::int64_t pitch) {
    if (read_()) read_.wait();  // an unfinished read still writes into the pinned memory
    ready_ = false;
    covariance.enqueueGramU8Partials(CovarianceVariant::Tensor, stacked, 2 * bands, samples, job_,
                                     0, pitch);
    first_ = job_.first;
    sizeNumerators(bands, samples);
    cl::Kernel& k = kernels_.get("spectral_noise_gram.cl", "noise_diff_gram_reduce", "");
    setArgs(k, cl_int(bands), cl_int(job_.chunks), job_.partial, job_.partialSums, numerators_);
    enqueueReduceAndRead(k, bands);
}

void NoiseDiffGram::sizeNumerators(int bands, std::int64_t pairs) {
    const std::size_t values = std::size_t(bands) * bands + bands;
    if (bands != bands_ || !numerators_()) {
        numerators_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, values * sizeof(cl_long));
        readBack_ = PinnedHostBuffer(cc_.context(), cc_.queue(), values * sizeof(cl_long));
    }
    bands_ = bands;
    samples_ = pairs;
}

void NoiseDiffGram::enqueueReduceAndRead(cl::Kernel& reduce, int bands) {
    const std::size_t values = std::size_t(bands) * bands + bands;
    cl::CommandQueue& q = cc_.queue();
    q.enqueueNDRangeKernel(reduce, cl::NullRange, cl::NDRange((values + 255) / 256 * 256),
                           cl::NDRange(256), nullptr, &last_);
    q.enqueueReadBuffer(numerators_, CL_FALSE, 0, values * sizeof(cl_long), readBack_.data(),
                        nullptr, &read_);
}

int NoiseDiffGram::crossStages(int bands) const {
    if (bands < 1 || bands > kMaxStagedU8Bands) return 0;
    // One stage: 32 samples of every block's 32 rows, of the cube and of its shifted window.
    const std::uint64_t stageBytes = std::uint64_t((bands + 31) / 32) * 32 * 64;
    const std::uint64_t stages = cc_.info().localMemBytes / stageBytes;
    return stages < 2 ? 0 : static_cast<int>(std::min<std::uint64_t>(3, stages));
}

void NoiseDiffGram::enqueueCross(const cl::Buffer& x, const cl::Buffer& y, int bands,
                                 std::int64_t samples, std::int64_t pairs, std::int64_t pitchX,
                                 std::int64_t pitchY, int chunks) {
    const int stages = crossStages(bands);
    if (stages < 2 || pitchX % 16 != 0 || pitchY % 16 != 0 || samples < 1 || samples > pitchX ||
        samples > pitchY || pitchX >= (std::int64_t(1) << 31) ||
        pitchY >= (std::int64_t(1) << 31) || pairs < 2)
        throw Error("MNF: the cross noise product cannot take " + std::to_string(bands) +
                    " bands of " + std::to_string(samples) + " samples here");
    if (read_()) read_.wait();  // an unfinished read still writes into the pinned memory
    ready_ = false;
    // Chunks of whole 64-sample steps (two stages), each within the exact limit.
    constexpr std::int64_t kStep = 64;
    if (chunks <= 0) chunks = int(std::max<std::uint32_t>(1, cc_.info().computeUnits));
    std::int64_t len = (samples + chunks - 1) / chunks;
    len = std::min((len + kStep - 1) / kStep * kStep, kMaxCrossChunk / kStep * kStep);
    const int used = int((samples + len - 1) / len);
    const std::size_t partialBytes = std::size_t(used) * bands * bands * sizeof(cl_uint);
    const std::size_t sumsBytes = std::size_t(used) * 2 * bands * sizeof(cl_uint);
    if (partialBytes > cc_.info().maxAllocBytes)
        throw Error("MNF: the cross noise product's partial sums do not fit a buffer");
    if (crossPartialBytes_ < partialBytes || crossPartialSumsBytes_ < sumsBytes) {
        crossPartial_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, partialBytes);
        crossPartialSums_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, sumsBytes);
        crossPartialBytes_ = partialBytes;
        crossPartialSumsBytes_ = sumsBytes;
    }
    sizeNumerators(bands, pairs);
    const int blocks = (bands + 31) / 32;
    cl::Kernel& k = kernels_.get(
        "spectral_noise_cross.cl", "noise_diff_cross",
        " -DNB=" + std::to_string(blocks) + " -DSTAGES=" + std::to_string(stages), &ptx_);
    setArgs(k, cl_int(bands), cl_int(pitchX), cl_int(pitchY), cl_long(samples), cl_int(len), x, y,
            crossPartial_, crossPartialSums_);
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                     cl::NDRange(std::size_t(blocks) * 32, std::size_t(used)),
                                     cl::NDRange(std::size_t(blocks) * 32, 1), nullptr, &first_);
    // The reduce alone: its program is built with the smallest cross kernel beside it.
    cl::Kernel& reduce =
        kernels_.get("spectral_noise_cross.cl", "noise_diff_cross_reduce", " -DNB=1 -DSTAGES=2");
    setArgs(reduce, cl_int(bands), cl_int(used), crossPartial_, crossPartialSums_, numerators_);
    enqueueReduceAndRead(reduce, bands);
}

void NoiseDiffGram::wait(double* ms) {
    if (!read_()) throw Error("MNF: NoiseDiffGram::wait without enqueue");
    read_.wait();
    read_ = cl::Event();
    ready_ = true;
    if (ms) *ms = spanMilliseconds(first_, last_);
}

std::vector<double> NoiseDiffGram::covariance() const {
    if (!ready_) throw Error("MNF: NoiseDiffGram::covariance before wait");
    const std::size_t B = std::size_t(bands_);
    const std::int64_t n = samples_;
    const auto* g = static_cast<const std::int64_t*>(readBack_.data());
    const std::int64_t* sums = g + B * B;
    // n sum N_i N_j needs up to 2^78 and so does the product of two sums (each below 255 n):
    // 128-bit integers, then one rounding.
    std::vector<double> cov(B * B);
    const double denom = double(n) * double(n - 1);
    for (std::size_t i = 0; i < B; ++i)
        for (std::size_t j = i; j < B; ++j) {
            const __int128 num = __int128(n) * g[i * B + j] - __int128(sums[i]) * sums[j];
            cov[i * B + j] = cov[j * B + i] = double(num) / denom;
        }
    return cov;
}

}  // namespace clviz
