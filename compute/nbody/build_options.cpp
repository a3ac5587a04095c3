#include "compute/nbody/build_options.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "compute/core/device_info.hpp"
#include "compute/core/inline_ptx.hpp"

namespace clviz {

namespace {

int floorPow2(std::size_t v) {
    return v == 0 ? 1 : static_cast<int>(std::bit_floor(std::min<std::size_t>(v, 1 << 30)));
}

// Appends to a "; "-separated note.
struct Note {
    std::string text;
    void say(const std::string& s) { text += (text.empty() ? "" : "; ") + s; }
};

// The work-group size the device (its limit, its local memory) and the variant allow.
void clampToDevice(NbodyKernelConfig& c, NbodyPrecision p, const DeviceInfo& dev, Note& note) {
    const NbodyVariant v = c.variant;
    const int deviceMax = floorPow2(std::min<std::size_t>(dev.maxWorkGroupSize, 1024));
    if (c.workGroupSize > deviceMax) {
        note.say("work-group size " + std::to_string(c.workGroupSize) +
                 " exceeds the device limit; using " + std::to_string(deviceMax));
        c.workGroupSize = deviceMax;
    }
    const std::size_t localLimit = dev.localMemBytes ? dev.localMemBytes : 16384;
    while (c.workGroupSize > 1 && nbodyLocalBytes(v, c.workGroupSize, p) > localLimit) {
        note.say("work-group size " + std::to_string(c.workGroupSize) + " needs " +
                 formatBytes(nbodyLocalBytes(v, c.workGroupSize, p)) +
                 " of local memory (device has " + formatBytes(localLimit) + ")");
        c.workGroupSize /= 2;
    }
    if (v == NbodyVariant::Vectorized && c.workGroupSize < 4) {
        note.say("vectorized needs work-groups of at least 4");
        c.workGroupSize = std::min(4, deviceMax);
    }
}

// small-n with split 0: the smallest split that gives every compute unit >= 4 work-groups.
int fillingSplit(const NbodyKernelConfig& c, std::size_t n, unsigned computeUnits) {
    const std::size_t want = 4 * std::max(1u, computeUnits);
    const int wg = c.workGroupSize;
    int split = 1;
    while (split < std::min(32, wg) && (n + (std::size_t(wg) / split) * c.bodiesPerItem - 1) /
                                               ((std::size_t(wg) / split) * c.bodiesPerItem) <
                                           want)
        split *= 2;
    return split;
}

}  // namespace

int vectorizedWidth(const DeviceInfo& dev, NbodyPrecision precision, int workGroupSize) {
    // An expert override (and how the tests reach every width on one device).
    if (const char* env = std::getenv("CLVIZ_NBODY_VECTOR_WIDTH"); env && *env) {
        const int w = std::atoi(env);
        if (w == 4 || w == 8 || w == 16) return std::min(w, std::max(4, workGroupSize));
    }
    const unsigned native =
        precision == NbodyPrecision::Double ? dev.nativeDoubleWidth : dev.nativeFloatWidth;
    int w = 4;
    while (w < 16 && unsigned(w) < native)
        w *= 2;
    // A tile of WG bodies holds WG / VW vectors: at least one.
    while (w > 4 && w > workGroupSize)
        w /= 2;
    return w;
}

namespace {

std::string buildOptions(const NbodyKernelConfig& c, const NbodyForceBuildRequest& r,
                         const DeviceInfo& dev) {
    const bool nvidia = dev.hasExtension("cl_nv_compiler_options");
    const int wg = c.workGroupSize;
    // Fast math, as CUDA's -use_fast_math: native_rsqrt maps to the hardware approximation and
    // arithmetic may flush denormals (NVIDIA still emits the denormal-safe rsqrt for
    // native_rsqrt, hence NV_INLINE_PTX below: kernels/common/gravity.clh).
    std::string options = "-cl-fast-relaxed-math -cl-mad-enable -cl-denorms-are-zero -D";
    options += variantDefine(c.variant);
    options += " -DWG=" + std::to_string(wg) + " -DUNROLL=" + std::to_string(c.unroll) +
               " -DBPI=" + std::to_string(c.bodiesPerItem) + " -DSPLIT=" + std::to_string(c.split);
    if (c.variant == NbodyVariant::Vectorized)
        options += " -DVW=" + std::to_string(vectorizedWidth(dev, r.precision, wg));
    if (static_cast<double>(r.softening) * r.softening < 1e-30) options += " -DSELF_GUARD";
    if (r.precision == NbodyPrecision::Double)
        options += " -DREAL_DOUBLE";
    else if (r.inlinePtx && nvidia)
        options += std::string(" -D") + kInlinePtxDefine;
    // Groups above 256 need at most 65536 / wg registers per work-item: say so to NVIDIA's
    // compiler. (Its driver still reported CL_KERNEL_WORK_GROUP_SIZE = 256 for these kernels
    // on the H200, so they get clamped; see docs/benchmarks.md.)
    if (wg > 256 && nvidia)
        options += " -cl-nv-maxrregcount=" + std::to_string(std::min(255, 65536 / wg / 8 * 8));
    if (r.verboseBuildLog && nvidia) options += " -cl-nv-verbose";
    return options;
}

}  // namespace

NbodyKernelConfig nbodyDeviceDefaults(NbodyVariant v, bool gpu, std::size_t n,
                                      unsigned computeUnits) {
    const NbodyVariantRow& row = variantRow(v);
    const NbodyLaunchDefaults& d = gpu ? row.gpu : row.cpu;
    NbodyKernelConfig c;
    c.variant = v;
    c.split = 0;
    c.workGroupSize = d.workGroupSize;
    c.unroll = d.unroll;
    c.bodiesPerItem = d.bodiesPerItem;
    if (!row.fewerBodiesPerItemAtSmallN) return c;
    // Bodies per item shrink for small N so the GPU keeps enough work-groups (small-n gets there
    // by splitting instead). 1.5 groups per compute unit: on the H200 two resident groups of 4
    // bodies per item beat four of 2 at N = 2^18 (docs/benchmarks.md).
    const std::size_t want = 3 * std::max(1u, computeUnits) / 2;
    while (gpu && c.bodiesPerItem > 1 &&
           n / (static_cast<std::size_t>(c.workGroupSize) * c.bodiesPerItem) < want)
        c.bodiesPerItem /= 2;
    return c;
}

NbodyKernelConfig resolveKernelConfig(const NbodyKernelConfig& requested,
                                      const NbodyKernelConfig& defaults,
                                      const NbodyKernelConfig* tuned) {
    NbodyKernelConfig c = defaults;
    c.variant = requested.variant;
    for (int NbodyKernelConfig::*field :
         {&NbodyKernelConfig::workGroupSize, &NbodyKernelConfig::unroll,
          &NbodyKernelConfig::bodiesPerItem, &NbodyKernelConfig::split}) {
        if (tuned) c.*field = tuned->*field;
        if (requested.*field) c.*field = requested.*field;
    }
    return c;
}

std::size_t nbodyLocalBytes(NbodyVariant v, int wg, NbodyPrecision p) {
    const std::size_t body = 4 * (p == NbodyPrecision::Double ? 8 : 4);
    return variantRow(v).localTiles * body * wg;
}

NbodyForceBuild nbodyForceBuild(const NbodyForceBuildRequest& r, const DeviceInfo& dev) {
    NbodyKernelConfig c = r.config;
    const NbodyVariant v = c.variant;
    Note note;
    clampToDevice(c, r.precision, dev, note);
    if (!usesTileBlocking(v)) c.unroll = c.bodiesPerItem = 1;
    if (!tunablesOf(v).split) c.split = 1;
    // small-n's split follows the size asked of the device, before a kernel limit shrinks it.
    if (v == NbodyVariant::SmallN && c.split == 0) c.split = fillingSplit(c, r.n, dev.computeUnits);
    // WG is compiled in: a kernel that cannot run the size it was built for is rebuilt smaller.
    if (r.kernelMaxWorkGroup && r.kernelMaxWorkGroup < std::size_t(c.workGroupSize) &&
        c.workGroupSize > 1) {
        note.say("this kernel runs at most " + std::to_string(r.kernelMaxWorkGroup) +
                 " work-items per group on " + dev.name + "; using " +
                 std::to_string(floorPow2(r.kernelMaxWorkGroup)));
        c.workGroupSize = floorPow2(r.kernelMaxWorkGroup);
    }
    const int wg = c.workGroupSize;
    if (v == NbodyVariant::SmallN) c.split = std::min(c.split, wg);
    const int walk =
        v == NbodyVariant::Vectorized ? wg / vectorizedWidth(dev, r.precision, wg) : wg / c.split;
    if (usesTileBlocking(v) && c.unroll > walk) c.unroll = std::max(1, walk);

    NbodyForceBuild b;
    b.config = c;
    b.options = buildOptions(c, r, dev);
    b.bodiesPerGroup =
        v == NbodyVariant::Naive ? wg : static_cast<std::size_t>(wg / c.split) * c.bodiesPerItem;
    b.note = std::move(note.text);
    return b;
}

}  // namespace clviz
