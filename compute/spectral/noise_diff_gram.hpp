#pragma once
// C_N's numerators for noise=diff on u8 cubes, exact, in one of two ways; either way the host
// waits for and reads B x B + B 64-bit integers (sum N_i N_j, sum N_i) into pinned memory.
//   stacked  the windows [Xa; Xb] (2B rows of u8, kernels/spectral_mnf.cl's noise_diff_stack) go
//            through the covariance's u8 Gram kernels, and their per-chunk partials are folded
//            into the B x B Gram matrix of N = Xa - Xb while they are added
//            (kernels/spectral_noise_gram.cl). Any rectangle, any band count.
//   cross    the whole cube X against its shifted window Y (noise_diff_shift: B rows, not 2B), in
//            one B x B product of four u8 terms per pair (kernels/spectral_noise_cross.cl), up to
//            224 bands where the device holds two stages of both in local memory.
#include <cstdint>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/pinned_host_buffer.hpp"
#include "compute/linalg/covariance.hpp"
#include "compute/linalg/kernel_set.hpp"

namespace clviz {

class ComputeContext;

// The longest chunk of the cross product whose u32 sums stay exact: 4 * 255^2 * it < 2^32.
constexpr std::int64_t kMaxCrossChunk = 16512;

class NoiseDiffGram {
  public:
    explicit NoiseDiffGram(ComputeContext& cc);

    // Queues the product of `stacked` (2 * bands rows of `samples` u8, row r from r * pitch) and
    // the non-blocking read of its numerators.
    void enqueue(Covariance& covariance, const cl::Buffer& stacked, int bands, std::int64_t samples,
                 std::int64_t pitch);

    // Local stages the cross product runs with for `bands` (2 or 3), or 0 where it does not run.
    int crossStages(int bands) const;
    // Queues the cross product: x (the cube, band b from b * pitchX) and y (noise_diff_shift's
    // window, b * pitchY), `samples` pixels each (pairs whose difference is 0 included), of
    // which `pairs` are real: the n that divides. Needs crossStages(bands) >= 2 and both pitches
    // multiples of 16. `chunks` 0: one per compute unit (more where a chunk would pass the exact
    // limit).
    void enqueueCross(const cl::Buffer& x, const cl::Buffer& y, int bands, std::int64_t samples,
                      std::int64_t pairs, std::int64_t pitchX, std::int64_t pitchY, int chunks = 0);
    // Waits for it; `ms`: the device time of its kernels.
    void wait(double* ms = nullptr);
    // Then cov(N) (bands x bands, row-major, before any scale): the exact integer numerator
    // n sum N_i N_j - sum N_i sum N_j, one rounding, divided by n (n - 1).
    std::vector<double> covariance() const;

  private:
    void sizeNumerators(int bands, std::int64_t pairs);  // (re)allocates the numerators
    void enqueueReduceAndRead(cl::Kernel& reduce, int bands);

    ComputeContext& cc_;
    InlinePtxBuilds ptx_;
    KernelSet kernels_;
    GramU8Job job_;
    cl::Buffer crossPartial_, crossPartialSums_;
    std::size_t crossPartialBytes_ = 0, crossPartialSumsBytes_ = 0;
    cl::Event first_;
    cl::Buffer numerators_;
    PinnedHostBuffer readBack_;
    cl::Event last_, read_;
    int bands_ = 0;
    std::int64_t samples_ = 0;
    bool ready_ = false;
};

}  // namespace clviz
