#include "compute/nbody/tree/window_select.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr const char* kFile = "nbody_tree_window.cl";
constexpr std::size_t kWg = 256;  // WG: every kernel's work-group
constexpr std::size_t kKpt = 16;  // KPT: keys per work-item per tile
constexpr std::size_t kTile = kWg * kKpt;
constexpr int kDigitBits = 12;
constexpr std::size_t kBins = std::size_t(1) << kDigitBits;  // BINS: histogram bins per target
// The select's digits, from the top of the 64-bit key: five of 12 bits, then the last 4.
constexpr int kShifts[] = {52, 40, 28, 16, 4, 0};
constexpr int kWidths[] = {12, 12, 12, 12, 12, 4};
// window_pass work-groups per compute unit (each loops over whole tiles): enough to keep the
// memory busy, few enough that flushing their local histograms (4,096 bins each) stays cheap.
constexpr std::size_t kPassGroupsPerUnit = 4;
// The list takes the keys still in question once they are at most a quarter of n (and always when
// they are at most kListFloor): writing them costs less than reading every key again.
constexpr std::size_t kListFloor = 4096;

std::size_t listCapFor(std::size_t n) {
    return std::min(n, std::max(n / 4, kListFloor));
}

// kernels/nbody_tree_window.cl's WindowState, as the device lays it out.
struct WindowState {
    cl_ulong key[2];
    cl_uint below[2], rank[2], active[2], mode, listCount, splitIndex[2], ticket, pad;
};
static_assert(sizeof(WindowState) == 64, "WindowState must match the kernel's layout");

}  // namespace

struct TreeWindowSelect::Kernels {
    long long generation = -1;
    cl::Kernel pass, tileCounts, scatter;
};

TreeWindowSelect::TreeWindowSelect(ComputeContext& cc)
    : cc_(cc), ptx_(cc), k_(std::make_unique<Kernels>()) {
    const DeviceInfo& info = cc_.info();
    // window_pass's histograms and its select's scan, window_tile_counts' staged counts and their
    // scan, window_scatter's staged run (keys and their places, padded as STAGE_PAD does) and its
    // scan.
    const std::size_t staged = kTile + kTile / 16;
    const std::size_t local = std::max(
        {2 * kBins * 4 + kWg * 8 + 64, kTile * 4 + kWg * 8 + 64, staged * (8 + 2) + kWg * 8});
    if (info.maxWorkGroupSize < kWg || info.localMemBytes < local)
        throw Error("the tree's window select needs work-groups of " + std::to_string(kWg) +
                    " and " + std::to_string(local / 1024) + " KiB of local memory; " + info.name +
                    " has " + std::to_string(info.maxWorkGroupSize) + " and " +
                    std::to_string(info.localMemBytes / 1024) + " KiB");
    clBoundary("tree window select: building its kernels failed", [&] { refreshKernels(); });
}

TreeWindowSelect::~TreeWindowSelect() = default;

void TreeWindowSelect::refreshKernels() {
    ProgramCache& programs = cc_.programs();
    if (k_->generation == programs.generation()) return;
    const std::string options = "-DWG=" + std::to_string(kWg) + " -DKPT=" + std::to_string(kKpt) +
                                " -DBINS=" + std::to_string(kBins);
    Kernels k;
    k.pass = ptx_.kernel(kFile, "window_pass", options);
    k.tileCounts = ptx_.kernel(kFile, "window_tile_counts", options);
    k.scatter = programs.kernel(kFile, "window_scatter", options);
    k.generation = programs.generation();
    *k_ = std::move(k);
}

void TreeWindowSelect::reserve(std::size_t n) {
    const auto& ctx = cc_.context();
    auto make = [&](std::size_t bytes) { return cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes); };
    if (!state_()) {
        state_ = make(sizeof(WindowState));
        // The passes' and the counts' ticket starts at 0 (each launch's last work-group resets it).
        cc_.queue().enqueueFillBuffer(state_, cl_uint(0), 0, sizeof(WindowState));
        hist_ = make(2 * kBins * 4);
        histClean_ = false;
    }
    if (n <= capacity_) return;
    const std::size_t cap = std::max<std::size_t>(n + n / 8, kTile);
    const std::size_t tiles = (cap + kTile - 1) / kTile;
    listCap_ = std::max(cap / 4, kListFloor);
    try {
        tileB_ = make(tiles * 4);
        tileL_ = make(tiles * 4);
        tileH_ = make(tiles * 4);
        listKeys_ = make(listCap_ * 8);
        listPos_ = make(listCap_ * 4);
    } catch (const cl::Error& e) {
        capacity_ = 0;
        throwClError("tree window select: cannot allocate its work buffers for " +
                         std::to_string(n) + " keys",
                     e);
    }
    capacity_ = cap;
}

void TreeWindowSelect::enqueue(const cl::Buffer& keys, const cl::Buffer& index, std::size_t n,
                               std::size_t lo, std::size_t hi, const cl::Buffer& outKeys,
                               const cl::Buffer& outIndex) {
    if (lo > hi || hi > n)
        throw Error("tree window select: window [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + ") is not within 0 .. " + std::to_string(n) + " keys");
    if (n >= (std::size_t(1) << 31))
        throw Error("tree window select: " + std::to_string(n) + " keys is more than 2^31 - 1");
    events_.clear();
    commandNames_.clear();
    if (n == 0) return;
    clBoundary("tree window select failed", [&] {
        refreshKernels();
        reserve(n);
        auto& q = cc_.queue();
        if (!histClean_) q.enqueueFillBuffer(hist_, cl_uint(0), 0, 2 * kBins * 4);
        histClean_ = false;  // until every select is enqueued (each zeroes what it read)
        const cl_uint nn = static_cast<cl_uint>(n), cap = static_cast<cl_uint>(listCapFor(n));
        const std::size_t tiles = (n + kTile - 1) / kTile;
        const std::size_t units = std::max(1u, cc_.info().computeUnits);
        const std::size_t passGroups = std::min(tiles, units * kPassGroupsPerUnit);
        const auto launch = [&](cl::Kernel& k, std::size_t groups, const char* stage) {
            cl::Event e;
            q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * kWg), cl::NDRange(kWg),
                                   nullptr, &e);
            events_.emplace_back(stage, e);
            commandNames_.note(e, k);
        };
        const int passes = static_cast<int>(std::size(kShifts));
        for (int p = 0; p < passes; ++p) {
            setArgs(k_->pass, keys, nn, listKeys_, listPos_, cap, state_, hist_, tileB_, tileL_,
                    tileH_, kShifts[p], kWidths[p], p == 0 ? 1 : 0, static_cast<cl_uint>(lo),
                    static_cast<cl_uint>(hi), p + 1 == passes ? 1 : 0);
            launch(k_->pass, passGroups, "window-select");
        }
        setArgs(k_->tileCounts, keys, nn, listKeys_, listPos_, state_, tileB_, tileL_, tileH_);
        launch(k_->tileCounts, tiles, "window-counts");
        setArgs(k_->scatter, keys, index, nn, state_, tileB_, tileL_, tileH_, outKeys, outIndex);
        launch(k_->scatter, tiles, "window-scatter");
        histClean_ = true;
    });
}

std::pair<WindowSplitter, WindowSplitter> TreeWindowSelect::readSplitters() {
    WindowState s{};
    if (state_())
        clBoundary("tree window select: reading its splitters failed",
                   [&] { cc_.queue().enqueueReadBuffer(state_, CL_TRUE, 0, sizeof s, &s); });
    WindowSplitter out[2];
    for (int t = 0; t < 2; ++t) {
        out[t].exists = s.active[t] != 0;
        if (!out[t].exists) continue;
        out[t].key = s.key[t];
        out[t].index = s.splitIndex[t];
        out[t].below = s.below[t];
    }
    return {out[0], out[1]};
}

bool TreeWindowSelect::lastUsedList() {
    WindowState s{};
    if (!state_()) return false;
    clBoundary("tree window select: reading its state failed",
               [&] { cc_.queue().enqueueReadBuffer(state_, CL_TRUE, 0, sizeof s, &s); });
    return s.mode == 2;
}

}  // namespace clviz
