#pragma once
// Covariance of the rows of a tall-skinny matrix: X is `bands` rows of `samples` values
// (row-major, band-major like a hyperspectral cube's BSQ layout), bands << samples, and
//   C = (X - mu)(X - mu)^T / (samples - 1),  mu = the row means.
// The Gram products are split over the samples into chunks so that every compute unit is busy
// (kernels/covariance.cl); each chunk's partial sums are added on the device.
// u8 data is exact: integer products accumulated in 32 bits, each chunk short enough that its
// sum cannot overflow, chunks added in 64 bits, the centring done in double on the host from the
// exact integer sums. float data runs in FP32 on data centred by its (double) means.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/pinned_host_buffer.hpp"
#include "compute/linalg/kernel_set.hpp"
#include "compute/linalg/linalg_variant.hpp"

namespace clviz {

class ComputeContext;

enum class SampleType { U8, F32 };

enum class CovarianceVariant {
    Tiled,   // local-memory tiles, FP32 FMAs or 32-bit integer multiply-adds
    Tensor,  // u8: mma.sync m16n8k32 u8 x u8 -> s32 (integer twin elsewhere); f32: Tiled
};
constexpr int kCovarianceVariantCount = 2;
const LinalgVariantInfo& covarianceVariantInfo(CovarianceVariant variant);

struct CovarianceResult {
    int bands = 0;
    std::int64_t samples = 0;
    std::vector<double> mean;        // bands
    std::vector<double> covariance;  // bands x bands, symmetric, row-major
    double ms = 0;                   // device time of the kernels (all passes)
    double firstPassMs = 0;          // u8: the Gram kernel's own device time (chunks not added)
    double secondPassMs = 0;         // u8: the second pass's own (0: the chunks added in place)
    bool tensorPath = false;         // the inline-PTX mma path ran
};

// Exact integer sums behind a u8 covariance, exposed for tests and the MNF lab.
struct GramU8 {
    std::vector<std::int64_t> gram;  // bands x bands, sum_s x_i x_j (full, mirrored)
    std::vector<std::int64_t> sums;  // bands, sum_s x_i
};
// The centring every u8 path shares (host and device results go through it): exact integer
// numerator n*G_ij - s_i*s_j, one rounding to double, divided by n(n-1).
void centreU8(const GramU8& g, int bands, std::int64_t samples, CovarianceResult& out);

// A u8 Gram product in flight (Covariance::enqueueGramU8): its device buffers, kept for the next
// product of the same size, its events and the sums being read back (into pinned memory: the
// bands x bands Gram matrix, then the bands row sums, as 64-bit integers).
struct GramU8Job {
    int bands = 0;
    int chunks = 0;  // the chunks of the last product: partial holds chunks x bands x bands
    std::size_t partialBytes = 0;
    cl::Buffer pairs, partial, partialSums, gram, sums, noMu;
    cl::Event first, last, read;
    cl::Event gramKernel;       // the Gram kernel's own event (first, or last where added in place)
    PinnedHostBuffer readBack;  // gram, sums, then (fused) the barrier's two words
    // The fused reduce (StagedU8Options::fusedReduce): gridSync holds the barrier's arrivals
    // (never reset: `arrivals` is what the last launch brings it to) and the target of a launch
    // whose barrier timed out; then finishGramU8 adds the chunks with `fallback` (the second
    // pass, `fallbackSlices` work-items per entry) on `queue` and sets fusedTimedOut.
    bool fused = false;
    bool fusedTimedOut = false;
    cl::Buffer gridSync;
    std::uint32_t arrivals = 0;
    cl::Kernel fallback;
    int fallbackSlices = 1;
    cl::CommandQueue queue;
};

// Largest chunk whose 32-bit partial Gram sums cannot overflow (255^2 * chunk < 2^31).
constexpr std::int64_t kMaxU8ChunkSamples = 33025;
// cov-tensor on u8 holds every band of a chunk in local memory (kernels/cov_gram_u8_staged.cl)
// up to this many bands, where rows are 16-byte aligned; beyond, it runs 64 x 64 tile pairs.
constexpr int kMaxStagedU8Bands = 224;

// Build options and chunking of cov-tensor's all-bands u8 kernel (kernels/cov_gram_u8_staged.cl),
// and the u8 second pass.
struct StagedU8Options {
    int split = 1;               // 1-4 work-groups per chunk, each with a share of the tiles
    int chunksPerUnit = 1;       // 1-8 default chunks per compute unit
    bool rowSumsByDp4a = true;   // NVIDIA: row sums by dp4a instead of MMAs against ones (with
                                 // triangles and fragment-order partials the faster, cov-u8-29d)
    bool addInPlace = false;     // 64-bit atomics add the chunks (cl_khr_int64_base_atomics; no
                                 // second pass); ignored where the device lacks them
    bool ldmatrix = true;        // NVIDIA: fragments by ldmatrix from XOR-swizzled stages
    bool triangles = true;       // 193-224 bands (7 row blocks), split 1: each warp's 4 tiles
                                 // from 3 blocks (the Fano plane's lines) instead of 4
                                 // (kernels/common/gram_block_pairs.clh); elsewhere no effect
    bool fragmentStores = true;  // split 1, two passes: each chunk's partial written in the
                                 // accumulators' order (16-byte stores), placed by the second
                                 // pass (cov_reduce_fragments)
    int reduceSlices = 16;       // 1, 2, 4, 8, 16 or 32 work-items per entry in the second pass
                                 // (every u8 variant's)
    bool pairedWarps = false;    // where the triangles run, with ldmatrix: two warps per
                                 // triangle, 2 tiles each (14 warps share the stages, not 7;
                                 // slower: docs/linalg.md, cov-u8-29e)
    int l2PrefetchBytes = 128;   // NVIDIA: 0, 128 or 256, the L2 prefetch size of the cp.async
                                 // copies of the stages
    bool columnsByLdmatrix = false;  // NVIDIA, ldmatrix: every B fragment by ldmatrix, none formed
                                     // from A fragments by register moves
    bool fusedReduce = true;         // NVIDIA, fragment-order partials, every group resident: the
                              // Gram kernel's groups meet at a device-wide barrier and add the
                              // partials themselves (one launch; stagedU8FusedReduceRefusal)
    int fusedDeadlineUs = 4000;  // 0-1,000,000: how long a group waits at that barrier before
                                 // the call falls back to the second pass (never a hang)
};

class Covariance {
  public:
    explicit Covariance(ComputeContext& cc);

    // X: bands rows of `samples` u8 (SampleType::U8) or float values, row i starting at element
    // i * pitch (0: pitch = samples). samples >= 2. The u8 tensor path loads 16 bytes at a time
    // where pitch is a multiple of 16. `chunks` 0: enough for every compute unit (capped so u8
    // chunks stay exact).
    CovarianceResult compute(CovarianceVariant variant, SampleType type, const cl::Buffer& x,
                             int bands, std::int64_t samples, int chunks = 0,
                             std::int64_t pitch = 0);

    // The u8 sums alone (compute() centres them with centreU8()); `ms`: device time, `kernelMs`:
    // the Gram kernel's alone, `secondPassMs` the second pass's alone (the rest of `ms` is the
    // gap between the two launches).
    GramU8 gramU8(CovarianceVariant variant, const cl::Buffer& x, int bands, std::int64_t samples,
                  int chunks = 0, double* ms = nullptr, std::int64_t pitch = 0,
                  double* kernelMs = nullptr, double* secondPassMs = nullptr);

    // gramU8() in two halves, so that several products are queued before the host waits for any:
    // enqueueGramU8 queues the kernels and a non-blocking read of the sums into `job` (whose
    // buffers it reuses where they are large enough); finishGramU8 waits for it and returns them.
    void enqueueGramU8(CovarianceVariant variant, const cl::Buffer& x, int bands,
                       std::int64_t samples, GramU8Job& job, int chunks = 0,
                       std::int64_t pitch = 0);
    // `kernelMs`: the Gram kernel's own device time (without adding the chunks); `secondPassMs`:
    // the second pass's (0 where the chunks were added in place).
    static GramU8 finishGramU8(GramU8Job& job, double* ms = nullptr, double* kernelMs = nullptr,
                               double* secondPassMs = nullptr);

    // The first half of enqueueGramU8 alone: the per-chunk partial products (job.partial, u32,
    // job.chunks x bands x bands, the upper triangle i <= j written; job.partialSums, chunks x
    // bands), for a caller that adds them its own way. job.first is the kernel's event.
    void enqueueGramU8Partials(CovarianceVariant variant, const cl::Buffer& x, int bands,
                               std::int64_t samples, GramU8Job& job, int chunks = 0,
                               std::int64_t pitch = 0);

    // Chunks compute() uses for this shape.
    int defaultChunks(SampleType type, int bands, std::int64_t samples) const;

    bool tensorActive() const { return ptx_.active(); }

    // Local stages cov-tensor's all-bands u8 kernel runs with for this shape (at most 3), or 0
    // where it does not run (too many bands, rows not 16-byte aligned, or below 2 stages of local
    // memory); then its u8 chunks, by default: one per compute unit, exact, one stage at least.
    int u8StagedStages(int bands, std::int64_t pitch) const;
    int stagedU8Chunks(std::int64_t samples) const;

    // The staged u8 kernel's options (throws clviz::Error outside their ranges).
    void setStagedU8Options(const StagedU8Options& options);
    const StagedU8Options& stagedU8Options() const { return staged_; }
    // Whether the chunks of the staged u8 kernel are added in place on this device.
    bool stagedU8AddsInPlace() const;
    // Why compute()/gramU8() would not add the chunks inside the Gram kernel (the fused reduce)
    // for this shape, or "" where it would: the option off, no staged kernel or no fragment-order
    // partials, no inline PTX (the barrier is PTX), more work-groups than compute units, or a
    // group that cannot fit one compute unit (its registers or local memory).
    std::string stagedU8FusedReduceRefusal(int bands, std::int64_t samples, std::int64_t pitch = 0,
                                           int chunks = 0);

  private:
    ComputeContext& cc_;
    InlinePtxBuilds ptx_;
    KernelSet kernels_;
    StagedU8Options staged_;

    // enqueueGramU8Partials; `withSums`: also job.gram/sums and their read-back memory (made
    // before the kernel); `addInPlace`: the staged kernel adds into those instead of partials;
    // `fragmentReduce` (given: the caller adds the partials; the staged kernel may then write them
    // in fragment order): set to the second pass those partials need, else left empty.
    void enqueueGramU8Kernel(CovarianceVariant variant, const cl::Buffer& x, int bands,
                             std::int64_t samples, GramU8Job& job, int chunks, std::int64_t pitch,
                             bool withSums, bool addInPlace, cl::Kernel* fragmentReduce = nullptr);
    // The staged kernel's build options for this shape (the second pass's too).
    std::string stagedBuildOptions(int bands, int stages, int split, bool addInPlace,
                                   bool fragments) const;
    // The fused reduce's build of the staged kernel into `fused`, or why not (see
    // stagedU8FusedReduceRefusal); `fragments`: the two-pass build would write fragment-order
    // partials, `groups` work-groups.
    std::string fusedReduceBuild(const std::string& options, bool fragments, int bands, int groups,
                                 cl::Kernel* fused);
};

// CPU references in double (f32) / exact 64-bit integers (u8), for tests and the bench.
GramU8 referenceGramU8(const std::uint8_t* x, int bands, std::int64_t samples);
CovarianceResult referenceCovariance(const float* x, int bands, std::int64_t samples);
CovarianceResult referenceCovariance(const std::uint8_t* x, int bands, std::int64_t samples);

}  // namespace clviz
