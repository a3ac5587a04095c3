#pragma once
// C_N's numerators for noise=diff on u8 cubes, exact: the stacked windows [Xa; Xb] (2B rows of u8,
// kernels/spectral_mnf.cl's noise_diff_stack) go through the covariance's u8 Gram kernels, and
// their per-chunk partials are added and folded into the B x B Gram matrix of N = Xa - Xb on the
// device (kernels/spectral_noise_gram.cl), so the host waits for and reads B x B + B 64-bit
// integers into pinned memory instead of the (2B)^2 stacked Gram matrix.
#include <cstdint>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/pinned_host_buffer.hpp"
#include "compute/linalg/covariance.hpp"

namespace clviz {

class ComputeContext;

class NoiseDiffGram {
  public:
    explicit NoiseDiffGram(ComputeContext& cc);

    // Queues the product of `stacked` (2 * bands rows of `samples` u8, row r from r * pitch) and
    // the non-blocking read of its numerators.
    void enqueue(Covariance& covariance, const cl::Buffer& stacked, int bands, std::int64_t samples,
                 std::int64_t pitch);
    // Waits for it; `ms`: the device time of its kernels.
    void wait(double* ms = nullptr);
    // Then cov(N) (bands x bands, row-major, before any scale): the exact integer numerator
    // n sum N_i N_j - sum N_i sum N_j, one rounding, divided by n (n - 1).
    std::vector<double> covariance() const;

  private:
    ComputeContext& cc_;
    GramU8Job job_;
    cl::Buffer numerators_;
    PinnedHostBuffer readBack_;
    cl::Event last_, read_;
    int bands_ = 0;
    std::int64_t samples_ = 0;
    bool ready_ = false;
};

}  // namespace clviz
