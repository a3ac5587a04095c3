#include "compute/image/histogram.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

namespace {

constexpr VariantInfo kVariants[kHistogramVariantCount] = {
    {"bytes", "Byte sub-histograms (course original)",
     "Each work-item counts into its own 8-bit bins in local memory, no atomics; a counter at "
     "255 carries into 32 bits (the course original's overflow, fixed)."},
    {"local-atomics", "Local atomics",
     "Each work-group counts with local-memory atomics into its own copy of the bins, then adds "
     "them to the result with one global atomic per bin."},
    {"global-atomics", "Global atomics",
     "Every pixel increments the final bins in global memory directly: simple, and contended."},
};

constexpr int kBins = kHistogramChannels * kHistogramBins;
static_assert(sizeof(Histogram::bins) == sizeof(cl_uint) * kBins, "bins are read as one block");

// One wave: 2048 resident work-items per compute unit (NVIDIA's limit; on CPUs the loop makes up
// for it). More groups only add per-group merges (1024 global atomics each).
int defaultGroups(const DeviceInfo& info, std::size_t wg) {
    return static_cast<int>(std::max(1u, info.computeUnits) *
                            std::max<std::size_t>(1, 2048 / std::max<std::size_t>(1, wg)));
}

int ceilDiv(std::size_t n, std::size_t d) {
    return static_cast<int>((n + d - 1) / d);
}

}  // namespace

const VariantInfo& histogramVariantInfo(HistogramVariant variant) {
    return kVariants[static_cast<int>(variant)];
}

const char* histogramChannelName(int channel) {
    static const char* names[kHistogramChannels] = {"R", "G", "B", "Luma"};
    return channel >= 0 && channel < kHistogramChannels ? names[channel] : "?";
}

ChannelStats Histogram::stats(int channel) const {
    const auto& h = bins.at(static_cast<std::size_t>(channel));
    ChannelStats s;
    double sum = 0;
    for (int v = 0; v < kHistogramBins; ++v) {
        s.count += h[v];
        sum += static_cast<double>(v) * h[v];
    }
    if (s.count == 0) return s;
    s.mean = sum / static_cast<double>(s.count);
    s.min = static_cast<int>(std::find_if(h.begin(), h.end(), [](auto n) { return n != 0; }) -
                             h.begin());
    s.max = kHistogramBins - 1 -
            static_cast<int>(std::find_if(h.rbegin(), h.rend(), [](auto n) { return n != 0; }) -
                             h.rbegin());
    std::uint64_t cumulative = 0;
    for (int v = 0; v < kHistogramBins; ++v) {
        cumulative += h[v];
        if (2 * cumulative >= s.count) {
            s.median = v;
            break;
        }
    }
    return s;
}

ImageHistogram::ImageHistogram(ComputeContext& cc)
    : cc_(cc),
      totals_(cc.context(), CL_MEM_READ_WRITE, binsBytes()),
      ticket_(cc.context(), CL_MEM_READ_WRITE, sizeof(cl_uint)) {
    // The kernels leave both at zero after every launch; they start at zero here.
    cc.queue().enqueueFillBuffer(totals_, cl_uint(0), 0, binsBytes());
    cc.queue().enqueueFillBuffer(ticket_, cl_uint(0), 0, sizeof(cl_uint));
}

cl::Kernel& ImageHistogram::kernel(const char* name, const std::string& options) {
    const std::string key = std::string(name) + " " + options;
    auto it = kernels_.find(key);
    if (it == kernels_.end())
        it = kernels_.emplace(key, cc_.programs().kernel("histogram.cl", name, options)).first;
    return it->second;
}

ImageHistogram::Launch ImageHistogram::plan(HistogramVariant variant, ImageSize size,
                                            const HistogramTuning& tuning) {
    const DeviceInfo& info = cc_.info();
    const std::size_t count = size.pixels();
    Launch launch;
    const std::string coverage = tuning.coverage ? " -DCOVERAGE" : "";
    std::size_t wg = 0;
    std::size_t itemsNeeded = count;  // work-items that still have a pixel to count
    switch (variant) {
        case HistogramVariant::ByteSubHistograms: {
            // 1 KiB of byte counters per work-item plus the 4 KiB carry bins; a multiple of 4.
            std::size_t fit = 32;
            while (fit > 4 && fit * kBins + 4 * kBins > info.localMemBytes)
                fit /= 2;
            wg = tuning.workGroupSize > 0 ? static_cast<std::size_t>(tuning.workGroupSize) : fit;
            if (wg % 4 != 0 || wg * kBins + 4 * kBins > info.localMemBytes)
                throw Error("byte sub-histograms: work-group size " + std::to_string(wg) +
                            " must be a multiple of 4 and fit " + std::to_string(wg) +
                            " KiB + 4 KiB in local memory (" + formatBytes(info.localMemBytes) +
                            ")");
            launch.kernel = &kernel("histogram_bytes", "-DWG=" + std::to_string(wg) + coverage);
            break;
        }
        case HistogramVariant::LocalAtomics: {
            const std::size_t replicas =
                tuning.replicas > 0 ? static_cast<std::size_t>(tuning.replicas) : 1;
            if (replicas * kBins * 4 > info.localMemBytes)
                throw Error("local-atomics histogram: " + std::to_string(replicas) +
                            " replicas need " + formatBytes(replicas * kBins * 4) +
                            " of local memory; the device has " + formatBytes(info.localMemBytes));
            // The kernel is built for its work-group size (GROUP_SIZE in histogram.cl): by
            // default 1024, or the device's maximum if lower.
            wg = tuning.workGroupSize > 0
                     ? static_cast<std::size_t>(tuning.workGroupSize)
                     : std::min<std::size_t>({1024, info.maxWorkGroupSize, localAtomicsCap_});
            if (wg > info.maxWorkGroupSize)
                throw Error("local-atomics histogram: work-group size " + std::to_string(wg) +
                            " is above " + info.name + "'s maximum (" +
                            std::to_string(info.maxWorkGroupSize) + ")");
            const char* skip = tuning.bins == HistogramBins::LumaOnly  ? " -DSKIP_RGB"
                               : tuning.bins == HistogramBins::RgbOnly ? " -DSKIP_LUMA"
                                                                       : "";
            launch.kernel = &kernel("histogram_local", "-DREPLICAS=" + std::to_string(replicas) +
                                                           " -DGROUP_SIZE=" + std::to_string(wg) +
                                                           skip + coverage);
            itemsNeeded = std::max<std::size_t>(count / 4, count % 4);
            break;
        }
        case HistogramVariant::GlobalAtomics:
            launch.kernel = &kernel("histogram_global", coverage);
            wg = tuning.workGroupSize > 0 ? static_cast<std::size_t>(tuning.workGroupSize) : 256;
            itemsNeeded = std::max<std::size_t>(count / 4, count % 4);
            break;
    }
    // What this kernel can run with on this device (registers, local memory) caps the size,
    // except for local atomics: NVIDIA's driver (580) reports 256 for every kernel, whatever its
    // registers, even one declared for 1024 work-items, and then runs that one at 1024 without
    // complaint, correctly and faster (8192^2 test pattern on the H200: 88% of copy bandwidth
    // against 82% at 256). The size that kernel was built for is tried; enqueue() falls back if
    // the driver refuses it.
    launch.reportedLimit =
        std::min(info.maxWorkGroupSize,
                 launch.kernel->getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc_.device()));
    launch.workGroupSize =
        variant == HistogramVariant::LocalAtomics ? wg : std::min(wg, launch.reportedLimit);
    if (variant == HistogramVariant::ByteSubHistograms && wg > launch.reportedLimit)
        throw Error("byte sub-histograms: work-group size " + std::to_string(wg) +
                    " is above this kernel's limit on " + info.name + " (" +
                    std::to_string(launch.reportedLimit) + ")");
    // The kernels loop over the image, so one wave of groups keeps every unit busy while keeping
    // the per-group merge (one atomic per bin) cheap. Small images get fewer.
    const int maxGroups =
        tuning.groups > 0 ? tuning.groups : defaultGroups(info, launch.workGroupSize);
    launch.groups = std::clamp(ceilDiv(itemsNeeded, launch.workGroupSize), 1, maxGroups);
    return launch;
}

std::string ImageHistogram::describeLaunch(HistogramVariant variant, ImageSize size,
                                           const HistogramTuning& tuning) {
    const Launch launch = plan(variant, size, tuning);
    return std::to_string(launch.groups) + " groups of " + std::to_string(launch.workGroupSize);
}

EnqueuedWork ImageHistogram::enqueue(HistogramVariant variant, const cl::Buffer& pixels,
                                     ImageSize size, const cl::Buffer& bins,
                                     const HistogramTuning& tuning) {
    checkDeviceBufferFits(cc_.info(), size, "the image to histogram");
    const Launch launch = plan(variant, size, tuning);
    cl::Kernel& k = *launch.kernel;
    cl_uint arg = 0;
    k.setArg(arg++, pixels);
    if (variant != HistogramVariant::ByteSubHistograms) k.setArg(arg++, pixels);  // as uint4 too
    k.setArg(arg++, static_cast<cl_uint>(size.pixels()));
    k.setArg(arg++, bins);
    k.setArg(arg++, totals_);
    k.setArg(arg++, ticket_);
    if (const auto& g = tuning.coverage) {
        if (g->dst != size)
            throw Error("histogram coverage: the rotate makes " + std::to_string(g->dst.width) +
                        " x " + std::to_string(g->dst.height) + ", the image is " +
                        std::to_string(size.width) + " x " + std::to_string(size.height));
        k.setArg(arg++, static_cast<cl_uint>(g->dst.width));
        k.setArg(arg++, static_cast<cl_int>(g->src.width));
        k.setArg(arg++, static_cast<cl_int>(g->src.height));
        k.setArg(arg++, cl_float4{{g->c, g->s, g->srcCx, g->srcCy}});
        k.setArg(arg++, cl_float2{{g->dstCx, g->dstCy}});
    }
    EnqueuedWork work;
    try {
        cc_.queue().enqueueNDRangeKernel(k, cl::NullRange,
                                         cl::NDRange(launch.groups * launch.workGroupSize),
                                         cl::NDRange(launch.workGroupSize), nullptr, &work.last);
    } catch (const cl::Error& e) {
        // A driver that does hold us to its reported limit: use it from now on, unless the
        // caller asked for this size.
        const bool refused =
            e.err() == CL_INVALID_WORK_GROUP_SIZE || e.err() == CL_OUT_OF_RESOURCES;
        if (!refused || launch.workGroupSize <= launch.reportedLimit) throw;
        if (tuning.workGroupSize > 0)
            throw Error("local-atomics histogram: " + cc_.info().name + " refused work-groups of " +
                        std::to_string(launch.workGroupSize) + " (it reports " +
                        std::to_string(launch.reportedLimit) + " for this kernel)");
        localAtomicsCap_ = launch.reportedLimit;
        return enqueue(variant, pixels, size, bins, tuning);
    }
    work.first = work.last;
    return work;
}

Histogram ImageHistogram::compute(HistogramVariant variant, const cl::Buffer& pixels,
                                  ImageSize size, double* ms, const HistogramTuning& tuning) {
    if (!bins_()) bins_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, binsBytes());
    const EnqueuedWork work = enqueue(variant, pixels, size, bins_, tuning);
    Histogram h;
    cc_.queue().enqueueReadBuffer(bins_, CL_TRUE, 0, binsBytes(), h.bins.data());
    if (ms) *ms = work.milliseconds();
    return h;
}

}  // namespace clviz
