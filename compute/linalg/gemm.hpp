#pragma once
// Single-precision GEMM, C = alpha * op(A) * op(B) + beta * C, row-major and densely packed, any
// M, N, K (kernels/gemm.cl). The variants are the course's road from one work-item per element
// to tensor cores; gemmVariants() lists them in that order.
#include <cstddef>
#include <string>

#include "compute/core/cl.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/linalg/kernel_set.hpp"
#include "compute/linalg/linalg_variant.hpp"

namespace clviz {

class ComputeContext;

enum class GemmVariant {
    Naive,            // one work-item per element of C, straight from global memory
    LocalTile,        // the course's TS x TS local-memory tiles, one element per work-item
    RegisterBlocked,  // BM x BN tiles, each work-item a TM x TN block in registers, vector loads
    DoubleBuffered,   // RegisterBlocked, next tile fetched while this one is used (2 local buffers)
    Pipelined,        // 128 x 128 blocks of 256 work-items, prefetched, two groups per SM
    TensorTf32,       // mma.sync m16n8k8 TF32 with FP32 accumulate (portable FP32 twin elsewhere)
};
constexpr int kGemmVariantCount = 6;

const LinalgVariantInfo& gemmVariantInfo(GemmVariant variant);
// "gemm-naive" etc.; throws clviz::Error for an unknown id.
GemmVariant gemmVariantFromId(const std::string& id);

// op(A) is M x K, op(B) is K x N, C is M x N. transA: A is stored K x M (row-major), so op(A) =
// A^T; transB: B stored N x K. Every matrix is packed (leading dimension = its row length).
struct GemmShape {
    int m = 0, n = 0, k = 0;
    bool transA = false, transB = false;
    double flops() const { return 2.0 * m * n * k; }
    // Float bytes if every matrix crossed DRAM once: A and B read, C written (and read too when
    // beta != 0). The least a GEMM moves, the ideal a tiled kernel approaches on the roofline.
    double leastBytes(bool readsC = false) const {
        return 4.0 * (double(m) * k + double(k) * n + double(m) * n * (readsC ? 2 : 1));
    }
};

// Tile parameters (0: the variant's default). Only the ones a variant lists in its tunables
// matter; impossible combinations are refused with a clviz::Error naming the rule.
struct GemmTuning {
    int tile = 0;     // LocalTile: TS (work-group TS x TS)
    int blockM = 0;   // RegisterBlocked / DoubleBuffered / Pipelined / TensorTf32: BM
    int blockN = 0;   // BN
    int blockK = 0;   // BK
    int threadM = 0;  // RegisterBlocked / DoubleBuffered / Pipelined: TM rows per work-item
    int threadN = 0;  // TN columns per work-item
    int warpM = 0;    // TensorTf32: WM rows per warp (a multiple of 16)
    int warpN = 0;    // WN columns per warp (a multiple of 8)
    // RegisterBlocked / DoubleBuffered / Pipelined on NVIDIA only: -cl-nv-maxrregcount=REGCAP
    // (0: the compiler's choice; Pipelined's default is two work-groups' worth of an SM's 64 K
    // registers, 128 for 256 work-items). Fewer registers per work-item, more work-groups per SM,
    // maybe spills.
    int registerCap = 0;
    // Pipelined: work-groups walked down bands of GB block rows, column by column, instead of
    // row by row (1: the launch order; default 8), so that consecutive groups share B's tiles.
    int groupBand = 0;
    // Pipelined: ST local buffers (2..4) filled by asynchronous copies (PTX cp.async where the
    // compiler takes inline PTX, plain copies elsewhere) instead of the register prefetch into
    // two buffers (0, the default).
    int asyncStages = 0;
    // TensorTf32: BULK=1 packs A and B into contiguous tiles first (kernels/gemm_tf32_pack.cl)
    // and fills the stages by Hopper's bulk copies (kernels/gemm_tf32_bulk.cl; plain copies of
    // the packed tiles without inline PTX). The row's time counts the packing.
    int bulkCopies = 0;
    // "BM=128 BN=128 BK=16 TM=8 TN=8" (plus " REGCAP=128" where capped, GB, ST, BULK where set),
    // for bench rows.
    std::string key() const;
};

// The inverse of GemmTuning::key(): "NAME=VALUE" words separated by spaces, names as key()
// writes them; an empty string is the default tuning. Throws clviz::Error naming the bad word.
GemmTuning parseGemmTuning(const std::string& key);

// The build options that cap registers per work-item: "" for cap 0, " -DREGISTER_CAP
// -cl-nv-maxrregcount=N" where the device's compiler takes NVIDIA's options
// (cl_nv_compiler_options); REGISTER_CAP drops gemm_regblock's required work-group size, under
// which ptxas ignores the cap. A cap anywhere else, or outside 16..255, throws clviz::Error: no
// other compiler ever receives the option.
std::string registerCapOption(bool nvidiaCompilerOptions, int cap);
// Whether `device` takes NVIDIA's compiler options (so register caps can be tuned there).
bool takesNvidiaCompilerOptions(const DeviceInfo& device);

// gemm-tf32 runs kernels/gemm_tf32_staged.cl (cp.async stages, 2 to 4 as local memory allows)
// where the stored rows of A and B are whole 16-byte chunks, gemm.cl's gemm_tf32 elsewhere.
bool tf32UsesStagedKernel(const GemmShape& shape);
// The most local memory the staged kernel's stages take on any device (NVIDIA's OpenCL grants a
// work-group no more).
constexpr std::size_t kTf32LocalBytes = 48 * 1024;
// Local memory of one stage of the staged kernel (a tile of A and of B): padded rows, or packed
// rows with XOR-swizzled chunks (the same for every transpose).
std::size_t tf32StageBytes(const GemmShape& shape, const GemmTuning& tuning, bool packed);
// Whether the staged kernel packs its rows: where two padded stages pass min(local, 48 KiB).
bool tf32PacksRows(const GemmShape& shape, const GemmTuning& tuning, std::size_t localBytes);

// gemm-tf32 with no tile named takes the bulk-copy path (BM=128 BN=128 BK=16 WM=64 WN=64 BULK=1)
// where M, N and K are all at least this: measured faster than the staged kernel there, and with
// the one-launch packing faster than BK=8 (4096^3 and 8192^3, H100, docs/linalg.md). Smaller
// products keep the staged kernel: the bulk path was not timed there, and its packing (O(n^2)
// against the product's O(n^3)) weighs more.
constexpr int kTf32BulkMinSize = 4096;

// Local memory of one stage of the bulk-copy kernel (a packed tile of A and of B).
std::size_t tf32BulkStageBytes(const GemmTuning& tuning);

class Gemm {
  public:
    explicit Gemm(ComputeContext& cc);

    // Enqueues C = alpha * op(A) * op(B) + beta * C. beta == 0 never reads C (it may hold NaN).
    // Buffers must hold the packed matrices. Throws clviz::Error for bad shapes or tunings.
    // Returns the kernel's event (profiling: its device time).
    cl::Event enqueue(GemmVariant variant, const GemmShape& shape, float alpha, const cl::Buffer& a,
                      const cl::Buffer& b, float beta, const cl::Buffer& c,
                      const GemmTuning& tuning = {});

    // Whether `variant` runs its tensor-core path here (false: its portable twin), with why.
    bool usesInlinePtx(GemmVariant variant) const;
    std::string ptxNote() const;

    // Stages the staged TF32 kernel runs `shape` with (as many as min(local memory, 48 KiB) holds,
    // at most 4; below 2 enqueue refuses), 0 where gemm.cl's gemm_tf32 runs it.
    int tf32Stages(const GemmShape& shape, const GemmTuning& tuning = {}) const;

    // Stages of the bulk-copy kernel (BULK=1): as many as min(local memory, 48 KiB) holds beside
    // their barriers, at most 4; below 2 enqueue refuses.
    int tf32BulkStages(const GemmTuning& tuning) const;

    // The first command the last enqueue() issued: the packing of A under BULK=1, else the
    // returned kernel's event. spanMilliseconds(firstEvent(), returned) is the product's time.
    const cl::Event& firstEvent() const { return first_; }
    // BULK=1's packed op(A) and op(B)^T of the last product (Tf32PackedLayout), for tests.
    const cl::Buffer& tf32PackedA() const { return packedA_; }
    const cl::Buffer& tf32PackedB() const { return packedB_; }
    // BULK=1: the last product's packing (one launch for both operands) and the bytes it read
    // and wrote; a null event and 0 where the last enqueue() packed nothing.
    const cl::Event& packEvent() const { return pack_; }
    double packBytes() const { return packBytes_; }

    // The tuning enqueue() uses once `tuning`'s zeros are filled with defaults.
    GemmTuning resolved(GemmVariant variant, const GemmTuning& tuning) const;
    // The same for `shape`, what enqueue() runs: gemm-tf32's default tiling is the bulk path's at
    // and above kTf32BulkMinSize.
    GemmTuning resolvedFor(GemmVariant variant, const GemmTuning& tuning,
                           const GemmShape& shape) const;

  private:
    ComputeContext& cc_;
    InlinePtxBuilds ptx_;
    KernelSet kernels_;
    cl::Buffer packedA_, packedB_;  // BULK=1's packed operands, grown as needed
    cl::Event first_;
    cl::Event pack_;
    double packBytes_ = 0;
};

}  // namespace clviz
