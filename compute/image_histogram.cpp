#include "compute/image_histogram.hpp"

#include <algorithm>

#include "compute/compute_context.hpp"
#include "compute/error.hpp"
#include "compute/program_cache.hpp"

namespace clviz {

namespace {

constexpr VariantInfo kVariants[kHistogramVariantCount] = {
    {"bytes", "Byte sub-histograms (seed)",
     "Each work-item counts into its own 8-bit bins in local memory, no atomics; a counter at "
     "255 carries into 32 bits (the seed's overflow, fixed)."},
    {"local-atomics", "Local atomics",
     "Each work-group counts with local-memory atomics into a few interleaved copies of the bins, "
     "then adds them to the result with one global atomic per bin."},
    {"global-atomics", "Global atomics",
     "Every pixel increments the final bins in global memory directly: simple, and contended."},
};

constexpr int kBins = kHistogramChannels * kHistogramBins;
static_assert(sizeof(Histogram::bins) == sizeof(cl_uint) * kBins, "bins are read as one block");

int defaultGroups(const DeviceInfo& info) {
    return 8 * static_cast<int>(std::max(1u, info.computeUnits));
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

ImageHistogram::ImageHistogram(ComputeContext& cc) : cc_(cc) {}

cl::Kernel& ImageHistogram::kernel(const char* name, const std::string& options) {
    const std::string key = std::string(name) + " " + options;
    auto it = kernels_.find(key);
    if (it == kernels_.end())
        it = kernels_.emplace(key, cc_.programs().kernel("histogram.cl", name, options)).first;
    return it->second;
}

EnqueuedWork ImageHistogram::enqueue(HistogramVariant variant, const cl::Buffer& pixels,
                                     ImageSize size, const cl::Buffer& bins,
                                     const HistogramTuning& tuning) {
    checkDeviceBufferFits(cc_.info(), size, "the image to histogram");
    const DeviceInfo& info = cc_.info();
    const std::size_t count = size.pixels();
    const int maxGroups = tuning.groups > 0 ? tuning.groups : defaultGroups(info);

    std::size_t wg = 0;
    cl::Kernel* k = nullptr;
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
            k = &kernel("histogram_bytes", "-DWG=" + std::to_string(wg));
            k->setArg(0, pixels);
            k->setArg(1, static_cast<cl_uint>(count));
            k->setArg(2, bins);
            break;
        }
        case HistogramVariant::LocalAtomics:
        case HistogramVariant::GlobalAtomics: {
            if (variant == HistogramVariant::LocalAtomics) {
                std::size_t replicas =
                    tuning.replicas > 0 ? static_cast<std::size_t>(tuning.replicas) : 4;
                if (tuning.replicas <= 0)
                    while (replicas > 1 && replicas * kBins * 4 > info.localMemBytes)
                        replicas /= 2;
                if (replicas * kBins * 4 > info.localMemBytes)
                    throw Error("local-atomics histogram: " + std::to_string(replicas) +
                                " replicas need " + formatBytes(replicas * kBins * 4) +
                                " of local memory; the device has " +
                                formatBytes(info.localMemBytes));
                k = &kernel("histogram_local", "-DREPLICAS=" + std::to_string(replicas));
            } else {
                k = &kernel("histogram_global", "");
            }
            wg = tuning.workGroupSize > 0 ? static_cast<std::size_t>(tuning.workGroupSize) : 256;
            itemsNeeded = std::max<std::size_t>(count / 4, count % 4);
            k->setArg(0, pixels);
            k->setArg(1, pixels);
            k->setArg(2, static_cast<cl_uint>(count));
            k->setArg(3, bins);
            break;
        }
    }
    wg = std::min(wg, info.maxWorkGroupSize);
    // The kernels loop over the image, so a few groups per compute unit keep every unit busy
    // while keeping the per-group merge (one atomic per bin) cheap. Small images get fewer.
    const int groups = std::clamp(ceilDiv(itemsNeeded, wg), 1, maxGroups);

    auto& queue = cc_.queue();
    EnqueuedWork work;
    queue.enqueueFillBuffer(bins, cl_uint(0), 0, binsBytes(), nullptr, &work.first);
    queue.enqueueNDRangeKernel(*k, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg),
                               nullptr, &work.last);
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
