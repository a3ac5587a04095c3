#include "compute/spectral/noise_diff_gram.hpp"

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

NoiseDiffGram::NoiseDiffGram(ComputeContext& cc) : cc_(cc) {}

void NoiseDiffGram::enqueue(Covariance& covariance, const cl::Buffer& stacked, int bands,
                            std::int64_t samples, std::int64_t pitch) {
    if (read_()) read_.wait();  // an unfinished read still writes into the pinned memory
    ready_ = false;
    covariance.enqueueGramU8Partials(CovarianceVariant::Tensor, stacked, 2 * bands, samples, job_,
                                     0, pitch);
    const std::size_t values = std::size_t(bands) * bands + bands;
    if (bands != bands_ || !numerators_()) {
        numerators_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, values * sizeof(cl_long));
        readBack_ = PinnedHostBuffer(cc_.context(), cc_.queue(), values * sizeof(cl_long));
    }
    bands_ = bands;
    samples_ = samples;
    cl::Kernel k = cc_.programs().kernel("spectral_noise_gram.cl", "noise_diff_gram_reduce", "");
    setArgs(k, cl_int(bands), cl_int(job_.chunks), job_.partial, job_.partialSums, numerators_);
    cl::CommandQueue& q = cc_.queue();
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange((values + 255) / 256 * 256),
                           cl::NDRange(256), nullptr, &last_);
    q.enqueueReadBuffer(numerators_, CL_FALSE, 0, values * sizeof(cl_long), readBack_.data(),
                        nullptr, &read_);
}

void NoiseDiffGram::wait(double* ms) {
    if (!read_()) throw Error("MNF: NoiseDiffGram::wait without enqueue");
    read_.wait();
    read_ = cl::Event();
    ready_ = true;
    if (ms) *ms = spanMilliseconds(job_.first, last_);
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
