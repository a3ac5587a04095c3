#include "compute/nbody/pairs/pair_force.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr std::size_t kMaxBodies = std::size_t{1} << 30;  // block indices stay in int
constexpr int kKickGroup = 64;

// Offsets block a meets (kernels/nbody_pairs.cl, offsetsOf): itself, the (nb - 1) / 2 after it,
// and for even nb the one opposite if a < nb / 2.
std::size_t mostOffsets(std::size_t blocks) {
    return 1 + (blocks - 1) / 2 + (blocks % 2 == 0 ? 1 : 0);
}
std::size_t allOffsets(std::size_t blocks) {
    return blocks * (1 + (blocks - 1) / 2) + (blocks % 2 == 0 ? blocks / 2 : 0);
}

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

}  // namespace

PairForce::PairForce(ComputeContext& cc) : cc_(cc), builds_(cc) {}

PairForceShape PairForce::resolve(std::size_t n, PairForceShape shape) const {
    const DeviceInfo& info = cc_.info();
    const bool gpu = info.kind == DeviceKind::Gpu;
    // Defaults: the fastest shape on the H100 (docs/benchmarks.md, "Each pair once"): groups of
    // 128 holding 4 bodies each, meeting 4 per phase.
    if (shape.iPerItem <= 0) shape.iPerItem = 4;
    if (shape.jPerItem <= 0) shape.jPerItem = std::min(shape.iPerItem, gpu ? 4 : 2);
    if (shape.workGroupSize <= 0) {
        // GPUs: the largest group up to 128 that still gives every compute unit 16 block
        // meetings, so the last wave is short; CPUs run a work-group as a loop: 32 is plenty.
        const std::size_t cap = std::min<std::size_t>(gpu ? 128 : 32, info.maxWorkGroupSize);
        std::size_t wg = cap;
        while (wg > 32 && allOffsets(ceilDiv(std::max<std::size_t>(n, 1), wg * shape.iPerItem)) <
                              16 * std::max(1u, info.computeUnits))
            wg /= 2;
        shape.workGroupSize = static_cast<int>(wg);
    }
    return shape;
}

PairForce::Launch PairForce::plan(std::size_t n, PairForceShape requested,
                                  std::size_t launchedBlocks) const {
    const DeviceInfo& info = cc_.info();
    Launch l;
    l.shape = resolve(n, requested);
    const PairForceShape& s = l.shape;
    const auto wg = static_cast<std::size_t>(s.workGroupSize);
    if (wg > info.maxWorkGroupSize)
        throw Error("pairs force: work-group size " + std::to_string(wg) + " is above " +
                    info.name + "'s maximum (" + std::to_string(info.maxWorkGroupSize) + ")");
    if (s.iPerItem > 16 || s.iPerItem % s.jPerItem != 0)
        throw Error("pairs force: bodies per work-item must be 1-16 and a multiple of the " +
                    std::string("met bodies per phase (got ") + std::to_string(s.iPerItem) +
                    " and " + std::to_string(s.jPerItem) + ")");
    const std::size_t local = 2 * wg * static_cast<std::size_t>(s.jPerItem) * 16;
    if (local > info.localMemBytes)
        throw Error("pairs force: " + formatBytes(local) + " of local memory needed, " + info.name +
                    " has " + formatBytes(info.localMemBytes));
    if (n > kMaxBodies)
        throw Error("pairs force: " + std::to_string(n) + " bodies is above the limit of " +
                    std::to_string(kMaxBodies));
    l.blocks = static_cast<int>(ceilDiv(n, wg * static_cast<std::size_t>(s.iPerItem)));
    // Enough work-groups for several waves (GPUs) or every core (CPUs), each meeting an equal
    // share of its block's offsets.
    const std::size_t target =
        std::max(1u, info.computeUnits) * (info.kind == DeviceKind::Gpu ? 32 : 4);
    const std::size_t launched = launchedBlocks ? launchedBlocks : l.blocks;
    l.chunks = static_cast<int>(
        std::clamp<std::size_t>(ceilDiv(target, launched), 1, mostOffsets(l.blocks)));
    return l;
}

std::string PairForce::describe(std::size_t n, PairForceShape shape) const {
    const Launch l = plan(n, shape);
    return "wg=" + std::to_string(l.shape.workGroupSize) +
           " ipi=" + std::to_string(l.shape.iPerItem) + " jpi=" + std::to_string(l.shape.jPerItem) +
           ", " + std::to_string(static_cast<long long>(l.blocks) * l.chunks) + " groups";
}

cl::Kernel& PairForce::kernel(const PairForceShape& s, bool selfGuard) {
    const std::string options =
        "-DWG=" + std::to_string(s.workGroupSize) + " -DIPI=" + std::to_string(s.iPerItem) +
        " -DJPI=" + std::to_string(s.jPerItem) + (selfGuard ? " -DSELF_GUARD" : "");
    if (auto it = kernels_.find(options); it != kernels_.end()) return it->second;
    cl::Kernel k = builds_.kernel("nbody_pairs.cl", "nbody_pairs", options);
    const auto limit = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device());
    if (limit < static_cast<std::size_t>(s.workGroupSize))
        throw Error("pairs force: " + cc_.info().name + " runs this kernel with at most " +
                    std::to_string(limit) + " work-items per group, not " +
                    std::to_string(s.workGroupSize));
    return kernels_.emplace(options, std::move(k)).first->second;
}

std::pair<std::size_t, std::size_t> PairForce::shareBlocks(std::size_t n, std::size_t blockBodies,
                                                           std::size_t begin, std::size_t count) {
    if (n == 0 || blockBodies == 0) return {0, 0};
    const std::size_t nb = ceilDiv(n, blockBodies);
    // Meetings of blocks 0 .. a - 1 (offsetsOf in kernels/nbody_pairs.cl); 128-bit products:
    // meetings x n passes 2^64 near the body limit.
    const auto before = [nb](std::size_t a) -> unsigned __int128 {
        return static_cast<unsigned __int128>(a) * (1 + (nb - 1) / 2) +
               (nb % 2 == 0 ? std::min(a, nb / 2) : 0);
    };
    const unsigned __int128 total = before(nb);
    // The first block whose meetings start at or after the fraction b / n of all meetings.
    const auto cut = [&](std::size_t b) {
        std::size_t lo = 0, hi = nb;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (before(mid) * n >= total * b)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    };
    return {cut(begin), cut(begin + count)};
}

void PairForce::enqueue(const cl::Buffer& pos, std::size_t n, float softening,
                        const cl::Buffer& acc, const Launch& l, std::size_t firstBlock,
                        std::size_t blocks) {
    cl::Kernel& k = kernel(l.shape, softening == 0);
    cl::CommandQueue& q = cc_.queue();
    cl::Event clear;
    q.enqueueFillBuffer(acc, cl_float(0), 0, n * sizeof(cl_float4), nullptr, &clear);
    events_.emplace_back("force-clear", clear);
    if (blocks == 0) return;  // an empty share adds nothing
    setArgs(k, pos, acc, static_cast<cl_int>(n), static_cast<cl_int>(l.chunks),
            softening * softening, static_cast<cl_int>(firstBlock));
    const std::size_t wg = static_cast<std::size_t>(l.shape.workGroupSize);
    cl::Event force;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(blocks * l.chunks * wg), cl::NDRange(wg),
                           nullptr, &force);
    events_.emplace_back("force", force);
}

void PairForce::compute(const cl::Buffer& pos, std::size_t n, float softening,
                        const cl::Buffer& acc, const cl::Buffer* vel, float kickFactor,
                        PairForceShape shape) {
    events_.clear();
    if (n == 0) return;
    const Launch l = plan(n, shape);
    enqueue(pos, n, softening, acc, l, 0, static_cast<std::size_t>(l.blocks));
    if (vel && kickFactor != 0) kick(acc, *vel, 0, n, kickFactor);
}

void PairForce::computeShare(const cl::Buffer& pos, std::size_t n, float softening,
                             const cl::Buffer& acc, std::size_t begin, std::size_t count,
                             PairForceShape shape) {
    events_.clear();
    if (n == 0) return;
    if (begin > n || count > n - begin)
        throw Error("pairs force: share " + std::to_string(begin) + " + " + std::to_string(count) +
                    " is not within " + std::to_string(n) + " bodies");
    const PairForceShape s = resolve(n, shape);
    const std::size_t blockBodies =
        static_cast<std::size_t>(s.workGroupSize) * static_cast<std::size_t>(s.iPerItem);
    const auto [first, last] = shareBlocks(n, blockBodies, begin, count);
    const Launch l = plan(n, s, std::max<std::size_t>(last - first, 1));
    enqueue(pos, n, softening, acc, l, first, last - first);
}

void PairForce::kick(const cl::Buffer& acc, const cl::Buffer& vel, std::size_t begin,
                     std::size_t count, float kickFactor) {
    if (count == 0 || kickFactor == 0) return;
    if (!kick_())
        kick_ =
            cc_.programs().kernel("nbody_pairs.cl", "nbody_pairs_kick", "-DWG=1 -DIPI=1 -DJPI=1");
    setArgs(kick_, acc, vel);
    kick_.setArg(2, static_cast<cl_int>(begin + count));  // the global offset starts at begin
    kick_.setArg(3, kickFactor);
    cl::Event kicked;
    cc_.queue().enqueueNDRangeKernel(kick_, cl::NDRange(begin),
                                     cl::NDRange(ceilDiv(count, kKickGroup) * kKickGroup),
                                     cl::NDRange(kKickGroup), nullptr, &kicked);
    events_.emplace_back("force-kick", kicked);
}

}  // namespace clviz
