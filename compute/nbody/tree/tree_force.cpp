#include "compute/nbody/tree/tree_force.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "common/parse.hpp"  // roundUp
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/nbody/body.hpp"
#include "compute/nbody/tree/reference_tree.hpp"
#include "compute/nbody/tree/window_select.hpp"

namespace clviz {

namespace {

constexpr const char* kFile = "nbody_tree.cl";
constexpr std::size_t kSortWg = 128, kScanWg = 256, kReduceWg = 256, kElementWg = 64;
constexpr std::size_t kMaxSortTiles = 4096;
constexpr std::size_t kTilesPerUnit = 16;  // radix sort work-groups per compute unit
// At most this many sort tiles: fewer, longer tiles shorten the one-work-group scan of their
// counts and write longer runs per digit (docs/benchmarks.md, issue 31 round 3: 512 tiles gave the
// fastest sort of 1M, 4M and 16M keys on the H100).
constexpr std::size_t kSortTilesMost = 512;
// Most keys the sort sorts with 8-bit digits when TreeForceOptions::sortDigitBits is 0 (issue 31
// round 4: 8-bit digits were faster at 1M keys and slower at 16M on the H100).
constexpr std::size_t kWideSortMostKeys = std::size_t(1) << 20;
// Keys per work-item of radix_scatter_chunks when TreeForceOptions::sortKeysPerItem is 0 (chunks
// of 2,048 keys).
constexpr int kDefaultSortKeysPerItem = 16;
constexpr cl_uint kWalkPackedArg = 18;  // walk's packedAcc (pieces' builds) and walk_body's
constexpr int kMaxSamples = 4096;
// The group walk's register cap when TreeForceOptions::walkRegisterCap is -1 on NVIDIA: below the
// compiler's own choice, measured faster (docs/benchmarks.md, issue 31 round 6).
constexpr int kWalkRegisterCap = 48;
// With the far field the walk's local memory limits a multiprocessor to 7 work-groups of 128
// (kFarWalkStack, kFarWalkList): 72 registers each fill the register file at 7, and a cap of 48
// there only slows it (docs/benchmarks.md, issue 31 round 8 and session 8).
constexpr int kFarWalkRegisterCap = 72;
// The group walk's stack entries and list length when TreeForceOptions::stackSize and listSize
// are 0: a stack of 1,024, and with the third-order far field and work-groups of 128 lists of 768
// bodies (and 384 cells): the walk's local memory is then 31,840 bytes, so that an sm_90
// multiprocessor (228 KiB of shared memory, 1 KiB of it reserved per work-group) holds 7 of them;
// longer lists are summed less often (fewer walk iterations, each with its barriers), and lists of
// 1,024 would allow only 5 (docs/benchmarks.md, issue 31 session 8). A stack near full pops fewer
// nodes at a time (see walk in kernels/nbody_tree.cl), and a stack of 768 made one group of the
// colliding galaxies' dense core the launch's straggler (session 10). Elsewhere, where nothing of
// this was measured, lists of 512.
constexpr int kWalkStack = 1024;
constexpr int kWalkList = 512, kFarWalkList = 768;
constexpr int kResidentPerUnit = 32;   // walk work-groups launched per compute unit
constexpr std::size_t kOrderWg = 256;  // ORDER_WG: words of group starts per prefix block
// The split build's cells (domain_cells in kernels/nbody_tree.cl): about this many of a domain's
// bodies' boxes, in about kSuperCells groups, and room for this many. The groups only spare
// essential_flags tests (the records are the same however the cells are grouped); 4 of them made
// its longest launch the shortest on two GPUs of 1, 2, 4, 16 and 64 (docs/scaling.md, session 22).
constexpr std::size_t kFineCells = 256, kSuperCells = 4, kCellRoom = 8192;
// domain_drops' work-groups (DROPS_WG and DROPS_PER_ITEM in kernels/nbody_tree.cl), the pairs each
// takes and the ints of its partial table (2 * PREFIXES); domain_drops_finish's one work-group.
constexpr std::size_t kDropsWg = 256, kDropsPerGroup = kDropsWg * 64, kDropsPartialInts = 192;
constexpr std::size_t kDropsFinishWg = 128;

// Bytes a part takes in a pinned staging area: parts start 256-byte aligned.
constexpr std::size_t stagingRoom(std::size_t bytes) {
    return (bytes + 255) / 256 * 256;
}

// Words of one bit a body for group starts at n bodies, with one more for the end (n itself).
std::size_t startWords(std::size_t n) {
    return n / 32 + 1;
}

// The far field's expansion coefficients per work-item (FAR_COEFFS) for its order (FAR_ORDER).
int farCoeffs(int order) {
    return order == 4 ? 35 : 20;
}

// TreeForceOptions::thetaFar's range, for the options and setThetaFar alike.
void checkThetaFar(float thetaFar) {
    if (!(thetaFar >= 0 && thetaFar < 1))
        throw Error("tree far-field angle must be in [0, 1) (0: off), got " +
                    std::to_string(thetaFar));
}

// bounds_partial's work-groups: enough per compute unit to keep the device's memory busy (a fixed
// 64 left most of it idle at millions of bodies; docs/benchmarks.md, issue 31: the build and the
// step beyond the walk), at most kBoxGroupsMost (bounds_final reduces their partials alone).
constexpr std::size_t kBoxGroupsPerUnit = 8, kBoxGroupsMost = 1024;

// Walk lists: `list` bodies (16 bytes each) and list / 2 cells (40 bytes each), and the stack.
// With the far field, also the group's expansion coefficients (the work-items' shares are private
// and summed through the list).
std::size_t walkLocalBytes(int stack, int list, bool far, int farOrder) {
    return static_cast<std::size_t>(stack) * 4 + list * 16 + (list / 2) * 40 + 12 +
           (far ? static_cast<std::size_t>(farCoeffs(farOrder)) * 4 + 4 : 0);
}

}  // namespace

struct TreeForce::Kernels {
    long long generation = -1;
    cl::Kernel boundsPartial, boundsFinal, keys, count, scan, scatter, gather, build, moments,
        scatterAcc, scatterRange, scatterRanges, kick, direct, groups, invertOrder, gatherAcc;
    cl::Kernel startCounts, blockPrefix, orderGroups, pieceGroups;  // walk groups in body order
    cl::Kernel count8, scanDigits, scatter8;                        // the sort with 8-bit digits
    // The split build.
    cl::Kernel momentsDomain, momentsAcross, domainCells, cellBoxes, packRoots, graftNodes,
        essential, buildDomain, drops, dropsFinish, gatherWindow, buildAcross, linkAcross,
        graftBodies, essentialFlags, essentialBodies, groupsDomain, groupsListed, graftWalkNodes;
    cl::Kernel walk[2];       // [self guard: softening 0]; walk_body when the body walk is used
    cl::Kernel pieceWalk[2];  // the group walk of a piece's groups in body order (the same [])
};

TreeForce::TreeForce(ComputeContext& cc, TreeForceOptions options)
    : cc_(cc),
      options_(options),
      k_(std::make_unique<Kernels>()),
      ptx_(std::make_unique<InlinePtxBuilds>(cc)) {
    const DeviceInfo& info = cc_.info();
    if (options_.leafSize < 0 || options_.leafSize > 16)
        throw Error("tree leaf size must be 1 .. 16 (0: the walk's default), got " +
                    std::to_string(options_.leafSize));
    if (options_.bodiesPerItem < 1 || options_.bodiesPerItem > 2)
        throw Error("tree bodies per work-item must be 1 or 2, got " +
                    std::to_string(options_.bodiesPerItem));
    const int bodies = options_.groupSize ? options_.groupSize : 128;
    if (bodies < 32 * options_.bodiesPerItem || bodies > 256 * options_.bodiesPerItem ||
        (bodies & (bodies - 1)))
        throw Error("tree group size must be a power of two in " +
                    std::to_string(32 * options_.bodiesPerItem) + " .. " +
                    std::to_string(256 * options_.bodiesPerItem) + ", got " +
                    std::to_string(bodies));
    if (options_.sortTileKeys < 0)
        throw Error("tree sort tile keys must be 0 or more, got " +
                    std::to_string(options_.sortTileKeys));
    if (options_.sortDigitBits != 0 && options_.sortDigitBits != 4 && options_.sortDigitBits != 8)
        throw Error("tree sort digit bits must be 4 or 8 (0: by device and size), got " +
                    std::to_string(options_.sortDigitBits));
    if (options_.sortKeysPerItem < 0 || options_.sortKeysPerItem > 32)
        throw Error("tree sort keys per work-item must be 1 .. 32 (0: the default), got " +
                    std::to_string(options_.sortKeysPerItem));
    const bool nvidiaOptions = info.hasExtension("cl_nv_compiler_options");
    autoRegisterCap_ = options_.walkRegisterCap < 0 && nvidiaOptions;
    if (options_.walkRegisterCap < 0)
        options_.walkRegisterCap = autoRegisterCap_ ? kWalkRegisterCap : 0;
    if (options_.walkRegisterCap != 0 &&
        (options_.walkRegisterCap < 16 || options_.walkRegisterCap > 255 || !nvidiaOptions))
        throw Error(
            "tree walk register cap must be 16 .. 255 on a device whose compiler takes "
            "NVIDIA's options (cl_nv_compiler_options), got " +
            std::to_string(options_.walkRegisterCap) + " on " + info.name);
    if (options_.thetaFar == -1) options_.thetaFar = kTreeDefaultThetaFar;
    checkThetaFar(options_.thetaFar);
    if (options_.farOrder != 3 && options_.farOrder != 4)
        throw Error("tree far-field order must be 3 or 4, got " +
                    std::to_string(options_.farOrder));
    sortKpi_ = options_.sortKeysPerItem ? options_.sortKeysPerItem : kDefaultSortKeysPerItem;
    bpi_ = options_.bodiesPerItem;
    int wg = bodies / bpi_;
    while (wg > 32 && static_cast<std::size_t>(wg) > info.maxWorkGroupSize)
        wg /= 2;
    bodyWalk_ = options_.walk == TreeWalk::Body ||
                (options_.walk == TreeWalk::Auto && info.kind == DeviceKind::Cpu);
    wg_ = wg;
    far_ = options_.thetaFar > 0 && !bodyWalk_;
    stack_ = std::max(options_.stackSize ? options_.stackSize : kWalkStack, wg_ + 256);
    list_ = walkListFor(far_);
    leaf_ = options_.leafSize ? options_.leafSize : bodyWalk_ ? 8 : 4;
}

bool TreeForce::farShapedForSm90(bool far) const {
    return far && options_.farOrder == 3 && wg_ == 128;
}

int TreeForce::walkListFor(bool far) const {
    const DeviceInfo& info = cc_.info();
    const auto bytes = [&](int list) {
        return walkLocalBytes(stack_, list, far, options_.farOrder);
    };
    const int wanted = options_.listSize       ? options_.listSize
                       : farShapedForSm90(far) ? kFarWalkList
                                               : kWalkList;
    int list = std::max(wanted, 2 * wg_);  // also holds a leaf (at most 16 bodies)
    while (bytes(list) > info.localMemBytes && list > 2 * wg_)
        list /= 2;
    if (bytes(list) > info.localMemBytes || info.maxWorkGroupSize < kScanWg)
        throw Error("the Barnes-Hut tree needs " + std::to_string(bytes(list) / 1024) +
                    " KiB of local memory and work-groups of 256; " + info.name + " has " +
                    std::to_string(info.localMemBytes / 1024) + " KiB and " +
                    std::to_string(info.maxWorkGroupSize));
    return list;
}

void TreeForce::setThetaFar(float thetaFar) {
    checkThetaFar(thetaFar);
    const bool far = thetaFar > 0 && !bodyWalk_;
    if (far != far_) {  // the walk's build and lists change: rebuilt at the next pass
        list_ = walkListFor(far);
        far_ = far;
        k_->generation = -1;
    }
    options_.thetaFar = thetaFar;
}

// Pinned host areas, grown as needed (mapped once; unmapped when replaced or released).
struct PinnedArea {
    cl::Buffer buffer;
    void* host = nullptr;
    std::size_t bytes = 0;
    void reserve(ComputeContext& cc, std::size_t want) {
        if (want <= bytes) return;
        release(cc);
        want += want / 4;
        buffer = cl::Buffer(cc.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, want);
        host = cc.queue().enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, want);
        bytes = want;
    }
    void release(ComputeContext& cc) {
        if (host) {
            cc.queue().enqueueUnmapMemObject(buffer, host);
            cc.queue().finish();
        }
        host = nullptr;
        bytes = 0;
        buffer = cl::Buffer();
    }
};

// A buffer's bytes read into a pinned area at `at` (256-byte aligned).
struct StagedRead {
    const cl::Buffer* from;
    std::size_t offset, bytes, at = 0;
};

// Lays `reads` out one after the other (each 256-byte aligned) and grows `area` to hold them
// (a grown area's map waits for the queue: before the pass's first kernel).
void layOutReads(ComputeContext& cc, PinnedArea& area, std::vector<StagedRead>& reads) {
    std::size_t total = 0;
    for (StagedRead& r : reads) {
        r.at = total;
        total += stagingRoom(r.bytes);
    }
    area.reserve(cc, total);
}

// Enqueues `reads` into `area` on q (not blocking) after `after`; `last` completes with the last
// of them.
void enqueueReads(cl::CommandQueue& q, const PinnedArea& area, const std::vector<StagedRead>& reads,
                  const std::vector<cl::Event>& after, cl::Event& last) {
    auto* host = static_cast<char*>(area.host);
    last = cl::Event();
    const std::vector<cl::Event>* wait = after.empty() ? nullptr : &after;
    for (const StagedRead& r : reads)
        if (r.bytes) {
            q.enqueueReadBuffer(*r.from, CL_FALSE, r.offset, r.bytes, host + r.at, wait, &last);
            wait = nullptr;  // in order after the first
        }
    if (!last()) q.enqueueMarkerWithWaitList(wait, &last);
    q.flush();
}

struct TreeForce::SplitHost {
    PinnedArea index[2];                    // by pass parity
    std::vector<PinnedArea> nodes, bodies;  // by slot
    PinnedArea share;                       // domainShare()'s reads
    PinnedArea roots;                       // domainRoots()'s reads
    std::vector<StagedRead> shareReads, rootReads;
    cl::Event shareRead, rootsRead;  // the last of each
    PinnedArea graft;                // graftDomains()'s small writes
    PinnedArea across;               // buildAcross()'s tables in, records out
    PinnedArea cells;                // essentialFor()'s cells in
    PinnedArea counts;               // and each domain's counts out
};

TreeForce::~TreeForce() {
    if (splitHost_) {
        try {
            for (PinnedArea& a : splitHost_->index)
                a.release(cc_);
            for (PinnedArea& a : splitHost_->nodes)
                a.release(cc_);
            for (PinnedArea& a : splitHost_->bodies)
                a.release(cc_);
            splitHost_->share.release(cc_);
            splitHost_->roots.release(cc_);
            splitHost_->graft.release(cc_);
            splitHost_->across.release(cc_);
            splitHost_->cells.release(cc_);
            splitHost_->counts.release(cc_);
        } catch (const cl::Error&) {
        }
    }
    if (sampleHost_ == nullptr) return;
    try {  // enqueued behind a read still in flight; never waits
        cc_.queue().enqueueUnmapMemObject(sampleStaging_, sampleHost_);
        cc_.queue().flush();
    } catch (const cl::Error&) {
    }
}

void TreeForce::setTheta(float theta) {
    if (!(theta >= 0 && theta <= 2))
        throw Error("theta must be in [0, 2], got " + std::to_string(theta));
    theta_ = theta;
}

std::size_t TreeForce::bytesPerBody() const {
    // keys x2, index x2, sorted, sortedAcc, children, ranges, parents x2, visits, com, quadrupole
    // (16 + 8), lo, hi, crit, walk stats and walk groups (8 + 8: at most one group per body),
    // the groups in body order where a domain is walked in pieces (8; their start bits and
    // prefix counts round up to 1 more)
    return 2 * 8 + 2 * 4 + 16 + 16 + 8 + 8 + 4 + 4 + 4 + 16 + 24 + 16 + 16 + 4 + 8 + 8 + 8 + 1;
}

void TreeForce::reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (n > kMaxBodies)
        throw Error("tree: " + std::to_string(n) + " bodies is more than the limit of " +
                    std::to_string(kMaxBodies));
    // Grow with headroom so that slowly growing N does not reallocate every step.
    const std::size_t cap = std::min(kMaxBodies, std::max<std::size_t>(n + n / 8, 1024));
    const auto& ctx = cc_.context();
    auto make = [&](std::size_t bytes) { return cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes); };
    try {
        releaseBuffers();
        partials_ = make(2 * kBoxGroupsMost * 16);  // a min and a max corner per group
        box_ = make(2 * 16);
        for (int b = 0; b < 2; ++b) {
            keys_[b] = make(cap * 8);
            index_[b] = make(cap * 4);
        }
        counts_ = make((256 * kMaxSortTiles + 256) * 4);  // 8-bit digits: and their totals
        countsNext_ = make(16 * kMaxSortTiles * 4);
        countsThird_ = make(16 * kMaxSortTiles * 4);
        sorted_ = make(cap * 16);
        sortedAcc_ = make(cap * 16);
        packedAcc_ = make(cap * 12);
        children_ = make(cap * 8);
        ranges_ = make(cap * 8);
        nodeParent_ = make(cap * 4);
        leafParent_ = make(cap * 4);
        visits_ = make(cap * 4);
        nodeCom_ = make(cap * 16);
        nodeQa_ = make(cap * 16);
        nodeQb_ = make(cap * 8);
        walkStats_ = make(cap * 8);  // one int2 per walk group (at most one per body)
        groups_ = make(cap * 8);
        nodeLo_ = make(cap * 16);
        nodeHi_ = make(cap * 16);
        crit_ = make(cap * 4);
        // walk fallbacks, walk groups, next group, a piece's end group (piece_groups)
        counters_ = make(4 * 4);
        sampleOut_ = make(kMaxSamples * 32);
        // Allocation is lazy on most drivers: touch the largest buffers now so that a device too
        // small fails here, with a message, rather than in the middle of a step.
        const int zero = 0;
        cc_.queue().enqueueFillBuffer(nodeCom_, zero, 0, cap * 16);
        cc_.queue().enqueueFillBuffer(keys_[1], zero, 0, cap * 8);
        cc_.queue().finish();
    } catch (const cl::Error& e) {
        releaseBuffers();
        capacity_ = 0;
        throwClError("tree: cannot allocate " + std::to_string(cap * bytesPerBody() >> 20) +
                         " MiB of work buffers for " + std::to_string(n) + " bodies",
                     e);
    }
    capacity_ = cap;
}

void TreeForce::reserveGroupOrder() {
    if (groupOrderCapacity_ >= capacity_) return;
    const auto& ctx = cc_.context();
    auto make = [&](std::size_t bytes) { return cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes); };
    const std::size_t words = startWords(capacity_);
    groupStarts_ = make(words * 4);
    startsBefore_ = make(words * 4);
    startsBlocks_ = make((words / kOrderWg + 1) * 4);
    groupsInOrder_ = make(capacity_ * 8);
    groupOrderCapacity_ = capacity_;
}

void TreeForce::releaseBuffers() {
    partials_ = box_ = counts_ = countsNext_ = countsThird_ = sorted_ = sortedAcc_ = packedAcc_ =
        children_ = ranges_ = nodeParent_ = leafParent_ = visits_ = nodeCom_ = nodeQa_ = nodeQb_ =
            walkStats_ = groups_ = nodeLo_ = nodeHi_ = crit_ = counters_ = sampleOut_ =
                groupStarts_ = startsBefore_ = startsBlocks_ = groupsInOrder_ = cl::Buffer();
    groupOrderCapacity_ = 0;
    for (int b = 0; b < 2; ++b)
        keys_[b] = index_[b] = cl::Buffer();
}

void TreeForce::refreshKernels() {
    ProgramCache& programs = cc_.programs();
    if (k_->generation == programs.generation()) return;
    const std::string base =
        "-DWG=" + std::to_string(wg_) + " -DBPI=" + std::to_string(bpi_) +
        " -DSTACK=" + std::to_string(stack_) + " -DLIST=" + std::to_string(list_) +
        " -DCELLS=" + std::to_string(list_ / 2) + " -DLEAF=" + std::to_string(leaf_) +
        // The launches' fixed sizes: the kernels compile them in.
        " -DSORT_WG=" + std::to_string(kSortWg) + " -DSCAN_WG=" + std::to_string(kScanWg) +
        " -DREDUCE_WG=" + std::to_string(kReduceWg) +
        " -DKEY_BITS=" + std::to_string(kTreeKeyBits) + " -DSORT_KPI=" + std::to_string(sortKpi_);
    Kernels k;
    k.boundsPartial = programs.kernel(kFile, "bounds_partial", base);
    k.boundsFinal = programs.kernel(kFile, "bounds_final", base);
    k.keys = programs.kernel(kFile, "morton_keys", base);
    k.count = programs.kernel(kFile, "radix_count", base);
    k.scan = programs.kernel(kFile, "radix_scan", base);
    k.scatter =
        programs.kernel(kFile, sortKpi_ > 1 ? "radix_scatter_chunks" : "radix_scatter", base);
    k.count8 = programs.kernel(kFile, "radix_count8", base);
    k.scanDigits = programs.kernel(kFile, "radix_scan_digits", base);
    k.scatter8 = programs.kernel(kFile, "radix_scatter8", base);
    k.gather = programs.kernel(kFile, "gather_sorted", base);
    k.build = programs.kernel(kFile, "build_radix_tree", base);
    // With NVIDIA's inline PTX: the climb's device-scope fences (kernels/common/device_fence.clh).
    k.moments = ptx_->kernel(kFile, "moments", base);
    k.momentsDomain = ptx_->kernel(kFile, "moments_domain", base);
    k.momentsAcross = ptx_->kernel(kFile, "moments_across", base);
    k.domainCells = programs.kernel(kFile, "domain_cells", base);
    k.cellBoxes = programs.kernel(kFile, "cell_boxes", base);
    k.packRoots = programs.kernel(kFile, "pack_domain_roots", base);
    k.buildDomain = programs.kernel(kFile, "build_domain_tree", base);
    k.drops = programs.kernel(kFile, "domain_drops", base);
    k.dropsFinish = programs.kernel(kFile, "domain_drops_finish", base);
    k.gatherWindow = programs.kernel(kFile, "gather_window", base);
    k.buildAcross = programs.kernel(kFile, "build_across", base);
    k.linkAcross = programs.kernel(kFile, "link_across", base);
    k.graftBodies = programs.kernel(kFile, "graft_bodies", base);
    k.essentialFlags = programs.kernel(kFile, "essential_flags", base);
    k.graftWalkNodes = programs.kernel(kFile, "graft_walk_nodes", base);
    k.essentialBodies = programs.kernel(kFile, "essential_bodies", base);
    k.groupsDomain = programs.kernel(kFile, "find_groups_domain", base);
    k.groupsListed = programs.kernel(kFile, "find_groups_listed", base);
    k.graftNodes = programs.kernel(kFile, "graft_nodes", base);
    k.essential = programs.kernel(kFile, "essential_nodes", base);
    k.scatterAcc = programs.kernel(kFile, "scatter_accelerations", base);
    k.scatterRange = programs.kernel(kFile, "scatter_accelerations", base);  // scatterSortedRange
    k.scatterRanges = programs.kernel(kFile, "scatter_accelerations_ranges", base);
    k.kick = programs.kernel(kFile, "kick_velocities", base);
    k.invertOrder = programs.kernel(kFile, "invert_order", base);
    k.gatherAcc = programs.kernel(kFile, "gather_accelerations", base);
    k.direct = programs.kernel(kFile, "direct_sample", base);
    k.groups = programs.kernel(kFile, "find_groups", base);
    k.startCounts = programs.kernel(kFile, "group_start_counts", base);
    k.blockPrefix = programs.kernel(kFile, "group_block_prefix", base);
    k.orderGroups = programs.kernel(kFile, "order_groups", base);
    k.pieceGroups = programs.kernel(kFile, "piece_groups", base);
    const char* walk = bodyWalk_ ? "walk_body" : "walk";
    // The walks' rsqrt: NVIDIA's flush-to-zero form where the compiler takes inline PTX
    // (common/gravity.clh), as the all-pairs kernels use.
    if (autoRegisterCap_) options_.walkRegisterCap = far_ ? kFarWalkRegisterCap : kWalkRegisterCap;
    const std::string walkOptions =
        base +
        (options_.walkRegisterCap && !bodyWalk_ ? " -DWALK_REGISTER_CAP -cl-nv-maxrregcount=" +
                                                      std::to_string(options_.walkRegisterCap)
                                                : std::string()) +
        (far_ ? " -DFAR_FIELD -DFAR_ORDER=" + std::to_string(options_.farOrder) : std::string());
    k.walk[0] = ptx_->kernel(kFile, walk, walkOptions);
    k.walk[1] = ptx_->kernel(kFile, walk, walkOptions + " -DSELF_GUARD");
    if (!bodyWalk_) {  // built apart, so that the whole walk's code stays as it was
        k.pieceWalk[0] = ptx_->kernel(kFile, walk, walkOptions + " -DWALK_IN_BODY_ORDER");
        k.pieceWalk[1] =
            ptx_->kernel(kFile, walk, walkOptions + " -DWALK_IN_BODY_ORDER -DSELF_GUARD");
    }
    k.generation = programs.generation();
    *k_ = std::move(k);
}

void TreeForce::enqueueSort(std::size_t n) {
    auto& q = cc_.queue();
    // Enough tiles to fill the device once (kTilesPerUnit work-groups of kSortWg per compute unit),
    // up to kSortTilesMost: more only lengthen the one-work-group scan of their counts.
    std::size_t tilesWanted = std::clamp<std::size_t>(
        static_cast<std::size_t>(std::max(1u, cc_.info().computeUnits)) * kTilesPerUnit, 1,
        std::min(kSortTilesMost, kMaxSortTiles));
    if (options_.sortTileKeys > 0)
        tilesWanted = std::clamp<std::size_t>(n / static_cast<std::size_t>(options_.sortTileKeys),
                                              1, tilesWanted);
    const std::size_t itemsPerTile =
        std::max<std::size_t>(1, (n + kSortWg * tilesWanted - 1) / (kSortWg * tilesWanted));
    const int tileKeys = static_cast<int>(kSortWg * itemsPerTile);
    const int tiles = static_cast<int>((n + tileKeys - 1) / tileKeys);
    const int ni = static_cast<int>(n);
    const int digitBits = options_.sortDigitBits ? options_.sortDigitBits
                          : cc_.info().kind != DeviceKind::Cpu && n <= kWideSortMostKeys ? 8
                                                                                         : 4;
    const bool wide = digitBits == 8;
    const bool chunks = !wide && sortKpi_ > 1;
    // radix_scatter_chunks counts the next pass's digits as it writes (into another counts
    // buffer, zeroed before), so only the first pass launches a count; and each of its
    // work-groups finds its own bases in this pass's raw counts, so no scan runs either. Three
    // counts buffers in turn: the pass reads one, adds into the next and zeroes the third, which
    // the pass before read.
    const bool fused = chunks && options_.sortCountInScatter;
    cl::Kernel& count = wide ? k_->count8 : k_->count;
    cl::Kernel& scatter = wide ? k_->scatter8 : k_->scatter;
    cl::Buffer* ring[3] = {&counts_, &countsNext_, &countsThird_};
    // As many passes as the key has bits (3 * kTreeKeyBits = 63: 16 of 4 bits or 8 of 8).
    const int keyBits = 3 * kTreeKeyBits;
    int in = 0;
    for (int shift = 0, pass = 0; shift < keyBits; shift += digitBits, in ^= 1, ++pass) {
        cl::Buffer& counts = fused ? *ring[pass % 3] : counts_;  // this pass's, scanned or raw
        cl::Buffer& next = *ring[(pass + 1) % 3];                // the next pass's, when fused
        const auto launch = [&](cl::Kernel& k, std::size_t global, std::size_t local) {
            cl::Event e;
            q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(local),
                                   nullptr, &e);
            recordLaunch("tree-sort", e, k);
        };
        if (wide) {
            setArgs(count, keys_[in], ni, shift, tileKeys, counts, tiles);
            launch(count, tiles * kSortWg, kSortWg);
        } else if (!fused || shift == 0) {
            setArgs(count, keys_[in], ni, shift, tileKeys, counts, tiles, next,
                    fused ? 16 * tiles : 0);
            launch(count, tiles * kSortWg, kSortWg);
        }
        if (wide) {  // one work-group per digit
            setArgs(k_->scanDigits, counts, tiles);
            launch(k_->scanDigits, 256 * kScanWg, kScanWg);
        } else if (!fused) {
            setArgs(k_->scan, counts, 16 * tiles);
            launch(k_->scan, kScanWg, kScanWg);
        }
        if (chunks)
            setArgs(scatter, keys_[in], index_[in], keys_[in ^ 1], index_[in ^ 1], ni, shift,
                    tileKeys, counts, tiles, next,
                    fused && shift + digitBits < keyBits ? shift + digitBits : -1, fused ? 1 : 0,
                    *ring[(pass + 2) % 3]);
        else
            setArgs(scatter, keys_[in], index_[in], keys_[in ^ 1], index_[in ^ 1], ni, shift,
                    tileKeys, counts, tiles);
        launch(scatter, tiles * kSortWg, kSortWg);
    }
    sortedBuffer_ = in;  // an even number of passes: back in buffer 0
}

void TreeForce::compute(const cl::Buffer& pos, std::size_t n, float softening,
                        const cl::Buffer& acc, const cl::Buffer* vel, float kick) {
    enqueue(pos, n, softening, acc, vel, kick, 0, n);
}

void TreeForce::computeShare(const cl::Buffer& pos, std::size_t n, float softening,
                             const cl::Buffer& acc, std::size_t begin, std::size_t count) {
    if (begin > n || count > n - begin)
        throw Error("tree: share " + std::to_string(begin) + " + " + std::to_string(count) +
                    " is not within " + std::to_string(n) + " bodies");
    enqueue(pos, n, softening, acc, nullptr, 0, begin, begin + count);
}

void TreeForce::computeShareSorted(const cl::Buffer& pos, std::size_t n, float softening,
                                   std::size_t begin, std::size_t count) {
    if (begin > n || count > n - begin)
        throw Error("tree: share " + std::to_string(begin) + " + " + std::to_string(count) +
                    " is not within " + std::to_string(n) + " bodies");
    enqueue(pos, n, softening, sortedAcc_, nullptr, 0, begin, begin + count, false);
}

void TreeForce::buildShareSorted(const cl::Buffer& pos, std::size_t n, float softening) {
    enqueue(pos, n, softening, sortedAcc_, nullptr, 0, 0, n, false, false);
    clBoundary("Barnes-Hut tree: preparing the walk's pieces failed", [&] { preparePieces(); });
    pieceSoftening_ = softening;
    if (!bodyWalk_) enqueueGroupOrder(n);
    groupsOrdered_ = !bodyWalk_;
    builtForPieces_ = true;
}

cl::Event TreeForce::walkSortedPiece(std::size_t begin, std::size_t count) {
    if (!lastN_) throw Error("tree: no tree built to walk");
    if (begin > lastN_ || count > lastN_ - begin)
        throw Error("tree: piece " + std::to_string(begin) + " + " + std::to_string(count) +
                    " is not within " + std::to_string(lastN_) + " bodies");
    if (!bodyWalk_ && !groupsOrdered_)
        throw Error("tree: a piece is walked after buildShareSorted(), not after another pass");
    if (count) {
        piecesLo_ = std::min(piecesLo_, begin);
        piecesHi_ = std::max(piecesHi_, begin + count);
    }
    return clBoundary("Barnes-Hut tree: walking a piece of the domain failed", [&] {
        if (bodyWalk_)  // one work-item per body: the share bounds alone say which to walk
            return enqueueWalk(lastN_, pieceSoftening_, begin, begin + count, false);
        // The piece's run of groups in body order, into the counters its walk takes them from,
        // on the two queues in turn: the second's pieces wait for what came before the first.
        auto& q = cc_.queue();
        if (!piecesFrom_()) q.enqueueMarkerWithWaitList(nullptr, &piecesFrom_);
        const int slot = piecesWalked_++ % 2;
        cl::CommandQueue& on = slot ? pieceQueue_ : q;
        const std::vector<cl::Event> after = {piecesFrom_};
        setArgs(k_->pieceGroups, groupStarts_, startsBefore_, startsBlocks_,
                static_cast<int>(begin), static_cast<int>(begin + count), pieceCounters_[slot]);
        cl::Event grouped;
        on.enqueueNDRangeKernel(k_->pieceGroups, cl::NullRange, cl::NDRange(1), cl::NDRange(1),
                                slot ? &after : nullptr, &grouped);
        recordLaunch("tree-walk", grouped, k_->pieceGroups);
        cl::Event walked = enqueueWalk(lastN_, pieceSoftening_, begin, begin + count, false, true,
                                       &on, &pieceCounters_[slot]);
        if (slot) {
            pieceWalks_.push_back(walked);
            on.flush();
        }
        return walked;
    });
}

void TreeForce::recordLaunch(const std::string& stage, const cl::Event& e, const cl::Kernel& k) {
    events_.emplace_back(stage, e);
    commandNames_.note(e, k);
}

std::vector<cl::Event> TreeForce::afterLastCommand() const {
    return {events_.back().second};
}

void TreeForce::enqueueStage(cl::Kernel& k, std::size_t global, std::size_t local,
                             const char* stage) {
    cl::Event e;
    cc_.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(roundUp(global, local)),
                                     cl::NDRange(local), nullptr, &e);
    recordLaunch(stage, e, k);
}

void TreeForce::enqueueBoxAndKeys(const cl::Buffer& pos, std::size_t n, int into) {
    const int ni = static_cast<int>(n);
    const std::size_t reduceGroups = std::clamp<std::size_t>(
        std::min(static_cast<std::size_t>(cc_.info().computeUnits) * kBoxGroupsPerUnit,
                 (n + kReduceWg - 1) / kReduceWg),
        1, kBoxGroupsMost);
    setArgs(k_->boundsPartial, pos, ni, partials_);
    enqueueStage(k_->boundsPartial, reduceGroups * kReduceWg, kReduceWg, "tree-box");
    setArgs(k_->boundsFinal, partials_, static_cast<int>(reduceGroups), box_);
    enqueueStage(k_->boundsFinal, kReduceWg, kReduceWg, "tree-box");
    setArgs(k_->keys, pos, ni, box_, keys_[into], index_[into], counters_);
    enqueueStage(k_->keys, n, kElementWg, "tree-keys");
}

void TreeForce::enqueueGroupOrder(std::size_t n) {
    const std::size_t words = startWords(n), blocks = (words + kOrderWg - 1) / kOrderWg;
    setArgs(k_->startCounts, groupStarts_, static_cast<int>(words), startsBefore_, startsBlocks_);
    enqueueStage(k_->startCounts, words, kOrderWg, "tree-walk");
    setArgs(k_->blockPrefix, startsBlocks_, static_cast<int>(blocks));
    enqueueStage(k_->blockPrefix, kOrderWg, kOrderWg, "tree-walk");
    setArgs(k_->orderGroups, groups_, counters_, groupStarts_, startsBefore_, startsBlocks_,
            groupsInOrder_);
    enqueueStage(k_->orderGroups, n, kElementWg, "tree-walk");  // at most one group per body
}

cl::Event TreeForce::enqueueWalk(std::size_t n, float softening, std::size_t shareBegin,
                                 std::size_t shareEnd, bool writeOthers, bool inOrder,
                                 cl::CommandQueue* on, const cl::Buffer* counters,
                                 const std::vector<cl::Event>* after) {
    // Group walk: persistent work-groups that take walk groups from a counter, enough to fill the
    // device. Body walk: one work-item per body.
    const std::size_t maxGroups = n;  // a walk group holds at least one body
    const std::size_t resident =
        static_cast<std::size_t>(std::max(1u, cc_.info().computeUnits)) * kResidentPerUnit;
    const std::size_t launch = std::min(maxGroups, resident);
    cl::Kernel& walk = (inOrder ? k_->pieceWalk : k_->walk)[softening == 0 ? 1 : 0];
    setArgs(walk, sorted_, static_cast<int>(n), children_, ranges_, nodeCom_, nodeQa_, nodeQb_,
            crit_, softening * softening, inOrder ? groupsInOrder_ : groups_, sortedAcc_,
            counters ? *counters : counters_, walkStats_, static_cast<int>(shareBegin),
            static_cast<int>(shareEnd), writeOthers ? 1 : 0, nodeLo_,
            far_ ? options_.thetaFar : 0.0f);
    if (inOrder || bodyWalk_) walk.setArg(kWalkPackedArg, packedAcc_);
    const std::size_t local = bodyWalk_ ? kElementWg : static_cast<std::size_t>(wg_);
    const std::size_t global = bodyWalk_ ? roundUp(n, kElementWg) : launch * local;
    cl::Event e;
    (on ? *on : cc_.queue())
        .enqueueNDRangeKernel(walk, cl::NullRange, cl::NDRange(global), cl::NDRange(local), after,
                              &e);
    recordLaunch("tree-walk", e, walk);
    return e;
}

void TreeForce::preparePieces() {
    piecesWalked_ = 0;
    piecesLo_ = lastN_;
    piecesHi_ = 0;
    piecesFrom_ = cl::Event();
    if (bodyWalk_) return;  // one work-item a body: the share bounds alone, on one queue
    if (!pieceQueue_())
        pieceQueue_ = cl::CommandQueue(cc_.context(), cc_.device(), CL_QUEUE_PROFILING_ENABLE);
    for (cl::Buffer& c : pieceCounters_) {
        if (!c()) c = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, 4 * 4);
        cc_.queue().enqueueFillBuffer(c, cl_int(0), 0, 4 * 4);  // the fallbacks count from 0
    }
}

void TreeForce::joinPieces() {
    piecesFrom_ = cl::Event();
    if (pieceWalks_.empty()) return;
    clBoundary("Barnes-Hut tree: waiting for the walk's pieces failed", [&] {
        cc_.queue().enqueueBarrierWithWaitList(&pieceWalks_);
        pieceWalks_.clear();
    });
}

cl::Event TreeForce::scatterSorted(const cl::Buffer& acc, const cl::Buffer* vel, float kick) {
    if (!lastN_) throw Error("tree: no force pass to scatter");
    joinPieces();  // every piece walked is in
    return scatterSortedRange(acc, 0, lastN_, cc_.queue(), {}, vel, kick);
}

cl::Event TreeForce::scatterSortedRange(const cl::Buffer& acc, std::size_t begin, std::size_t count,
                                        cl::CommandQueue& queue,
                                        const std::vector<cl::Event>& after, const cl::Buffer* vel,
                                        float kick) {
    if (!lastN_) throw Error("tree: no force pass to scatter");
    if (begin + count > lastN_)
        throw Error("tree: bodies " + std::to_string(begin) + " + " + std::to_string(count) +
                    " to scatter, of " + std::to_string(lastN_));
    return clBoundary("Barnes-Hut tree: returning the accelerations to the body order failed", [&] {
        const std::vector<cl::Event> wait = withOrderWaits(after);
        cl::Event e;
        if (!count) {
            queue.enqueueMarkerWithWaitList(wait.empty() ? nullptr : &wait, &e);
            return e;
        }
        const auto [ownLo, ownHi] = ownSortedAccelerations();
        setArgs(k_->scatterRange, sortedAcc_, lastOrder(), static_cast<int>(begin + count), acc,
                vel ? *vel : acc, vel ? kick : 0.0f, packedAcc_, ownLo, ownHi);
        // A work-group size of our own: left to the driver, it must divide the count, which for
        // an awkward count (a prime) can leave groups of one. The kernel stops at begin + count.
        queue.enqueueNDRangeKernel(k_->scatterRange, cl::NDRange(begin),
                                   cl::NDRange(roundUp(count, kElementWg)), cl::NDRange(kElementWg),
                                   wait.empty() ? nullptr : &wait, &e);
        commandNames_.note(e, k_->scatterRange);
        return e;
    });
}

cl::Event TreeForce::scatterSortedRanges(const cl::Buffer& acc,
                                         const std::vector<SortedRange>& ranges,
                                         cl::CommandQueue& queue,
                                         const std::vector<cl::Event>& after, const cl::Buffer* vel,
                                         float kick) {
    if (!lastN_) throw Error("tree: no force pass to scatter");
    if (ranges.size() > kMostScatterRanges)
        throw Error("tree: at most " + std::to_string(kMostScatterRanges) +
                    " ranges of bodies can be scattered at once, not " +
                    std::to_string(ranges.size()));
    cl_int8 begins{}, firsts{};
    std::size_t total = 0;
    for (std::size_t k = 0; k < kMostScatterRanges; ++k) {
        if (k < ranges.size()) {
            const SortedRange& r = ranges[k];
            if (r.begin > lastN_ || r.count > lastN_ - r.begin)
                throw Error("tree: bodies " + std::to_string(r.begin) + " + " +
                            std::to_string(r.count) + " to scatter, of " + std::to_string(lastN_));
            begins.s[k] = static_cast<cl_int>(r.begin);
            firsts.s[k] = static_cast<cl_int>(total);
            total += r.count;
        } else {
            firsts.s[k] = std::numeric_limits<cl_int>::max();  // never reached
        }
    }
    std::vector<SortedRange> byBegin;  // a body kicked twice would be wrong
    std::copy_if(ranges.begin(), ranges.end(), std::back_inserter(byBegin),
                 [](const SortedRange& r) { return r.count > 0; });
    std::sort(byBegin.begin(), byBegin.end(),
              [](const SortedRange& a, const SortedRange& b) { return a.begin < b.begin; });
    for (std::size_t k = 1; k < byBegin.size(); ++k)
        if (byBegin[k - 1].begin + byBegin[k - 1].count > byBegin[k].begin)
            throw Error("tree: ranges of bodies to scatter overlap at body " +
                        std::to_string(byBegin[k].begin));
    if (ranges.size() == 1)
        return scatterSortedRange(acc, ranges[0].begin, ranges[0].count, queue, after, vel, kick);
    return clBoundary("Barnes-Hut tree: returning the accelerations to the body order failed", [&] {
        const std::vector<cl::Event> wait = withOrderWaits(after);
        cl::Event e;
        if (!total) {
            queue.enqueueMarkerWithWaitList(wait.empty() ? nullptr : &wait, &e);
            return e;
        }
        const auto [ownLo, ownHi] = ownSortedAccelerations();
        setArgs(k_->scatterRanges, sortedAcc_, lastOrder(), static_cast<int>(total), begins, firsts,
                acc, vel ? *vel : acc, vel ? kick : 0.0f, packedAcc_, ownLo, ownHi);
        queue.enqueueNDRangeKernel(k_->scatterRanges, cl::NullRange,
                                   cl::NDRange(roundUp(total, kElementWg)), cl::NDRange(kElementWg),
                                   wait.empty() ? nullptr : &wait, &e);
        commandNames_.note(e, k_->scatterRanges);
        return e;
    });
}

void TreeForce::takeSlicesPacked(std::size_t begin, std::size_t count) {
    if (!lastN_ || begin > lastN_ || count > lastN_ - begin)
        throw Error("tree: own accelerations " + std::to_string(begin) + " + " +
                    std::to_string(count) + " are not within the last pass's " +
                    std::to_string(lastN_) + " bodies");
    if (!builtForPieces_)
        throw Error("tree: only a pass walked in pieces writes its accelerations packed");
    packedOthers_ = true;
    ownBegin_ = begin;
    ownCount_ = count;
}

std::pair<int, int> TreeForce::ownSortedAccelerations() const {
    if (!packedOthers_) return {0, static_cast<int>(lastN_)};
    return {static_cast<int>(ownBegin_), static_cast<int>(ownBegin_ + ownCount_)};
}

void TreeForce::invertOrder(cl::CommandQueue& queue) {
    if (!lastN_) throw Error("tree: no force pass to invert the order of");
    clBoundary("Barnes-Hut tree: finding every body's sorted place failed", [&] {
        const std::vector<cl::Event> after = withOrderWaits({});
        fitBuffer(rank_, lastN_ * 4);
        setArgs(k_->invertOrder, lastOrder(), static_cast<int>(lastN_), rank_);
        queue.enqueueNDRangeKernel(
            k_->invertOrder, cl::NullRange, cl::NDRange(roundUp(lastN_, kElementWg)),
            cl::NDRange(kElementWg), after.empty() ? nullptr : &after, &rankReady_);
        recordLaunch("tree-scatter", rankReady_, k_->invertOrder);
    });
}

cl::Event TreeForce::gatherSorted(const cl::Buffer& acc, cl::CommandQueue& queue,
                                  const std::vector<cl::Event>& after, const cl::Buffer* vel,
                                  float kick, const std::vector<SortedRange>& skip) {
    if (!lastN_) throw Error("tree: no force pass to gather");
    if (skip.size() > kMostGatherSkips)
        throw Error("tree: at most " + std::to_string(kMostGatherSkips) +
                    " ranges of bodies can be left out of a gather, not " +
                    std::to_string(skip.size()));
    cl_int8 skipLo{}, skipHi{};
    for (std::size_t k = 0; k < skip.size(); ++k) {
        if (skip[k].begin + skip[k].count > lastN_)
            throw Error("tree: bodies " + std::to_string(skip[k].begin) + " + " +
                        std::to_string(skip[k].count) + " to leave out, of " +
                        std::to_string(lastN_));
        skipLo.s[k] = static_cast<cl_int>(skip[k].begin);
        skipHi.s[k] = static_cast<cl_int>(skip[k].begin + skip[k].count);
    }
    return clBoundary("Barnes-Hut tree: returning the accelerations to the body order failed", [&] {
        if (!rankReady_()) invertOrder(queue);  // not inverted after the walk: here
        std::vector<cl::Event> wait = after;
        wait.push_back(rankReady_);
        const auto [ownLo, ownHi] = ownSortedAccelerations();
        setArgs(k_->gatherAcc, sortedAcc_, rank_, static_cast<int>(lastN_), acc, vel ? *vel : acc,
                vel ? kick : 0.0f, skipLo, skipHi, packedAcc_, ownLo, ownHi);
        cl::Event e;
        queue.enqueueNDRangeKernel(k_->gatherAcc, cl::NullRange,
                                   cl::NDRange(roundUp(lastN_, kElementWg)),
                                   cl::NDRange(kElementWg), &wait, &e);
        commandNames_.note(e, k_->gatherAcc);
        return e;
    });
}

std::vector<cl::Event> TreeForce::withOrderWaits(const std::vector<cl::Event>& after) const {
    std::vector<cl::Event> wait = after;
    if (const auto* order = lastOrderWaits()) wait.insert(wait.end(), order->begin(), order->end());
    return wait;
}

const std::vector<cl::Event>* TreeForce::lastOrderWaits() const {
    return domainBuilt_ && !indexWrites_.empty() ? &indexWrites_ : nullptr;
}

const cl::Buffer& TreeForce::lastOrder() const {
    if (!lastN_) throw Error("tree: no force pass to take the order of");
    return domainBuilt_ ? globalIndex_ : index_[sortedBuffer_];
}

cl::Event TreeForce::gatherInLastOrder(const cl::Buffer& from, const cl::Buffer& into) {
    const cl::Buffer& order = lastOrder();
    return clBoundary("Barnes-Hut tree: gathering into the tree's order failed", [&] {
        setArgs(k_->gather, from, order, static_cast<int>(lastN_), into);
        cl::Event e;
        cc_.queue().enqueueNDRangeKernel(k_->gather, cl::NullRange,
                                         cl::NDRange(roundUp(lastN_, kElementWg)),
                                         cl::NDRange(kElementWg), lastOrderWaits(), &e);
        commandNames_.note(e, k_->gather);
        return e;
    });
}

void TreeForce::enqueue(const cl::Buffer& pos, std::size_t n, float softening,
                        const cl::Buffer& acc, const cl::Buffer* vel, float kick,
                        std::size_t shareBegin, std::size_t shareEnd, bool scatter, bool walk) {
    if (n == 0) throw Error("tree: no bodies");
    joinPieces();  // the last pass's pieces read what this pass writes
    events_.clear();
    commandNames_.clear();
    copies_.clear();
    rankReady_ = cl::Event();
    packedOthers_ = false;
    groupsOrdered_ = false;  // buildShareSorted() orders this pass's groups
    domainBuilt_ = false;
    builtForPieces_ = false;  // buildShareSorted() sets it after this
    clBoundary(
        [&] { return "Barnes-Hut tree force for " + std::to_string(n) + " bodies failed"; },
        [&] {
            refreshKernels();
            reserve(n);
            auto& q = cc_.queue();
            const int ni = static_cast<int>(n);

            enqueueBoxAndKeys(pos, n, 0);

            enqueueSort(n);
            const cl::Buffer& keys = keys_[sortedBuffer_];
            const cl::Buffer& index = index_[sortedBuffer_];

            setArgs(k_->gather, pos, index, ni, sorted_);
            enqueueStage(k_->gather, n, kElementWg, "tree-build");
            if (n > 1) {
                setArgs(k_->build, keys, ni, children_, ranges_, nodeParent_, leafParent_, visits_);
                enqueueStage(k_->build, n - 1, kElementWg, "tree-build");

                setArgs(k_->moments, sorted_, ni, children_, nodeParent_, leafParent_, visits_,
                        nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_, theta_);
                enqueueStage(k_->moments, n, kElementWg, "tree-moments");
            }

            if (!bodyWalk_) {
                // Only a pass walked in pieces (buildShareSorted) marks the groups' starts for
                // their order: a whole walk runs as before, without those buffers.
                const bool order = !walk;
                if (order) {
                    reserveGroupOrder();
                    cl::Event cleared;
                    q.enqueueFillBuffer(groupStarts_, cl_uint(0), 0, startWords(n) * 4, nullptr,
                                        &cleared);
                    events_.emplace_back("tree-walk", cleared);
                }
                setArgs(k_->groups, children_, ranges_, ni, groups_, counters_,
                        order ? groupStarts_ : walkStats_, order ? 1 : 0);  // unread without marks
                enqueueStage(k_->groups, std::max<std::size_t>(n - 1, 1), kElementWg, "tree-walk");
            }
            lastN_ = n;
            if (!walk) return;
            enqueueWalk(n, softening, shareBegin, shareEnd, true);
            if (!scatter) return;
            // The kick in the scatter reads and writes each velocity at a random place (the bodies'
            // order is not the tree's); apart, it reads and writes them in order.
            const bool kickApart = vel && kick != 0 && !options_.kickInScatter;
            setArgs(k_->scatterAcc, sortedAcc_, index, ni, acc, vel ? *vel : acc,
                    vel && !kickApart ? kick : 0.0f, packedAcc_, 0, ni);
            enqueueStage(k_->scatterAcc, n, kElementWg, "tree-walk");
            if (kickApart) {
                setArgs(k_->kick, acc, *vel, ni, kick);
                enqueueStage(k_->kick, n, kElementWg, "tree-kick");
            }
        });
}

TreeStageTimes TreeForce::lastTimes() {
    TreeStageTimes t;
    for (const auto& [stage, ev] : events_) {
        const double ms = eventMilliseconds(ev);
        if (stage == "tree-box")
            t.box += ms;
        else if (stage == "tree-keys")
            t.keys += ms;
        else if (stage == "tree-sort")
            t.sort += ms;
        else if (stage == "tree-build")
            t.build += ms;
        else if (stage == "tree-moments")
            t.moments += ms;
        else
            t.walk += ms;
    }
    return t;
}

std::vector<TreeGroupWalk> TreeForce::lastGroupWalks() {
    int fallbacks = 0;
    return readGroupWalks(fallbacks);
}

std::vector<TreeGroupWalk> TreeForce::readGroupWalks(int& fallbacks) {
    if (!lastN_) return {};
    fallbacks = lastFallbacks();
    int counters[2] = {0, 0};
    cc_.queue().enqueueReadBuffer(counters_, CL_TRUE, 0, sizeof counters, counters);
    const std::size_t groups = static_cast<std::size_t>(counters[1]);
    if (!groups) return {};  // a domain walked in pieces, none of them here (the body walk counts)
    std::vector<int> stats(2 * groups);
    cc_.queue().enqueueReadBuffer(walkStats_, CL_TRUE, 0, stats.size() * 4, stats.data());
    const std::vector<std::pair<int, int>> ranges =
        bodyWalk_ ? std::vector<std::pair<int, int>>{} : readGroupRanges(groups);
    std::vector<TreeGroupWalk> walks(groups);
    for (std::size_t g = 0; g < groups; ++g) {
        const int first = bodyWalk_ ? static_cast<int>(g) : ranges[g].first;
        const int last = bodyWalk_ ? static_cast<int>(g) : ranges[g].second;
        // After a build for pieces only the groups the pieces walked wrote their stats this pass.
        const bool walked = !builtForPieces_ || (last >= static_cast<int>(piecesLo_) &&
                                                 first < static_cast<int>(piecesHi_));
        walks[g] = {last - first + 1, walked ? stats[2 * g] : 0, walked ? stats[2 * g + 1] : 0};
    }
    return walks;
}

std::vector<std::pair<int, int>> TreeForce::readGroupRanges(std::size_t groups) {
    std::vector<int> flat(2 * groups);
    cc_.queue().enqueueReadBuffer(groupsOrdered_ ? groupsInOrder_ : groups_, CL_TRUE, 0,
                                  flat.size() * 4, flat.data());
    std::vector<std::pair<int, int>> out(groups);
    for (std::size_t g = 0; g < groups; ++g)
        out[g] = {flat[2 * g], flat[2 * g + 1]};
    return out;
}

TreeWalkStats TreeForce::lastWalkStats() {
    TreeWalkStats w;
    const std::vector<TreeGroupWalk> walks = readGroupWalks(w.fallbacks);
    if (walks.empty()) return w;
    double summed = 0, iterations = 0;
    for (const TreeGroupWalk& g : walks) {
        summed += double(g.entriesPerBody) * g.bodies;
        iterations += g.iterations;
        w.maxIterations = std::max(w.maxIterations, g.iterations);
        w.maxEntriesPerBody = std::max(w.maxEntriesPerBody, g.entriesPerBody);
    }
    w.groups = static_cast<int>(walks.size());
    w.interactionsPerBody = summed / double(lastN_);
    w.iterationsPerGroup = iterations / double(walks.size());
    return w;
}

int TreeForce::lastFallbacks() {
    if (!lastN_) return 0;
    joinPieces();
    int v = 0;
    cc_.queue().enqueueReadBuffer(counters_, CL_TRUE, 0, sizeof v, &v);
    if (builtForPieces_ && !bodyWalk_)
        for (const cl::Buffer& c : pieceCounters_) {  // the pieces' walks count theirs apart
            int more = 0;
            if (c()) cc_.queue().enqueueReadBuffer(c, CL_TRUE, 0, sizeof more, &more);
            v += more;
        }
    return v;
}

std::vector<unsigned> TreeForce::sortKeys(const std::vector<unsigned long long>& keys) {
    const std::size_t n = keys.size();
    if (n == 0) return {};
    reserve(n);
    refreshKernels();
    auto& q = cc_.queue();
    std::vector<unsigned> index(n);
    for (std::size_t i = 0; i < n; ++i)
        index[i] = static_cast<unsigned>(i);
    q.enqueueWriteBuffer(keys_[0], CL_FALSE, 0, n * 8, keys.data());
    q.enqueueWriteBuffer(index_[0], CL_FALSE, 0, n * 4, index.data());
    events_.clear();
    commandNames_.clear();
    copies_.clear();
    enqueueSort(n);
    q.enqueueReadBuffer(index_[sortedBuffer_], CL_TRUE, 0, n * 4, index.data());
    lastN_ = 0;  // the buffers hold no tree now
    return index;
}

std::vector<std::pair<int, int>> TreeForce::readGroupsInBodyOrder() {
    if (!lastN_ || bodyWalk_ || !groupsOrdered_) return {};
    int groups = 0;
    cc_.queue().enqueueReadBuffer(counters_, CL_TRUE, sizeof(int), sizeof groups, &groups);
    return readGroupRanges(static_cast<std::size_t>(groups));
}

TreeSnapshot TreeForce::readTree() {
    TreeSnapshot s;
    if (!lastN_) return s;
    const std::size_t n = lastN_, inner = n - 1;
    auto& q = cc_.queue();
    s.sortedIndex.resize(n);
    q.enqueueReadBuffer(index_[sortedBuffer_], CL_TRUE, 0, n * 4, s.sortedIndex.data());
    if (!inner) return s;
    std::vector<int> ch(2 * inner), rg(2 * inner);
    s.com.resize(4 * inner);
    q.enqueueReadBuffer(children_, CL_TRUE, 0, inner * 8, ch.data());
    q.enqueueReadBuffer(ranges_, CL_TRUE, 0, inner * 8, rg.data());
    q.enqueueReadBuffer(nodeCom_, CL_TRUE, 0, inner * 16, s.com.data());
    for (std::size_t i = 0; i < inner; ++i) {
        s.children.emplace_back(ch[2 * i], ch[2 * i + 1]);
        s.ranges.emplace_back(rg[2 * i], rg[2 * i + 1]);
    }
    return s;
}

TreeAccuracy TreeForce::accuracy(const cl::Buffer& pos, std::size_t n, float softening,
                                 const cl::Buffer& acc, int samples) {
    beginAccuracy(pos, n, softening, acc, samples);
    if (sampleRead_() != nullptr)
        clBoundary("tree: accuracy sample failed", [&] { sampleRead_.wait(); });
    return pollAccuracy().value_or(TreeAccuracy{});
}

void TreeForce::beginAccuracy(const cl::Buffer& pos, std::size_t n, float softening,
                              const cl::Buffer& acc, int samples) {
    sampleRead_ = cl::Event();
    sampleCount_ = 0;
    if (!n || samples <= 0) return;
    const std::size_t count = std::min<std::size_t>(
        {n, static_cast<std::size_t>(samples), static_cast<std::size_t>(kMaxSamples)});
    clBoundary("tree: accuracy sample failed", [&] {
        refreshKernels();
        reserve(n);
        auto& q = cc_.queue();
        if (sampleHost_ == nullptr) {
            const std::size_t bytes = kMaxSamples * 32;
            sampleStaging_ =
                cl::Buffer(cc_.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
            sampleHost_ = static_cast<float*>(
                q.enqueueMapBuffer(sampleStaging_, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
        }
        // Sample s is body s * n / count (spread evenly), chosen on the device.
        setArgs(k_->direct, pos, static_cast<int>(n), static_cast<int>(count),
                softening * softening, acc, sampleOut_);
        q.enqueueNDRangeKernel(k_->direct, cl::NullRange, cl::NDRange(count * kReduceWg),
                               cl::NDRange(kReduceWg));
        q.enqueueReadBuffer(sampleOut_, CL_FALSE, 0, count * 32, sampleHost_, nullptr,
                            &sampleRead_);
        q.flush();
        sampleCount_ = count;
    });
}

std::optional<TreeAccuracy> TreeForce::pollAccuracy() {
    if (sampleRead_() == nullptr) return std::nullopt;
    const bool done = clBoundary("tree: accuracy sample failed", [&] {
        try {
            return eventComplete(sampleRead_, "tree: the accuracy sample failed on the device");
        } catch (const ClError&) {
            sampleRead_ = cl::Event();  // a failed sample is not polled again
            throw;
        }
    });
    if (!done) return std::nullopt;
    sampleRead_ = cl::Event();
    TreeAccuracy r;
    std::vector<double> errors;
    for (std::size_t s = 0; s < sampleCount_; ++s) {
        const float* d = &sampleHost_[8 * s];
        const float* a = d + 4;
        const double dx = a[0] - d[0], dy = a[1] - d[1], dz = a[2] - d[2];
        const double ref =
            std::sqrt(double(d[0]) * d[0] + double(d[1]) * d[1] + double(d[2]) * d[2]);
        if (ref == 0) continue;
        const double e = std::sqrt(dx * dx + dy * dy + dz * dz) / ref;
        errors.push_back(std::isfinite(e) ? e : INFINITY);
    }
    if (errors.empty()) return r;
    std::sort(errors.begin(), errors.end());
    r.samples = static_cast<int>(errors.size());
    r.median = errors[errors.size() / 2];
    r.p99 = errors[std::min(errors.size() - 1, errors.size() * 99 / 100)];
    r.worst = errors.back();
    return r;
}

// ---- the split build ---------------------------------------------------------------------------

namespace {

// The split build's kernels' counters (kernels/nbody_tree.cl): [1] root records, [2] essential
// nodes, [3] cells, [4] nodes across domains listed, [5] their records, [6] root bodies, [7]
// essential bodies.
constexpr std::size_t kSplitCounters = 8;
// Room for the nodes across domains, the roots and their bodies: at most one node across domains
// a level (63 key bits, 32 of the position) for each domain's ends.
constexpr std::size_t kAcrossPerDomain = 2 * 96 * 2;
constexpr int kTableInts = 4 + 2 * 96;  // TABLE

cl_float4 float4Of(float x, float y, float z, float w) {
    cl_float4 v;
    v.s[0] = x, v.s[1] = y, v.s[2] = z, v.s[3] = w;
    return v;
}

void widen(cl_float4& lo, cl_float4& hi, const cl_float4& l, const cl_float4& h) {
    for (int c = 0; c < 3; ++c) {
        lo.s[c] = std::fmin(lo.s[c], l.s[c]);
        hi.s[c] = std::fmax(hi.s[c], h.s[c]);
    }
}

int intIn(const cl_float4& v, int c) {
    int x;
    std::memcpy(&x, &v.s[c], 4);
    return x;
}

// mayOpenAny's layout (kernels/nbody_tree.cl): the super cells' count, the box around them all,
// each super cell's box and its cells' run, then the cells.
std::vector<cl_float4> cellLayout(
    const std::vector<std::vector<std::pair<cl_float4, cl_float4>>>& supers) {
    constexpr std::size_t kHead = 3;  // the count, the box around every super cell
    std::vector<cl_float4> out(kHead + 3 * supers.size());
    out[0] = float4Of(0, 0, 0, 0);
    const cl_int count = static_cast<cl_int>(supers.size());
    std::memcpy(&out[0].s[0], &count, 4);
    cl_float4 allLo = float4Of(INFINITY, INFINITY, INFINITY, 0);
    cl_float4 allHi = float4Of(-INFINITY, -INFINITY, -INFINITY, 0);
    cl_int first = 0;
    for (std::size_t s = 0; s < supers.size(); ++s) {
        cl_float4 lo = float4Of(INFINITY, INFINITY, INFINITY, 0);
        cl_float4 hi = float4Of(-INFINITY, -INFINITY, -INFINITY, 0);
        for (const auto& [l, h] : supers[s]) {
            widen(lo, hi, l, h);
            out.push_back(l);
            out.push_back(h);
        }
        widen(allLo, allHi, lo, hi);
        cl_float4 run = float4Of(0, 0, 0, 0);
        const cl_int k = static_cast<cl_int>(supers[s].size());
        std::memcpy(&run.s[0], &first, 4);
        std::memcpy(&run.s[1], &k, 4);
        out[kHead + 3 * s] = lo;
        out[kHead + 1 + 3 * s] = hi;
        out[kHead + 2 + 3 * s] = run;
        first += k;
    }
    out[1] = allLo;
    out[2] = allHi;
    return out;
}

}  // namespace

void TreeForce::reserveSplit(std::size_t domains) {
    const auto& ctx = cc_.context();
    auto make = [&](std::size_t bytes) { return cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes); };
    if (!window_) window_ = std::make_unique<TreeWindowSelect>(cc_);
    if (!splitHost_) splitHost_ = std::make_unique<SplitHost>();
    if (!side_()) side_ = cl::CommandQueue(cc_.context(), cc_.device(), CL_QUEUE_PROFILING_ENABLE);
    if (!readsQueue_())
        readsQueue_ = cl::CommandQueue(cc_.context(), cc_.device(), CL_QUEUE_PROFILING_ENABLE);
    splitHost_->index[parity_].reserve(cc_, capacity_ * 4);
    if (splitHost_->nodes.size() < domains) {
        splitHost_->nodes.resize(domains);
        splitHost_->bodies.resize(domains);
    }
    if (!globalIndex_() || globalIndex_.getInfo<CL_MEM_SIZE>() < capacity_ * 4)
        globalIndex_ = make(capacity_ * 4);
    const std::size_t room = kAcrossPerDomain * domains + 64;
    if (splitCapacity_ < room) {
        across_ = make(room * 4);
        acrossRecords_ = make(room * kTreeRecordFloat4s * 16);
        rootRecords_ = make(room * kTreeRecordFloat4s * 16);
        rootBodies_ = make(room * 16 * 8);  // leaf roots and the bodies of roots of <= 16
        splitCapacity_ = room;
    }
    if (!splitCounters_()) {
        splitCounters_ = make(kSplitCounters * 4);
        table_ = make(kTableInts * 4);
        cells_ = make(2 * kCellRoom * 16);
    }
}

std::size_t TreeForce::subBufferAlign() const {
    const auto bits = cc_.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>();
    return std::max<std::size_t>(256, bits / 8);
}

void TreeForce::fitBuffer(cl::Buffer& buffer, std::size_t bytes) {
    if (!buffer() || buffer.getInfo<CL_MEM_SIZE>() < bytes)
        buffer = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, bytes + bytes / 4 + 64);
}

void TreeForce::buildDomainSorted(const cl::Buffer& pos, std::size_t n, float softening,
                                  const std::vector<std::size_t>& bounds, std::size_t domain) {
    if (bounds.size() < 2 || domain + 1 >= bounds.size() || bounds.front() != 0 ||
        bounds.back() != n || !std::is_sorted(bounds.begin(), bounds.end()))
        throw Error("tree: the split build's domains must tile the " + std::to_string(n) +
                    " sorted bodies in order, and domain " + std::to_string(domain) +
                    " must be one of them");
    if (n == 0) throw Error("tree: no bodies");
    bounds_ = bounds;
    domain_ = domain;
    pieceSoftening_ = softening;
    parity_ ^= 1;
    events_.clear();
    commandNames_.clear();
    copies_.clear();
    rankReady_ = cl::Event();
    packedOthers_ = false;
    groupsOrdered_ = false;
    domainBuilt_ = true;
    builtForPieces_ = true;
    clBoundary(
        [&] {
            return "Barnes-Hut tree: the split build of " + std::to_string(n) + " bodies failed";
        },
        [&] {
            joinPieces();  // the last pass's pieces read what this build writes
            enqueueDomainBuild(pos, n);
            preparePieces();
        });
}

void TreeForce::enqueueDomainBuild(const cl::Buffer& pos, std::size_t n) {
    refreshKernels();
    reserve(n);
    reserveSplit(bounds_.size() - 1);
    reserveGroupOrder();
    auto& q = cc_.queue();
    const int ni = static_cast<int>(n);
    const int lo = static_cast<int>(bounds_[domain_]), hi = static_cast<int>(bounds_[domain_ + 1]);
    const int group = groupSize();
    const int w0 = std::max(lo - group, 0), w1 = std::min(hi + group, ni);
    w0_ = static_cast<std::size_t>(w0);
    m_ = lo < hi ? static_cast<std::size_t>(w1 - w0) : 0;
    pos_ = pos;
    lastN_ = n;
    indexRead_ = cl::Event();
    // domainShare()'s reads (the prefix table, the counts, the cells and the bodies within a walk
    // group of the domain's ends), enqueued before the moments, and domainRoots()' after them.
    auto& shareReads = splitHost_->shareReads;
    shareReads = {{&table_, 0, kTableInts * 4}, {&splitCounters_, 0, kSplitCounters * 4}};
    if (lo < hi) {
        shareReads.push_back({&cells_, 0, 2 * kCellRoom * 16});
        for (int end : {lo, hi}) {
            const int b = std::max(end - group, 0), e = std::min(end + group, ni);
            shareReads.push_back({&sorted_, static_cast<std::size_t>(b) * 16,
                                  static_cast<std::size_t>(std::max(e - b, 0)) * 16});
        }
    }
    splitHost_->rootReads = {{&splitCounters_, 0, kSplitCounters * 4},
                             {&rootRecords_, 0, splitCapacity_ * kTreeRecordFloat4s * 16},
                             {&rootBodies_, 0, splitCapacity_ * 16 * 8}};
    layOutReads(cc_, splitHost_->share, shareReads);
    layOutReads(cc_, splitHost_->roots, splitHost_->rootReads);
    auto fill = [&](cl::Buffer& b, cl_int value, std::size_t offset, std::size_t count) {
        if (!count) return;
        cl::Event e;
        q.enqueueFillBuffer(b, value, offset * 4, count * 4, nullptr, &e);
        events_.emplace_back("tree-build", e);
    };
    // The prefix table from domain_drops' work-groups' partial tables.
    const std::size_t pairs = hi - lo > 1 ? static_cast<std::size_t>(hi - lo - 1) : 0;
    const std::size_t dropGroups = (pairs + kDropsPerGroup - 1) / kDropsPerGroup;
    if (!dropPartials_() || dropGroups * kDropsPartialInts * 4 > dropPartialsBytes_) {
        dropPartialsBytes_ = (dropGroups + dropGroups / 4 + 1) * kDropsPartialInts * 4;
        dropPartials_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, dropPartialsBytes_);
    }
    auto enqueueDropsFinish = [&](const cl::Buffer& keys) {
        setArgs(k_->dropsFinish, keys, w0, lo, hi, ni, dropPartials_, static_cast<int>(dropGroups),
                table_);
        enqueueStage(k_->dropsFinish, kDropsFinishWg, kDropsFinishWg, "tree-build");
    };
    // Each read after the kernel enqueued last (and so after everything before it on the queue),
    // on a queue of its own so that the next kernels need not wait for the copy. The kernels
    // after it may write splitCounters_' other counts (packRoots, buildAcross) while it reads:
    // the reader takes only the counts written before.
    const auto enqueueShareReads = [&] {
        enqueueReads(readsQueue_, splitHost_->share, shareReads, afterLastCommand(),
                     splitHost_->shareRead);
    };
    const auto enqueueRootReads = [&] {
        enqueueReads(readsQueue_, splitHost_->roots, splitHost_->rootReads, afterLastCommand(),
                     splitHost_->rootsRead);
    };
    if (lo >= hi) {  // an empty domain: its table says so, and it walks nothing
        fill(splitCounters_, 0, 0, kSplitCounters);  // (gather_window clears them otherwise)
        fill(groupStarts_, 0, 0, startWords(n));
        enqueueDropsFinish(keys_[0]);
        enqueueShareReads();
        enqueueRootReads();
        return;
    }
    enqueueBoxAndKeys(pos, n, 1);
    // The window of the sorted order into keys_[0], then sorted.
    window_->enqueue(keys_[1], index_[1], n, w0_, static_cast<std::size_t>(w1), keys_[0],
                     index_[0]);
    for (const auto& [name, e] : window_->events()) {
        events_.emplace_back("tree-sort", e);
        commandNames_.note(e, window_->commandNames().of(e));
    }
    enqueueSort(m_);
    const cl::Buffer& keys = keys_[sortedBuffer_];
    const cl::Buffer& index = index_[sortedBuffer_];
    setArgs(k_->gatherWindow, pos, index, w0, static_cast<int>(m_), sorted_, globalIndex_,
            splitCounters_, static_cast<int>(kSplitCounters), groupStarts_,
            static_cast<int>(startWords(n)), nodeParent_, leafParent_, n > 1 ? lo : 0,
            n > 1 ? hi : 0);
    enqueueStage(k_->gatherWindow, m_, kElementWg, "tree-build");
    const std::size_t count = static_cast<std::size_t>(hi - lo);
    {  // the domain's slice of the sorted order to pinned memory, beside the build
        const std::vector<cl::Event> after = afterLastCommand();
        q.flush();
        side_.enqueueReadBuffer(globalIndex_, CL_FALSE, static_cast<std::size_t>(lo) * 4, count * 4,
                                static_cast<cl_uint*>(splitHost_->index[parity_].host) + lo, &after,
                                &indexRead_);
        copies_.push_back({"index out", indexRead_, count * 4});
        side_.flush();
    }
    if (n > 1) {
        setArgs(k_->buildDomain, keys, w0, static_cast<int>(m_), lo, hi, ni, children_, ranges_,
                nodeParent_, leafParent_, visits_, across_, splitCounters_);
        enqueueStage(k_->buildDomain, count, kElementWg, "tree-build");
        if (dropGroups) {
            setArgs(k_->drops, keys, w0, lo, hi, dropPartials_);
            enqueueStage(k_->drops, dropGroups * kDropsWg, kDropsWg, "tree-build");
        }
    }
    enqueueDropsFinish(keys);
    // The domain's cells, for the others' tests of what its walk reads, from the shape and the
    // bodies: they travel while the moments are computed.
    const int fineMax = static_cast<int>(
        std::max<std::size_t>(static_cast<std::size_t>(group), count / kFineCells));
    const int superMax = std::max(fineMax, static_cast<int>(count / kSuperCells));
    setArgs(k_->domainCells, lo, hi, fineMax, superMax, nodeParent_, leafParent_, ranges_, ni,
            cells_, static_cast<int>(kCellRoom), splitCounters_);
    enqueueStage(k_->domainCells, count, kElementWg, "tree-build");
    setArgs(k_->cellBoxes, sorted_, splitCounters_, cells_, static_cast<int>(kCellRoom));
    enqueueStage(k_->cellBoxes, kCellRoom * kReduceWg, kReduceWg, "tree-build");
    enqueueShareReads();
    if (n > 1) {
        setArgs(k_->momentsDomain, sorted_, ni, children_, nodeParent_, leafParent_, visits_,
                nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_, theta_, lo, hi);
        enqueueStage(k_->momentsDomain, count, kElementWg, "tree-moments");
        setArgs(k_->packRoots, lo, hi, ni, nodeParent_, leafParent_, index, w0, children_, ranges_,
                nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_, rootRecords_, rootBodies_,
                static_cast<int>(splitCapacity_ * 16), splitCounters_);
        enqueueStage(k_->packRoots, count, kElementWg, "tree-build");
    }
    enqueueRootReads();
    // The domain's walk groups come in graftDomains().
}

TreeForce::DomainShare TreeForce::domainShare() {
    if (!domainBuilt_) throw Error("tree: no split build to share");
    return clBoundary("Barnes-Hut tree: reading the split build's domain failed", [&] {
        const int lo = static_cast<int>(bounds_[domain_]),
                  hi = static_cast<int>(bounds_[domain_ + 1]);
        // Read by the build before its moments, everything at once into pinned memory (a
        // blocking read each cost tens of microseconds of the exchange, issue 32, session 12);
        // once in, every command of the last pass on the queue is done too.
        splitHost_->shareRead.wait();
        const auto* host = static_cast<const char*>(splitHost_->share.host);
        const std::vector<StagedRead>& parts = splitHost_->shareReads;
        DomainShare share;
        const auto* table = reinterpret_cast<const cl_int*>(host + parts[0].at);
        share.table.assign(table, table + kTableInts);
        cl_int counts[kSplitCounters];
        std::memcpy(counts, host + parts[1].at, sizeof counts);
        if (static_cast<std::size_t>(counts[4]) > splitCapacity_)
            throw Error("tree: the nodes across domains are more than a tree of 95-bit keys has");
        std::vector<std::vector<std::pair<cl_float4, cl_float4>>> supers;
        if (lo >= hi) {  // it walks nothing
            share.cells = cellLayout(supers);
            return share;
        }
        const std::size_t cells = static_cast<std::size_t>(counts[3]);
        if (cells > kCellRoom) {  // a tree too deep for the room: every node may be read
            supers.push_back({{float4Of(-INFINITY, -INFINITY, -INFINITY, 0),
                               float4Of(INFINITY, INFINITY, INFINITY, 0)}});
            share.cells = cellLayout(supers);
            return share;
        }
        const auto* raw = reinterpret_cast<const cl_float4*>(host + parts[2].at);
        std::vector<std::vector<cl_float4>> ends;
        for (std::size_t k = 3; k < 5; ++k) {
            const auto* first = reinterpret_cast<const cl_float4*>(host + parts[k].at);
            ends.emplace_back(first, first + parts[k].bytes / 16);
        }
        std::map<cl_int, std::size_t> superOf;
        for (std::size_t k = 0; k < cells; ++k) {
            auto [it, added] = superOf.emplace(intIn(raw[2 * k], 3), supers.size());
            if (added) supers.emplace_back();
            supers[it->second].emplace_back(raw[2 * k], raw[2 * k + 1]);
        }
        for (const auto& bodies : ends) {
            if (bodies.empty()) continue;
            cl_float4 l = float4Of(INFINITY, INFINITY, INFINITY, 0);
            cl_float4 h = float4Of(-INFINITY, -INFINITY, -INFINITY, 0);
            for (const cl_float4& p : bodies)
                if (std::isfinite(p.s[0]) && std::isfinite(p.s[1]) && std::isfinite(p.s[2]))
                    widen(l, h, p, p);
            supers.push_back({{l, h}});
        }
        share.cells = cellLayout(supers);
        return share;
    });
}

void TreeForce::domainRoots(DomainShare& share) {
    if (!domainBuilt_) throw Error("tree: no split build to share the roots of");
    clBoundary("Barnes-Hut tree: reading the split build's roots failed", [&] {
        splitHost_->rootsRead.wait();
        const auto* host = static_cast<const char*>(splitHost_->roots.host);
        const std::vector<StagedRead>& parts = splitHost_->rootReads;
        cl_int counts[kSplitCounters];
        std::memcpy(counts, host + parts[0].at, sizeof counts);
        if (static_cast<std::size_t>(counts[1]) > splitCapacity_ ||
            static_cast<std::size_t>(counts[6]) > splitCapacity_ * 16)
            throw Error("tree: the nodes across domains are more than a tree of 95-bit keys has");
        const auto* roots = reinterpret_cast<const cl_float4*>(host + parts[1].at);
        share.roots.assign(roots, roots + static_cast<std::size_t>(counts[1]) * kTreeRecordFloat4s);
        const auto* rootBodies = reinterpret_cast<const cl_int2*>(host + parts[2].at);
        share.rootBodies.assign(rootBodies, rootBodies + counts[6]);
    });
}

void TreeForce::buildAcross(const std::vector<std::vector<cl_int>>& tables) {
    if (!domainBuilt_) throw Error("tree: no split build to build across");
    if (tables.size() + 1 != bounds_.size())
        throw Error("tree: one prefix table per domain is needed");
    acrossRead_ = cl::Event();
    acrossPending_ = false;
    clBoundary("Barnes-Hut tree: building the nodes across domains failed", [&] {
        auto& q = cc_.queue();
        std::vector<cl_int> all;
        for (const auto& t : tables)
            all.insert(all.end(), t.begin(), t.end());
        // The tables in and the counts and records out through pinned memory, with one wait
        // (the next build's domainShare() waits for the queue before the area is written again).
        const std::size_t tableBytes = all.size() * 4, countsAt = stagingRoom(tableBytes),
                          recordsAt = countsAt + 256,
                          recordsBytes = splitCapacity_ * kTreeRecordFloat4s * 16;
        PinnedArea& area = splitHost_->across;
        area.reserve(cc_, recordsAt + recordsBytes);
        auto* host = static_cast<char*>(area.host);
        std::memcpy(host, all.data(), tableBytes);
        fitBuffer(tables_, tableBytes);
        q.enqueueWriteBuffer(tables_, CL_FALSE, 0, tableBytes, host);
        const int lo = static_cast<int>(bounds_[domain_]),
                  hi = static_cast<int>(bounds_[domain_ + 1]);
        if (lo >= hi || lastN_ < 2) return;
        acrossTables_ = static_cast<int>(tables.size());
        acrossCountsAt_ = countsAt;
        acrossRecordsAt_ = recordsAt;
        acrossPending_ = true;
    });
}

// The essential kernels neither read nor write what build_across does (a node across domains is
// outside the domain for them before and after), so essentialFor() enqueues it behind the first
// other domain's kernels, whose records then go out sooner, and its reads beside the next
// domains' kernels (on the queue they waited for the first records' copy out, and held the next
// kernels).
void TreeForce::enqueueAcross() {
    if (!acrossPending_) return;
    acrossPending_ = false;
    const int lo = static_cast<int>(bounds_[domain_]), hi = static_cast<int>(bounds_[domain_ + 1]);
    setArgs(k_->buildAcross, keys_[sortedBuffer_], static_cast<int>(w0_), lo, hi,
            static_cast<int>(lastN_), tables_, acrossTables_, static_cast<int>(domain_), across_,
            splitCounters_, children_, ranges_, nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_,
            acrossRecords_);
    enqueueStage(k_->buildAcross, splitCapacity_, kElementWg, "tree-build");
    cc_.queue().flush();
    const std::vector<cl::Event> after = afterLastCommand();
    auto* host = static_cast<char*>(splitHost_->across.host);
    readsQueue_.enqueueReadBuffer(splitCounters_, CL_FALSE, 0, kSplitCounters * 4,
                                  host + acrossCountsAt_, &after);
    readsQueue_.enqueueReadBuffer(acrossRecords_, CL_FALSE, 0,
                                  splitCapacity_ * kTreeRecordFloat4s * 16, host + acrossRecordsAt_,
                                  nullptr, &acrossRead_);
    readsQueue_.flush();
}

std::vector<cl_float4> TreeForce::acrossRecords() {
    if (!domainBuilt_) throw Error("tree: no split build to read across");
    return clBoundary("Barnes-Hut tree: reading the nodes across domains failed", [&] {
        enqueueAcross();                                      // where essentialFor() did not
        if (!acrossRead_()) return std::vector<cl_float4>{};  // buildAcross() had nothing to build
        acrossRead_.wait();
        const auto* host = static_cast<const char*>(splitHost_->across.host);
        const std::size_t countsAt = acrossCountsAt_, recordsAt = acrossRecordsAt_;
        cl_int counts[kSplitCounters];
        std::memcpy(counts, host + countsAt, sizeof counts);
        if (static_cast<std::size_t>(counts[5]) > splitCapacity_)
            throw Error("tree: the nodes across domains are more than a tree of 95-bit keys has");
        const auto* first = reinterpret_cast<const cl_float4*>(host + recordsAt);
        return std::vector<cl_float4>(
            first, first + static_cast<std::size_t>(counts[5]) * kTreeRecordFloat4s);
    });
}

std::vector<TreeForce::Essential> TreeForce::essentialFor(
    const std::vector<const std::vector<cl_float4>*>& cellsOf) {
    if (!domainBuilt_) throw Error("tree: no split build to send nodes of");
    if (cellsOf.size() + 1 != bounds_.size())
        throw Error("tree: one cell list per domain is needed");
    return clBoundary("Barnes-Hut tree: finding what the other domains' walks read failed", [&] {
        auto& q = cc_.queue();
        const std::size_t p = cellsOf.size();
        std::vector<Essential> out(p);
        const int lo = static_cast<int>(bounds_[domain_]),
                  hi = static_cast<int>(bounds_[domain_ + 1]);
        if (lo >= hi || lastN_ < 2) return out;
        const std::size_t count = static_cast<std::size_t>(hi - lo);
        const int ni = static_cast<int>(lastN_);
        if (cellBoxes_.size() < p) {
            cellBoxes_.resize(p);
            targetCounters_.resize(p);
            records_.resize(p);
            bodyRecords_.resize(p);
            recordsCapacity_.resize(p, 0);
            bodyRecordsCapacity_.resize(p, 0);
        }
        auto wanted = [&](std::size_t e) {
            return e != domain_ && cellsOf[e] && !cellsOf[e]->empty();
        };
        auto grow = [&](std::size_t e, std::size_t nodes, std::size_t bodies) {
            if (recordsCapacity_[e] < nodes) {
                recordsCapacity_[e] = nodes + nodes / 4;
                records_[e] = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE,
                                         recordsCapacity_[e] * kTreeWalkRecordBytes);
            }
            if (bodyRecordsCapacity_[e] < bodies) {
                bodyRecordsCapacity_[e] = bodies + bodies / 4;
                bodyRecords_[e] =
                    cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, bodyRecordsCapacity_[e] * 8);
            }
        };
        fitBuffer(opens_, capacity_);
        // One domain after the other: opens_ is shared. Its counters are zeroed with the cells
        // (below) the first time, here when it runs again.
        auto enqueueFor = [&](std::size_t e, bool zeroCounters) {
            if (zeroCounters)
                q.enqueueFillBuffer(targetCounters_[e], cl_int(0), 0, kSplitCounters * 4);
            setArgs(k_->essentialFlags, lo, hi, cellBoxes_[e], ranges_, nodeCom_, crit_, ni,
                    opens_);
            enqueueStage(k_->essentialFlags, count, kElementWg, "tree-build");
            setArgs(k_->essential, lo, hi, opens_, nodeParent_, children_, ranges_, nodeCom_,
                    nodeQa_, nodeQb_, nodeLo_, crit_, ni, records_[e],
                    static_cast<int>(recordsCapacity_[e]), targetCounters_[e]);
            enqueueStage(k_->essential, count, kElementWg, "tree-build");
            setArgs(k_->essentialBodies, lo, hi, opens_, nodeParent_, leafParent_, ranges_, ni,
                    index_[sortedBuffer_], static_cast<int>(w0_), bodyRecords_[e],
                    static_cast<int>(bodyRecordsCapacity_[e]), targetCounters_[e]);
            enqueueStage(k_->essentialBodies, count, kElementWg, "tree-build");
        };
        // The cells through pinned memory, and the counters' zeroes, on a queue of their own so
        // that they need not wait for this queue's moments (one engine takes the copies in, and
        // a fill, in turn: behind other copies in they held the essential kernels back, session
        // 19). This queue's kernels wait for them, and the counts read after those kernels
        // (below) are in before this returns: the area is free again for the next pass.
        std::size_t cellBytes = 0;
        for (std::size_t e = 0; e < p; ++e)
            if (wanted(e)) cellBytes += stagingRoom(cellsOf[e]->size() * 16);
        splitHost_->cells.reserve(cc_, std::max<std::size_t>(cellBytes, std::size_t{1} << 20));
        char* staged = static_cast<char*>(splitHost_->cells.host);
        std::vector<cl::Event> cellsIn;
        cl::CommandQueue& in = cellsQueue();
        for (std::size_t e = 0; e < p; ++e) {
            if (!wanted(e)) continue;
            if (!targetCounters_[e]())
                targetCounters_[e] =
                    cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, kSplitCounters * 4);
            const std::size_t bytes = cellsOf[e]->size() * 16;
            fitBuffer(cellBoxes_[e], bytes);
            std::memcpy(staged, cellsOf[e]->data(), bytes);
            cellsIn.emplace_back();
            in.enqueueWriteBuffer(cellBoxes_[e], CL_FALSE, 0, bytes, staged, nullptr,
                                  &cellsIn.back());
            cellsIn.emplace_back();
            in.enqueueFillBuffer(targetCounters_[e], cl_int(0), 0, kSplitCounters * 4, nullptr,
                                 &cellsIn.back());
            staged += stagingRoom(bytes);
            grow(e, std::max<std::size_t>(count / 8, 1024), std::max<std::size_t>(count / 8, 1024));
        }
        in.flush();
        if (!cellsIn.empty()) q.enqueueMarkerWithWaitList(&cellsIn);  // in order: a barrier
        // Each domain's counts into pinned memory (a read into pageable memory completed up to
        // 0.4 ms after the kernels on NVIDIA's driver, session 12).
        splitHost_->counts.reserve(cc_, p * kSplitCounters * 4);
        cl_int* const countsHost = static_cast<cl_int*>(splitHost_->counts.host);
        auto counts = [&](std::size_t e) { return countsHost + e * kSplitCounters; };
        std::vector<cl::Event> counted(p);
        // The domains that took the most records last time first: their copies out then run
        // beside the kernels for the others, and the last copy, which nothing hides, is short.
        std::vector<std::size_t> order;
        for (std::size_t e = 0; e < p; ++e)
            if (wanted(e)) order.push_back(e);
        sentBefore_.resize(std::max(sentBefore_.size(), p), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return sentBefore_[a] > sentBefore_[b];
        });
        for (std::size_t e : order) {
            enqueueFor(e, false);
            // Beside the next domain's kernels (on this queue the read held them back).
            const std::vector<cl::Event> after = afterLastCommand();
            readsQueue_.enqueueReadBuffer(targetCounters_[e], CL_FALSE, 0, kSplitCounters * 4,
                                          counts(e), &after, &counted[e]);
            readsQueue_.flush();
            enqueueAcross();  // after the first domain's kernels
        }
        q.flush();
        // Each domain's records out on the side queue as soon as its counts are in, while the
        // next domain's kernels run.
        auto sendOut = [&](std::size_t e, cl::CommandQueue& on) {
            const auto nodes = static_cast<std::size_t>(counts(e)[2]);
            const auto bodies = static_cast<std::size_t>(counts(e)[7]);
            PinnedArea& pn = splitHost_->nodes[e];
            PinnedArea& pb = splitHost_->bodies[e];
            // As large as the device's rooms (which grow seldom): an area grown here as the
            // counts creep up waits for the queue and maps anew in the middle of the exchange.
            pn.reserve(cc_, std::max(std::max(nodes, recordsCapacity_[e]) * kTreeWalkRecordBytes,
                                     std::size_t{16}));
            pb.reserve(cc_,
                       std::max(std::max(bodies, bodyRecordsCapacity_[e]) * 8, std::size_t{8}));
            out[e] = {pn.host, nodes, static_cast<const cl_int2*>(pb.host), bodies, {}};
            cl::Event read;
            if (nodes) {
                on.enqueueReadBuffer(records_[e], CL_FALSE, 0, nodes * kTreeWalkRecordBytes,
                                     pn.host, nullptr, &read);
                copies_.push_back({"essential out", read, nodes * kTreeWalkRecordBytes});
                out[e].copies.push_back(read);
            }
            if (bodies) {
                on.enqueueReadBuffer(bodyRecords_[e], CL_FALSE, 0, bodies * 8, pb.host, nullptr,
                                     &read);
                copies_.push_back({"essential out", read, bodies * 8});
                out[e].copies.push_back(read);
            }
            on.flush();
        };
        std::vector<std::size_t> again;  // a room too small: again, with room
        for (std::size_t e : order) {
            counted[e].wait();
            sentBefore_[e] = static_cast<std::size_t>(counts(e)[2]);
            if (static_cast<std::size_t>(counts(e)[2]) <= recordsCapacity_[e] &&
                static_cast<std::size_t>(counts(e)[7]) <= bodyRecordsCapacity_[e])
                sendOut(e, side_);
            else
                again.push_back(e);
        }
        for (std::size_t e : again) {
            grow(e, static_cast<std::size_t>(counts(e)[2]), static_cast<std::size_t>(counts(e)[7]));
            enqueueFor(e, true);
            q.enqueueReadBuffer(targetCounters_[e], CL_TRUE, 0, kSplitCounters * 4, counts(e));
            sendOut(e, q);
        }
        return out;
    });
}

const cl_uint* TreeForce::domainIndex() {
    if (!domainBuilt_) throw Error("tree: no split build to read the order of");
    return clBoundary("Barnes-Hut tree: reading the domain's sorted order failed", [&] {
        if (indexRead_()) indexRead_.wait();
        return static_cast<const cl_uint*>(splitHost_->index[parity_].host);
    });
}

void TreeForce::receiveOrder(const std::vector<const cl_uint*>& indexFrom) {
    if (!domainBuilt_) throw Error("tree: no split build to receive the order of");
    clBoundary("Barnes-Hut tree: receiving the other domains' sorted order failed", [&] {
        // After this domain's own slice is written and read out (the read follows the kernel that
        // writes it, and that kernel every reader of the last pass on the context's queue); an
        // empty domain wrote none: after everything on that queue.
        indexWrites_.clear();
        cl::Event before = indexRead_;
        if (!before()) {
            cc_.queue().enqueueMarkerWithWaitList(nullptr, &before);
            cc_.queue().flush();
        }
        const std::vector<cl::Event> after = {before};
        for (std::size_t d = 0; d < indexFrom.size() && d + 1 < bounds_.size(); ++d) {
            const std::size_t b = bounds_[d], c = bounds_[d + 1] - bounds_[d];
            if (d == domain_ || !indexFrom[d] || !c) continue;
            cl::Event e;
            side_.enqueueWriteBuffer(globalIndex_, CL_FALSE, b * 4, c * 4, indexFrom[d] + b, &after,
                                     &e);
            indexWrites_.push_back(e);
            copies_.push_back({"index in", e, c * 4});
        }
        side_.flush();
    });
}

cl::CommandQueue& TreeForce::cellsQueue() {
    if (!cellsQueue_())
        cellsQueue_ = cl::CommandQueue(cc_.context(), cc_.device(), CL_QUEUE_PROFILING_ENABLE);
    return cellsQueue_;
}

void TreeForce::graftDomains(const std::vector<const std::vector<cl_float4>*>& across,
                             const std::vector<const std::vector<cl_float4>*>& roots,
                             const std::vector<const std::vector<cl_int2>*>& rootBodies,
                             const std::vector<Essential>& received) {
    if (!domainBuilt_) throw Error("tree: no split build to graft into");
    clBoundary("Barnes-Hut tree: grafting the other domains' nodes failed", [&] {
        auto& q = cc_.queue();
        const int ni = static_cast<int>(lastN_);
        const int lo = static_cast<int>(bounds_[domain_]),
                  hi = static_cast<int>(bounds_[domain_ + 1]);
        if (lo >= hi) {  // it walks nothing
            groupsOrdered_ = !bodyWalk_;
            if (!bodyWalk_) enqueueGroupOrder(lastN_);
            return;
        }
        if (!bodyWalk_) {  // the domain's walk groups, while the essential records travel
            setArgs(k_->groupsDomain, lo, hi, ni, children_, ranges_, groups_, counters_,
                    groupStarts_, 1);
            enqueueStage(k_->groupsDomain, static_cast<std::size_t>(hi - lo), kElementWg,
                         "tree-walk");
        }
        // The nodes across domains, and the roots below them from which they are computed.
        std::vector<cl_int> acrossList, rootList;
        std::set<cl_int> acrossSet;
        for (const auto* l : across)
            for (std::size_t k = 0; k < l->size() / kTreeRecordFloat4s; ++k)
                acrossSet.insert(intIn((*l)[k * kTreeRecordFloat4s + 2], 3));
        for (const auto* l : across)
            for (std::size_t k = 0; k < l->size() / kTreeRecordFloat4s; ++k) {
                const cl_float4& shape = (*l)[k * kTreeRecordFloat4s + 5];
                acrossList.push_back(intIn((*l)[k * kTreeRecordFloat4s + 2], 3));
                for (int c = 0; c < 2; ++c) {
                    const cl_int child = intIn(shape, c);
                    if (child < 0 || !acrossSet.count(child)) rootList.push_back(child);
                }
            }
        const cl_int rootCount = static_cast<cl_int>(rootList.size());
        // Every small part (the nodes across domains, the roots, their bodies, the lists) in one
        // write through pinned memory, each part a sub-buffer of it: one write at each part had
        // cost the host tens of microseconds, and held the other domains' records back behind
        // it on the copy engine until about 0.5 ms into the graft (session 17). The next build's
        // domainShare() waits for the queue before the pinned area is written again.
        struct Part {
            std::vector<std::pair<const void*, std::size_t>> pieces;  // (data, bytes)
            std::size_t at = 0, bytes = 0;
        };
        auto partOf = [](const auto& lists, std::size_t unitBytes) {
            Part part;
            for (const auto* l : lists) {
                part.pieces.emplace_back(l->data(), l->size() * unitBytes);
                part.bytes += l->size() * unitBytes;
            }
            return part;
        };
        enum { kAcross, kRoots, kRootBodies, kRootList, kRootCount, kAcrossList, kParts };
        Part parts[kParts] = {
            partOf(across, 16), partOf(roots, 16), partOf(rootBodies, 8), {}, {}, {}};
        parts[kRootList] = {{{rootList.data(), rootList.size() * 4}}, 0, rootList.size() * 4};
        parts[kRootCount] = {{{&rootCount, 4}}, 0, 4};
        parts[kAcrossList] = {
            {{acrossList.data(), acrossList.size() * 4}}, 0, acrossList.size() * 4};
        const std::size_t align = subBufferAlign();
        std::size_t packed = 0;
        for (Part& part : parts) {
            part.at = packed;
            packed += (part.bytes + align - 1) / align * align;
        }
        PinnedArea& staging = splitHost_->graft;
        staging.reserve(cc_,
                        std::max<std::size_t>(packed, std::size_t{256} << 10));  // seldom grown
        auto* host = static_cast<char*>(staging.host);
        for (const Part& part : parts) {
            std::size_t at = part.at;
            for (const auto& [data, bytes] : part.pieces) {
                if (bytes) std::memcpy(host + at, data, bytes);
                at += bytes;
            }
        }
        graftParts_.clear();  // the last graft's sub-buffers, before their buffer may go
        fitBuffer(graftSmall_, std::max<std::size_t>(packed, 256));
        // On the side queue ahead of the records (on this queue it waited for the kernel above,
        // and then behind the records on the engine that copies in, when that kernel was slow);
        // this queue's kernels wait for it, told so before the records are enqueued. Nothing on
        // this queue still reads the last graft's (this pass's share was read after all of them).
        cl::Event smallIn;
        side_.enqueueWriteBuffer(graftSmall_, CL_FALSE, 0, std::max<std::size_t>(packed, 4), host,
                                 nullptr, &smallIn);
        copies_.push_back({"graft in", smallIn, packed});
        side_.flush();
        const std::vector<cl::Event> smallWait = {smallIn};
        q.enqueueMarkerWithWaitList(&smallWait);  // in order: a barrier
        q.flush();
        const std::vector<Landing> landings = receiveRecords(received);
        // The small parts' kernels.
        // Kept as members until the next graft: a kernel argument does not hold its buffer.
        graftParts_.assign(kParts, cl::Buffer());
        auto sub = [&](std::size_t part) -> const cl::Buffer& {
            if (!graftParts_[part]()) {
                const cl_buffer_region region{parts[part].at,
                                              std::max<std::size_t>(parts[part].bytes, 4)};
                graftParts_[part] = graftSmall_.createSubBuffer(
                    CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
            }
            return graftParts_[part];
        };
        auto graftNodes = [&](std::size_t part) {
            const std::size_t count = parts[part].bytes / (kTreeRecordFloat4s * 16);
            if (!count) return;
            setArgs(k_->graftNodes, sub(part), static_cast<int>(count), children_, ranges_,
                    nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_);
            enqueueStage(k_->graftNodes, count, kElementWg, "tree-build");
        };
        graftNodes(kAcross);
        if (!acrossList.empty()) {
            setArgs(k_->linkAcross, sub(kAcross), static_cast<int>(acrossList.size()), nodeParent_,
                    leafParent_, visits_);
            enqueueStage(k_->linkAcross, acrossList.size(), kElementWg, "tree-build");
        }
        graftNodes(kRoots);
        if (const std::size_t count = parts[kRootBodies].bytes / 8) {
            setArgs(k_->graftBodies, sub(kRootBodies), static_cast<int>(count), pos_, sorted_);
            enqueueStage(k_->graftBodies, count, kElementWg, "tree-build");
        }
        if (!rootList.empty() && lastN_ > 1) {
            setArgs(k_->momentsAcross, sorted_, ni, children_, nodeParent_, leafParent_, visits_,
                    nodeCom_, nodeQa_, nodeQb_, nodeLo_, nodeHi_, crit_, theta_, sub(kRootList),
                    sub(kRootCount));
            enqueueStage(k_->momentsAcross, rootList.size(), kElementWg, "tree-moments");
        }
        // The walk groups in body order need nothing of the other domains' records: they are
        // found while those come in.
        if (!bodyWalk_) {
            if (!acrossList.empty()) {
                setArgs(k_->groupsListed, sub(kAcrossList), static_cast<int>(acrossList.size()),
                        children_, ranges_, groups_, counters_, groupStarts_, 1);
                enqueueStage(k_->groupsListed, acrossList.size(), kElementWg, "tree-walk");
            }
            enqueueGroupOrder(lastN_);
        }
        graftRecords(landings);
        groupsOrdered_ = !bodyWalk_;
    });
}

// The other domains' records on the side queue: the copies into a device go one after another,
// and these are most of the graft's bytes. Each sender's nodes and bodies together, the largest
// first, each grafted (graftRecords()) as soon as they are in while the next ones come: after the
// last, the smallest, little is left before the walk.
std::vector<TreeForce::Landing> TreeForce::receiveRecords(const std::vector<Essential>& received) {
    constexpr std::size_t kNodeBytes = kTreeWalkRecordBytes, kBodyBytes = 8;
    // Every sender's records in its pinned memory first (those to other domains may still be
    // on their way: they need not hold these back).
    for (const Essential& e : received)
        for (const cl::Event& copy : e.copies)
            copy.wait();
    std::vector<const Essential*> senders;
    std::size_t nodeTotal = 0, bodyTotal = 0;
    for (const Essential& e : received) {
        if (!e.nodeCount && !e.bodyCount) continue;
        senders.push_back(&e);
        nodeTotal += e.nodeCount;
        bodyTotal += e.bodyCount;
    }
    std::stable_sort(senders.begin(), senders.end(), [&](const Essential* a, const Essential* b) {
        return a->nodeCount * kNodeBytes + a->bodyCount * kBodyBytes >
               b->nodeCount * kNodeBytes + b->bodyCount * kBodyBytes;
    });
    if (nodeTotal) fitBuffer(essentialIn_, nodeTotal * kNodeBytes);
    if (bodyTotal) fitBuffer(essentialBodiesIn_, bodyTotal * kBodyBytes);
    std::vector<Landing> landings;
    std::size_t nodeAt = 0, bodyAt = 0;
    for (const Essential* e : senders) {
        Landing l{nodeAt, e->nodeCount, bodyAt, e->bodyCount, {}};
        auto write = [&](cl::Buffer& into, std::size_t at, const void* data, std::size_t bytes) {
            if (!bytes) return;
            cl::Event written;
            side_.enqueueWriteBuffer(into, CL_FALSE, at, bytes, data, nullptr, &written);
            copies_.push_back({"graft in", written, bytes});
            l.in.push_back(written);
        };
        write(essentialIn_, nodeAt * kNodeBytes, e->nodes, e->nodeCount * kNodeBytes);
        write(essentialBodiesIn_, bodyAt * kBodyBytes, e->bodies, e->bodyCount * kBodyBytes);
        nodeAt += e->nodeCount;
        bodyAt += e->bodyCount;
        landings.push_back(std::move(l));
    }
    side_.flush();
    return landings;
}

// Each sender's records once in, after momentsAcross (which reads the roots' full records that
// these overwrite): the kernels' items [at, at + count), each writing its own node or body (the
// senders' domains do not overlap).
void TreeForce::graftRecords(const std::vector<Landing>& landings) {
    auto& q = cc_.queue();
    auto graftFrom = [&](cl::Kernel& k, std::size_t at, std::size_t count,
                         const std::vector<cl::Event>& after) {
        cl::Event e;
        q.enqueueNDRangeKernel(k, cl::NDRange(at), cl::NDRange(roundUp(count, kElementWg)),
                               cl::NDRange(kElementWg), after.empty() ? nullptr : &after, &e);
        recordLaunch("tree-build", e, k);
    };
    for (const Landing& l : landings) {
        std::vector<cl::Event> after = l.in;  // the first kernel waits; the next in order
        if (l.nodes) {
            setArgs(k_->graftWalkNodes, essentialIn_, static_cast<int>(l.nodeAt + l.nodes),
                    children_, ranges_, nodeCom_, nodeQa_, nodeQb_, nodeLo_, crit_);
            graftFrom(k_->graftWalkNodes, l.nodeAt, l.nodes, after);
            after.clear();
        }
        if (l.bodies) {
            setArgs(k_->graftBodies, essentialBodiesIn_, static_cast<int>(l.bodyAt + l.bodies),
                    pos_, sorted_);
            graftFrom(k_->graftBodies, l.bodyAt, l.bodies, after);
        }
    }
}

}  // namespace clviz
