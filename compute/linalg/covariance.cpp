#include "compute/linalg/covariance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr LinalgVariantInfo kVariants[kCovarianceVariantCount] = {
    {"cov-tiled", "Tiled (FP32 / 32-bit integer)",
     "64 x 64 tiles of the Gram matrix per work-group, one chunk of samples each (u8: 4 x 4 "
     "integer products per work-item; float: cov_gram_f32, 8 x 8 per work-item); chunks added in "
     "64 bits (u8) or double.",
     "covariance.cl:cov_gram_tiled", "-DTILE -DU8", "TILE", false},
    {"cov-tensor", "Tensor cores, u8 (mma.sync m16n8k32)",
     "u8 data: warps issue mma.sync m16n8k32 u8 x u8 -> s32, every band of a chunk in cp.async "
     "stages up to 224 bands, 64 x 64 tile pairs beyond (an integer twin elsewhere); float data "
     "runs the FP32 kernel cov_gram_f32.",
     "covariance.cl:cov_gram_u8_mma", "-DMMA_U8 -DMT -DU8 -DNV_INLINE_PTX -DVEC_X", "", true},
};

constexpr int kTile = 64;   // both kernels' Gram tile
constexpr int kStage = 64;  // samples per stage; chunks are multiples of it

// Upper-triangle tile pairs (ti <= tj), packed ti << 16 | tj.
std::vector<cl_uint> tilePairs(int bands) {
    const int nt = (bands + kTile - 1) / kTile;
    std::vector<cl_uint> pairs;
    for (int i = 0; i < nt; ++i)
        for (int j = i; j < nt; ++j)
            pairs.push_back(static_cast<cl_uint>(i << 16 | j));
    return pairs;
}

std::size_t tilePairCount(int bands) {
    const std::size_t nt = std::size_t(bands + kTile - 1) / kTile;
    return nt * (nt + 1) / 2;
}

}  // namespace

const LinalgVariantInfo& covarianceVariantInfo(CovarianceVariant variant) {
    return kVariants[static_cast<int>(variant)];
}

void centreU8(const GramU8& g, int bands, std::int64_t samples, CovarianceResult& out) {
    out.bands = bands;
    out.samples = samples;
    out.mean.assign(bands, 0.0);
    out.covariance.assign(std::size_t(bands) * bands, 0.0);
    const double denom = static_cast<double>(samples) * static_cast<double>(samples - 1);
    for (int i = 0; i < bands; ++i) {
        out.mean[i] = static_cast<double>(g.sums[i]) / static_cast<double>(samples);
        for (int j = 0; j < bands; ++j) {
            // n * G_ij - s_i * s_j is exact in 64 bits for n < 2^31 (n * G <= 255^2 n^2).
            const std::int64_t num =
                samples * g.gram[std::size_t(i) * bands + j] - g.sums[i] * g.sums[j];
            out.covariance[std::size_t(i) * bands + j] = static_cast<double>(num) / denom;
        }
    }
}

Covariance::Covariance(ComputeContext& cc) : cc_(cc), ptx_(cc), kernels_(cc) {}

int Covariance::defaultChunks(SampleType type, int bands, std::int64_t samples) const {
    const std::int64_t pairs = static_cast<std::int64_t>(tilePairs(bands).size());
    // Eight work-groups per compute unit in all, so every unit has several resident; sixteen for
    // float, whose work-groups are a quarter the size (64 work-items).
    const std::int64_t perUnit = type == SampleType::F32 ? 16 : 8;
    const std::int64_t want =
        std::max<std::int64_t>(1, perUnit * std::max(1u, cc_.info().computeUnits));
    std::int64_t chunks = std::max<std::int64_t>(1, (want + pairs - 1) / pairs);
    chunks = std::min(chunks, (samples + kStage - 1) / kStage);  // at least one stage each
    if (type == SampleType::U8)
        chunks = std::max(chunks, (samples + kMaxU8ChunkSamples - 1) / kMaxU8ChunkSamples);
    return static_cast<int>(chunks);
}

int Covariance::u8StagedStages(int bands, std::int64_t pitch) const {
    if (bands > kMaxStagedU8Bands || pitch % 16 != 0) return 0;
    // One stage: every block's 32 rows of 64 samples (kernels/cov_gram_u8_staged.cl).
    const std::uint64_t stageBytes = std::uint64_t((bands + 31) / 32) * 32 * 64;
    return static_cast<int>(std::min<std::uint64_t>(3, cc_.info().localMemBytes / stageBytes));
}

int Covariance::stagedU8Chunks(std::int64_t samples) const {
    // One work-group per compute unit: each holds every row, so the chunks are the only split.
    std::int64_t chunks =
        std::max<std::int64_t>(1, std::int64_t(cc_.info().computeUnits) * staged_.chunksPerUnit);
    chunks = std::min(chunks, (samples + kStage - 1) / kStage);
    chunks = std::max(chunks, (samples + kMaxU8ChunkSamples - 1) / kMaxU8ChunkSamples);
    return static_cast<int>(chunks);
}

void Covariance::setStagedU8Options(const StagedU8Options& options) {
    if (options.split < 1 || options.split > 4 || options.chunksPerUnit < 1 ||
        options.chunksPerUnit > 8)
        throw Error("covariance: staged u8 options need split 1..4 and 1..8 chunks per unit (got " +
                    std::to_string(options.split) + ", " + std::to_string(options.chunksPerUnit) +
                    ")");
    const int slices = options.reduceSlices;
    if (slices < 1 || slices > 32 || (slices & (slices - 1)) != 0)
        throw Error(
            "covariance: the second pass takes 1, 2, 4, 8, 16 or 32 work-items per entry (got " +
            std::to_string(slices) + ")");
    const int l2 = options.l2PrefetchBytes;
    if (l2 != 0 && l2 != 128 && l2 != 256)
        throw Error("covariance: the copies' L2 prefetch is 0, 128 or 256 bytes (got " +
                    std::to_string(l2) + ")");
    if (options.fusedDeadlineUs < 0 || options.fusedDeadlineUs > 1000000)
        throw Error("covariance: the fused reduce's barrier deadline is 0..1,000,000 us (got " +
                    std::to_string(options.fusedDeadlineUs) + ")");
    staged_ = options;
}

bool Covariance::stagedU8AddsInPlace() const {
    return staged_.addInPlace && cc_.info().hasExtension("cl_khr_int64_base_atomics");
}

namespace {

struct Plan {
    int chunks = 0;
    int chunkLen = 0;
};

// The per-chunk partial Gram matrices must fit one buffer.
void checkPartialsFit(const DeviceInfo& info, int chunks, int bands) {
    const double bytes = double(chunks) * bands * bands * 4;
    if (bytes > double(info.maxAllocBytes))
        throw Error("covariance: " + std::to_string(bands) + " bands in " + std::to_string(chunks) +
                    " chunks need " + formatBytes(static_cast<std::uint64_t>(bytes)) +
                    " of partial sums; " + info.name + " allows buffers of " +
                    formatBytes(info.maxAllocBytes) + " (ask for fewer chunks)");
}

Plan plan(int chunks, std::int64_t samples, bool u8) {
    if (chunks < 1) throw Error("covariance: chunks must be at least 1");
    Plan p;
    std::int64_t len = (samples + chunks - 1) / chunks;
    len = (len + kStage - 1) / kStage * kStage;  // whole stages (aligned loads)
    if (u8 && len > kMaxU8ChunkSamples) {
        len = kMaxU8ChunkSamples / kStage * kStage;
    }
    p.chunkLen = static_cast<int>(len);
    p.chunks = static_cast<int>((samples + len - 1) / len);
    if (u8 && p.chunkLen > kMaxU8ChunkSamples)
        throw Error("covariance: internal error, u8 chunk above the exact limit");
    return p;
}

// cov_gram_tiled's and cov_gram_u8_mma's arguments (the u8 kernels ignore mu).
void setGramArgs(cl::Kernel& k, int bands, std::int64_t pitch, std::int64_t samples, const Plan& p,
                 const cl::Buffer& x, const cl::Buffer& mu, const cl::Buffer& pairs,
                 const cl::Buffer& partial, const cl::Buffer& partialSums) {
    setArgs(k, cl_int(bands), cl_int(pitch), cl_long(samples), cl_int(p.chunkLen), x, mu, pairs,
            partial, partialSums);
}

// cov_reduce_partials: adds the chunks' partial products into gram and their row sums into sums,
// `slices` work-items per entry (the kernel built with -DSLICES=slices).
void enqueueReducePartials(cl::CommandQueue& q, cl::Kernel& reduce, int bands, const Plan& p,
                           const cl::Buffer& partial, const cl::Buffer& partialSums,
                           const cl::Buffer& gram, const cl::Buffer& sums, cl::Event* done,
                           int slices = 1) {
    setArgs(reduce, cl_int(bands), cl_int(p.chunks), partial, partialSums, gram, sums);
    const std::size_t perGroup = 256 / slices;
    const std::size_t items =
        (std::size_t(bands) * bands + bands + perGroup - 1) / perGroup * perGroup;
    q.enqueueNDRangeKernel(reduce, cl::NullRange, cl::NDRange(items, slices),
                           cl::NDRange(perGroup, slices), nullptr, done);
}

// The staged Gram kernel's 32 x 32 tiles for `bands`: its warps' schedule covers NB (NB / 2 + 1)
// of them (kernels/common/gram_block_pairs.clh), and fragment-order partials hold each in full,
// 1,024 entries or 256 16-byte fragments.
std::size_t gramWarpTiles(int bands) {
    const std::size_t blocks = std::size_t(bands + 31) / 32;
    return blocks * (blocks / 2 + 1);
}

// Work-items of one staged Gram group built with `options`: a warp per 32-row block, two with
// PAIRED_WARPS.
std::size_t stagedGroupItems(int bands, const std::string& options) {
    const bool paired = options.find("-DPAIRED_WARPS") != std::string::npos;
    return std::size_t(bands + 31) / 32 * 32 * (paired ? 2 : 1);
}

// The fragment-order second pass (cov_reduce_fragments, `slices` work-items per entry).
void enqueueFragmentReduce(cl::CommandQueue& q, cl::Kernel& reduce, int bands, int chunks,
                           int slices, const GramU8Job& job, cl::Event* done) {
    const std::size_t perGroup = 256 / slices;
    const std::size_t fragments = gramWarpTiles(bands) * 256;
    setArgs(reduce, cl_int(bands), cl_int(chunks), job.partial, job.partialSums, job.gram,
            job.sums);
    q.enqueueNDRangeKernel(
        reduce, cl::NullRange,
        cl::NDRange((fragments + bands + perGroup - 1) / perGroup * perGroup, slices),
        cl::NDRange(perGroup, slices), nullptr, done);
}

}  // namespace

GramU8 Covariance::gramU8(CovarianceVariant variant, const cl::Buffer& x, int bands,
                          std::int64_t samples, int chunks, double* ms, std::int64_t pitch,
                          double* kernelMs, double* secondPassMs) {
    GramU8Job job;
    enqueueGramU8(variant, x, bands, samples, job, chunks, pitch);
    return finishGramU8(job, ms, kernelMs, secondPassMs);
}

void Covariance::enqueueGramU8(CovarianceVariant variant, const cl::Buffer& x, int bands,
                               std::int64_t samples, GramU8Job& job, int chunks,
                               std::int64_t pitch) {
    const bool inPlace = variant == CovarianceVariant::Tensor &&
                         u8StagedStages(bands, pitch == 0 ? samples : pitch) >= 2 &&
                         stagedU8AddsInPlace();
    // Everything the host makes (buffers, pinned memory, the reduce program) before the first
    // kernel: work between the two kernels would count in their event span.
    const int slices = staged_.reduceSlices;
    cl::Kernel& reduce = kernels_.get("covariance.cl", "cov_reduce_partials",
                                      " -DU8 -DSLICES=" + std::to_string(slices));
    cl::Kernel fragmentReduce;
    enqueueGramU8Kernel(variant, x, bands, samples, job, chunks, pitch, true, inPlace,
                        &fragmentReduce);
    cl::CommandQueue& q = cc_.queue();
    const std::size_t entries = std::size_t(bands) * bands;
    if (job.fused) {
        // The Gram kernel added the chunks: its event is the product's last; the second pass is
        // kept for finishGramU8 should the barrier time out.
        job.last = job.first;
        job.fallback = fragmentReduce;
        job.fallbackSlices = slices;
        job.queue = q;
    } else if (fragmentReduce()) {
        // One work-item per 16-byte fragment of a chunk's partial, then one per row sum.
        enqueueFragmentReduce(q, fragmentReduce, bands, job.chunks, slices, job, &job.last);
    } else if (!inPlace) {
        const Plan p{job.chunks, 0};
        enqueueReducePartials(q, reduce, bands, p, job.partial, job.partialSums, job.gram, job.sums,
                              &job.last, slices);
    }
    auto* host = static_cast<cl_ulong*>(job.readBack.data());
    q.enqueueReadBuffer(job.gram, CL_FALSE, 0, entries * sizeof(cl_ulong), host);
    if (job.fused) {
        q.enqueueReadBuffer(job.sums, CL_FALSE, 0, bands * sizeof(cl_ulong), host + entries);
        q.enqueueReadBuffer(job.gridSync, CL_FALSE, 0, 2 * sizeof(cl_int), host + entries + bands,
                            nullptr, &job.read);
    } else {
        q.enqueueReadBuffer(job.sums, CL_FALSE, 0, bands * sizeof(cl_ulong), host + entries,
                            nullptr, &job.read);
    }
}

std::string Covariance::stagedBuildOptions(int bands, int stages, int split, bool addInPlace,
                                           bool fragments) const {
    const int blocks = (bands + 31) / 32;
    // The one block count with a triangle design (the header ignores it elsewhere; passed only
    // here so that other shapes keep one build).
    const bool triangles = staged_.triangles && split == 1 && blocks == 7;
    // Two warps per triangle split its tiles by row block; on NVIDIA they load by ldmatrix.
    const bool paired = triangles && staged_.pairedWarps && staged_.ldmatrix;
    std::string options = " -DNB=" + std::to_string(blocks) +
                          " -DSTAGES=" + std::to_string(stages) +
                          " -DSPLIT=" + std::to_string(split);
    if (addInPlace) options += " -DADD_IN_PLACE";
    if (staged_.rowSumsByDp4a) options += " -DROWSUM_DP4A";
    if (staged_.ldmatrix) options += " -DLDMATRIX";
    if (triangles) options += " -DGRAM_TRIANGLES";
    if (paired) options += " -DPAIRED_WARPS";
    if (staged_.columnsByLdmatrix) options += " -DCOLUMNS_BY_LDMATRIX";
    if (staged_.l2PrefetchBytes != 128)  // 128: the copies' own default
        options += " -DCP_L2_BYTES=" + std::to_string(staged_.l2PrefetchBytes);
    if (fragments) options += " -DFRAGMENT_STORES -DSLICES=" + std::to_string(staged_.reduceSlices);
    return options;
}

std::string Covariance::fusedReduceBuild(const std::string& options, bool fragments, int bands,
                                         int groups, cl::Kernel* fused) {
    if (!staged_.fusedReduce) return "off (StagedU8Options::fusedReduce)";
    if (!fragments)
        return "the fused reduce adds fragment-order partials of one work-group per chunk "
               "(split 1, two passes, not added in place)";
    const DeviceInfo& info = cc_.info();
    // The barrier waits for every group: all must be resident at once. One group per compute
    // unit at most, and one must fit a unit (checked on the build below), leaves none waiting
    // for another's unit on an otherwise idle device; the deadline covers the rest.
    if (groups > static_cast<int>(info.computeUnits))
        return std::to_string(groups) + " work-groups for " + std::to_string(info.computeUnits) +
               " compute units: not all resident at once";
    if (!ptx_.active())
        return "the device-wide barrier needs inline PTX (NVIDIA's acquire loads and clock)";
    const std::size_t items = stagedGroupItems(bands, options);
    // Work-items per entry: as many as leave one round of entries for the groups.
    const std::size_t entries = gramWarpTiles(bands) * 256 + bands;
    int slices = 1;
    while (slices < 32 && std::size_t(groups) * (items / (slices + 1)) >= entries)
        ++slices;
    cl::Kernel& k =
        kernels_.get("cov_gram_u8_staged.cl", "cov_gram_u8_staged",
                     options + " -DFUSED_REDUCE -DFUSED_SLICES=" + std::to_string(slices), &ptx_);
    if (!ptx_.active()) return "the compiler refused the inline PTX";
    const std::size_t maxItems = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device());
    const std::uint64_t localBytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(cc_.device());
    if (maxItems < items || localBytes > info.localMemBytes)
        return "a group of " + std::to_string(items) + " work-items (" +
               std::to_string(localBytes) + " B local) does not fit one compute unit (at most " +
               std::to_string(maxItems) + " with this kernel's registers)";
    *fused = k;
    return "";
}

std::string Covariance::stagedU8FusedReduceRefusal(int bands, std::int64_t samples,
                                                   std::int64_t pitch, int chunks) {
    if (pitch == 0) pitch = samples;
    const int stages = u8StagedStages(bands, pitch);
    if (stages < 2 || samples < 1) return "no staged kernel for this shape";
    if (chunks <= 0) chunks = stagedU8Chunks(samples);
    const int groups = plan(chunks, samples, true).chunks;
    const int split = std::min(staged_.split, (bands + 31) / 32 / 2 + 1);
    const bool fragments = split == 1 && staged_.fragmentStores && !stagedU8AddsInPlace();
    cl::Kernel fused;
    return fusedReduceBuild(stagedBuildOptions(bands, stages, split, false, fragments), fragments,
                            bands, groups, &fused);
}

void Covariance::enqueueGramU8Partials(CovarianceVariant variant, const cl::Buffer& x, int bands,
                                       std::int64_t samples, GramU8Job& job, int chunks,
                                       std::int64_t pitch) {
    enqueueGramU8Kernel(variant, x, bands, samples, job, chunks, pitch, false, false);
}

void Covariance::enqueueGramU8Kernel(CovarianceVariant variant, const cl::Buffer& x, int bands,
                                     std::int64_t samples, GramU8Job& job, int chunks,
                                     std::int64_t pitch, bool withSums, bool addInPlace,
                                     cl::Kernel* fragmentReduce) {
    if (pitch == 0) pitch = samples;
    if (bands < 1 || bands > 32767 || samples < 1 || samples > std::int64_t(1) << 31)
        throw Error("covariance: need 1..32767 bands and 1..2^31 samples (got " +
                    std::to_string(bands) + " x " + std::to_string(samples) + ")");
    if (pitch < samples || pitch >= std::int64_t(1) << 31)
        throw Error("covariance: the row pitch must be at least the sample count");
    if (x.getInfo<CL_MEM_SIZE>() < std::size_t(bands) * std::size_t(pitch))
        throw Error("covariance: the buffer is smaller than " + std::to_string(bands) + " x " +
                    std::to_string(pitch) + " bytes");
    const int stagedStages = u8StagedStages(bands, pitch);
    const bool staged = variant == CovarianceVariant::Tensor && stagedStages >= 2;
    if (chunks <= 0)
        chunks = staged ? stagedU8Chunks(samples) : defaultChunks(SampleType::U8, bands, samples);
    const Plan p = plan(chunks, samples, true);
    checkPartialsFit(cc_.info(), p.chunks, bands);
    const cl::Context& ctx = cc_.context();
    cl::CommandQueue& q = cc_.queue();
    const std::size_t entries = std::size_t(bands) * bands;
    const int blocks = (bands + 31) / 32;
    const int split = std::min(staged_.split, blocks / 2 + 1);  // at most a tile per group
    // Fragment order: every tile of every warp, 32 x 32 entries (rows past `bands` included).
    const bool fragments =
        staged && fragmentReduce && !addInPlace && split == 1 && staged_.fragmentStores;
    const std::size_t chunkEntries =
        fragments ? std::max(entries, gramWarpTiles(bands) * 1024) : entries;
    const std::size_t partialBytes = std::size_t(p.chunks) * chunkEntries * sizeof(cl_uint);
    if (job.read()) job.read.wait();  // an unfinished job's read still writes into its vectors
    if (job.bands != bands) {
        const std::vector<cl_uint> pairs = tilePairs(bands);
        job = GramU8Job{};
        job.bands = bands;
        job.pairs = cl::Buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               pairs.size() * sizeof(cl_uint), const_cast<cl_uint*>(pairs.data()));
        job.noMu = cl::Buffer(ctx, CL_MEM_READ_ONLY, sizeof(float));
    }
    if (job.partialBytes < partialBytes) {
        job.partial = cl::Buffer(ctx, CL_MEM_READ_WRITE, partialBytes);
        job.partialSums =
            cl::Buffer(ctx, CL_MEM_READ_WRITE, std::size_t(p.chunks) * bands * sizeof(cl_uint));
        job.partialBytes = partialBytes;
    }
    job.chunks = p.chunks;
    job.fused = job.fusedTimedOut = false;
    // The sums' buffers here, before the kernel (enqueueGramU8 adds into them).
    if (withSums && (!job.gram() || job.gram.getInfo<CL_MEM_SIZE>() < entries * sizeof(cl_ulong))) {
        job.gram = cl::Buffer(ctx, CL_MEM_READ_WRITE, entries * sizeof(cl_ulong));
        job.sums = cl::Buffer(ctx, CL_MEM_READ_WRITE, bands * sizeof(cl_ulong));
        job.readBack = PinnedHostBuffer(ctx, q, (entries + bands + 1) * sizeof(cl_ulong));
    }
    const std::size_t pairCount = tilePairCount(bands);

    cl::Kernel gramKernel;
    cl::NDRange global, local;
    if (staged) {
        const std::string options =
            stagedBuildOptions(bands, stagedStages, split, addInPlace, fragments);
        cl::Kernel fused;
        job.fused = fusedReduceBuild(options, fragments, bands, p.chunks, &fused).empty();
        gramKernel =
            job.fused ? fused
                      : kernels_.get("cov_gram_u8_staged.cl", "cov_gram_u8_staged", options, &ptx_);
        // The second pass from the same program, so with the same schedule (fused: in case the
        // barrier times out).
        if (fragments)
            *fragmentReduce =
                kernels_.get("cov_gram_u8_staged.cl", "cov_reduce_fragments", options, &ptx_);
        if (job.fused) {
            // The barrier's counter is never reset: this launch brings it `groups` further.
            if (!job.gridSync()) {
                const cl_int zeros[2] = {0, 0};
                job.gridSync = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          sizeof(zeros), const_cast<cl_int*>(zeros));
                job.arrivals = 0;
            }
            job.arrivals += static_cast<std::uint32_t>(p.chunks);
            const double mhz = cc_.info().clockMHz > 0 ? cc_.info().clockMHz : 3000.0;
            setArgs(gramKernel, cl_int(bands), cl_int(pitch), cl_long(samples), cl_int(p.chunkLen),
                    x, job.partial, job.partialSums, job.gram, job.sums, job.gridSync,
                    cl_uint(job.arrivals), cl_long(mhz * staged_.fusedDeadlineUs));
        } else if (addInPlace) {
            // The chunks add into zeroed sums; the fill is part of the product's device time.
            q.enqueueFillBuffer(job.gram, cl_ulong(0), 0, entries * sizeof(cl_ulong), nullptr,
                                &job.first);
            q.enqueueFillBuffer(job.sums, cl_ulong(0), 0, bands * sizeof(cl_ulong));
            setArgs(gramKernel, cl_int(bands), cl_int(pitch), cl_long(samples), cl_int(p.chunkLen),
                    x, job.gram, job.sums);
        } else {
            setArgs(gramKernel, cl_int(bands), cl_int(pitch), cl_long(samples), cl_int(p.chunkLen),
                    x, job.partial, job.partialSums);
        }
        const std::size_t groupItems = stagedGroupItems(bands, options);
        global = cl::NDRange(groupItems * split, p.chunks);
        local = cl::NDRange(groupItems, 1);
    } else if (variant == CovarianceVariant::Tensor) {
        std::string options = " -DU8 -DMMA_U8 -DMT=" + std::to_string(kTile);
        if (pitch % 16 == 0) options += " -DVEC_X";  // 16-byte loads need aligned rows
        gramKernel = kernels_.get("covariance.cl", "cov_gram_u8_mma", options, &ptx_);
        global = cl::NDRange(pairCount * 128, p.chunks);
        local = cl::NDRange(128, 1);
        setGramArgs(gramKernel, bands, pitch, samples, p, x, job.noMu, job.pairs, job.partial,
                    job.partialSums);
    } else {
        gramKernel = kernels_.get("covariance.cl", "cov_gram_tiled",
                                  " -DU8 -DTILE=" + std::to_string(kTile));
        global = cl::NDRange(pairCount * 16, std::size_t(p.chunks) * 16);
        local = cl::NDRange(16, 16);
        setGramArgs(gramKernel, bands, pitch, samples, p, x, job.noMu, job.pairs, job.partial,
                    job.partialSums);
    }
    // Added in place, the kernel is the product's last command (the fills were its first).
    q.enqueueNDRangeKernel(gramKernel, cl::NullRange, global, local, nullptr,
                           addInPlace ? &job.last : &job.first);
    job.gramKernel = addInPlace ? job.last : job.first;
}

GramU8 Covariance::finishGramU8(GramU8Job& job, double* ms, double* kernelMs,
                                double* secondPassMs) {
    if (!job.read()) throw Error("covariance: finishGramU8 without enqueueGramU8");
    job.read.wait();  // the queue is in order: the Gram matrix's read is done too
    const std::size_t at = std::size_t(job.bands) * job.bands + job.bands;
    if (job.fused) {
        // Some group waited past the deadline at the barrier (it wrote this launch's target):
        // its share was not added. Every partial is stored; the second pass adds them all.
        const auto* words = reinterpret_cast<const cl_uint*>(
            static_cast<const cl_ulong*>(job.readBack.data()) + at);
        if (words[1] == job.arrivals) {
            std::fprintf(stderr,
                         "clviz: covariance: the fused reduce's device-wide barrier timed out "
                         "(work-groups not all resident?); the chunks were added by a second "
                         "pass instead\n");
            job.fusedTimedOut = true;
            auto* host = static_cast<cl_ulong*>(job.readBack.data());
            enqueueFragmentReduce(job.queue, job.fallback, job.bands, job.chunks,
                                  job.fallbackSlices, job, &job.last);
            const std::size_t entries = std::size_t(job.bands) * job.bands;
            job.queue.enqueueReadBuffer(job.gram, CL_FALSE, 0, entries * sizeof(cl_ulong), host);
            job.queue.enqueueReadBuffer(job.sums, CL_TRUE, 0, job.bands * sizeof(cl_ulong),
                                        host + entries);
        }
    }
    if (ms) *ms = spanMilliseconds(job.first, job.last);
    if (kernelMs) *kernelMs = eventMilliseconds(job.gramKernel);
    if (secondPassMs)
        *secondPassMs = job.last() == job.gramKernel() ? 0.0 : eventMilliseconds(job.last);
    const int bands = job.bands;
    const std::size_t entries = std::size_t(bands) * bands;
    const auto* host = static_cast<const cl_ulong*>(job.readBack.data());
    GramU8 out;
    out.gram.assign(entries, 0);
    out.sums.assign(host + entries, host + entries + bands);
    for (int i = 0; i < bands; ++i)
        for (int j = i; j < bands; ++j) {
            const auto v = static_cast<std::int64_t>(host[std::size_t(i) * bands + j]);
            out.gram[std::size_t(i) * bands + j] = v;
            out.gram[std::size_t(j) * bands + i] = v;
        }
    job.read = cl::Event();
    return out;
}

CovarianceResult Covariance::compute(CovarianceVariant variant, SampleType type,
                                     const cl::Buffer& x, int bands, std::int64_t samples,
                                     int chunks, std::int64_t pitch) {
    if (pitch == 0) pitch = samples;
    if (samples < 2) throw Error("covariance: need at least 2 samples");
    CovarianceResult out;
    if (type == SampleType::U8) {
        double ms = 0, kernelMs = 0, secondPassMs = 0;
        const GramU8 g =
            gramU8(variant, x, bands, samples, chunks, &ms, pitch, &kernelMs, &secondPassMs);
        centreU8(g, bands, samples, out);
        out.ms = ms;
        out.firstPassMs = kernelMs;
        out.secondPassMs = secondPassMs;
        out.tensorPath = variant == CovarianceVariant::Tensor && ptx_.active();
        return out;
    }
    if (bands < 1 || bands > 32767 || samples > std::int64_t(1) << 31)
        throw Error("covariance: need 1..32767 bands and 2..2^31 samples");
    if (pitch < samples || pitch >= std::int64_t(1) << 31)
        throw Error("covariance: the row pitch must be at least the sample count");
    if (x.getInfo<CL_MEM_SIZE>() < std::size_t(bands) * std::size_t(pitch) * sizeof(float))
        throw Error("covariance: the buffer is smaller than " + std::to_string(bands) + " x " +
                    std::to_string(pitch) + " floats");
    const Plan p =
        plan(chunks > 0 ? chunks : defaultChunks(SampleType::F32, bands, samples), samples, false);
    checkPartialsFit(cc_.info(), p.chunks, bands);
    const cl::Context& ctx = cc_.context();
    cl::CommandQueue& q = cc_.queue();
    const bool fp64 = cc_.info().hasExtension("cl_khr_fp64");
    const std::string fp = fp64 ? " -DHAS_FP64" : "";

    // Pass 1: the means (row sums per chunk, added in double here).
    cl::Buffer rowPartials(ctx, CL_MEM_READ_WRITE, std::size_t(p.chunks) * bands * sizeof(float));
    cl::Kernel& rowSums = kernels_.get("covariance.cl", "cov_row_sums", fp);
    setArgs(rowSums, cl_int(pitch), cl_long(samples), cl_int(p.chunkLen), x, rowPartials);
    cl::Event first, last;
    q.enqueueNDRangeKernel(rowSums, cl::NullRange, cl::NDRange(std::size_t(p.chunks) * 256, bands),
                           cl::NDRange(256, 1), nullptr, &first);
    std::vector<float> rp(std::size_t(p.chunks) * bands);
    q.enqueueReadBuffer(rowPartials, CL_TRUE, 0, rp.size() * sizeof(float), rp.data());
    out.mean.assign(bands, 0.0);
    std::vector<float> mu(bands);
    for (int b = 0; b < bands; ++b) {
        double s = 0;
        for (int c = 0; c < p.chunks; ++c)
            s += rp[std::size_t(b) * p.chunks + c];
        out.mean[b] = s / static_cast<double>(samples);
        mu[b] = static_cast<float>(out.mean[b]);
    }

    // Pass 2: the Gram matrix of X - mu in FP32, per chunk, chunks added in double.
    const std::vector<cl_uint> pairs = tilePairs(bands);
    cl::Buffer muBuf(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bands * sizeof(float),
                     mu.data());
    cl::Buffer pairBuf(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pairs.size() * sizeof(cl_uint),
                       const_cast<cl_uint*>(pairs.data()));
    const std::size_t entries = std::size_t(bands) * bands;
    const std::size_t totalBytes = fp64 ? sizeof(double) : sizeof(float);
    cl::Buffer partial(ctx, CL_MEM_READ_WRITE, std::size_t(p.chunks) * entries * sizeof(float));
    cl::Buffer partialSums(ctx, CL_MEM_READ_WRITE, std::size_t(p.chunks) * bands * sizeof(float));
    cl::Buffer gram(ctx, CL_MEM_READ_WRITE, entries * totalBytes);
    cl::Buffer sums(ctx, CL_MEM_READ_WRITE, bands * totalBytes);
    // cov_gram_f32 (8 x 8 work-items of 8 x 8) writes no row sums: the means came from pass 1.
    q.enqueueFillBuffer(partialSums, 0.0f, 0, std::size_t(p.chunks) * bands * sizeof(float));
    cl::Kernel& gramKernel = kernels_.get("covariance.cl", "cov_gram_f32", "-DGRAM_F32");
    setArgs(gramKernel, cl_int(bands), cl_int(pitch), cl_long(samples), cl_int(p.chunkLen), x,
            muBuf, pairBuf, partial);
    cl::Event gramStart;
    q.enqueueNDRangeKernel(gramKernel, cl::NullRange,
                           cl::NDRange(pairs.size() * 8, std::size_t(p.chunks) * 8),
                           cl::NDRange(8, 8), nullptr, &gramStart);
    cl::Kernel& reduce = kernels_.get("covariance.cl", "cov_reduce_partials", fp);
    enqueueReducePartials(q, reduce, bands, p, partial, partialSums, gram, sums, &last);
    std::vector<double> g(entries);
    if (fp64) {
        q.enqueueReadBuffer(gram, CL_TRUE, 0, entries * sizeof(double), g.data());
    } else {
        std::vector<float> gf(entries);
        q.enqueueReadBuffer(gram, CL_TRUE, 0, entries * sizeof(float), gf.data());
        std::copy(gf.begin(), gf.end(), g.begin());
    }
    out.bands = bands;
    out.samples = samples;
    out.covariance.assign(entries, 0.0);
    const double scale = 1.0 / static_cast<double>(samples - 1);
    for (int i = 0; i < bands; ++i)
        for (int j = i; j < bands; ++j) {
            const double v = g[std::size_t(i) * bands + j] * scale;
            out.covariance[std::size_t(i) * bands + j] = v;
            out.covariance[std::size_t(j) * bands + i] = v;
        }
    // Device time of both passes (the host's addition of the means between them not counted).
    out.ms = eventMilliseconds(first) + spanMilliseconds(gramStart, last);
    return out;
}

GramU8 referenceGramU8(const std::uint8_t* x, int bands, std::int64_t samples) {
    GramU8 g;
    g.gram.assign(std::size_t(bands) * bands, 0);
    g.sums.assign(bands, 0);
    for (int i = 0; i < bands; ++i) {
        const std::uint8_t* xi = x + std::size_t(i) * samples;
        for (std::int64_t s = 0; s < samples; ++s)
            g.sums[i] += xi[s];
        for (int j = i; j < bands; ++j) {
            const std::uint8_t* xj = x + std::size_t(j) * samples;
            std::int64_t acc = 0;
            for (std::int64_t s = 0; s < samples; ++s)
                acc += int(xi[s]) * int(xj[s]);
            g.gram[std::size_t(i) * bands + j] = acc;
            g.gram[std::size_t(j) * bands + i] = acc;
        }
    }
    return g;
}

CovarianceResult referenceCovariance(const std::uint8_t* x, int bands, std::int64_t samples) {
    CovarianceResult out;
    centreU8(referenceGramU8(x, bands, samples), bands, samples, out);
    return out;
}

CovarianceResult referenceCovariance(const float* x, int bands, std::int64_t samples) {
    CovarianceResult out;
    out.bands = bands;
    out.samples = samples;
    out.mean.assign(bands, 0.0);
    for (int i = 0; i < bands; ++i) {
        double s = 0;
        for (std::int64_t k = 0; k < samples; ++k)
            s += x[std::size_t(i) * samples + k];
        out.mean[i] = s / static_cast<double>(samples);
    }
    out.covariance.assign(std::size_t(bands) * bands, 0.0);
    for (int i = 0; i < bands; ++i)
        for (int j = i; j < bands; ++j) {
            double acc = 0;
            for (std::int64_t k = 0; k < samples; ++k)
                acc += (x[std::size_t(i) * samples + k] - out.mean[i]) *
                       (x[std::size_t(j) * samples + k] - out.mean[j]);
            const double v = acc / static_cast<double>(samples - 1);
            out.covariance[std::size_t(i) * bands + j] = v;
            out.covariance[std::size_t(j) * bands + i] = v;
        }
    return out;
}

}  // namespace clviz
