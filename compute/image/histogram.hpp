#pragma once
// 256-bin histograms of R, G, B and luma (luma8 in compute/image/filter.hpp) on the device
// (kernels/histogram.cl), every variant reducing to the final bins on the device too. Alpha is
// not counted; every pixel counts once per channel whatever its alpha, except the fill of a
// rotate when HistogramTuning::coverage names it.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "compute/image/filter.hpp"
#include "compute/image/rotate.hpp"

namespace clviz {

class ComputeContext;

enum class HistogramVariant {
    ByteSubHistograms,  // the course's original: one 8-bit sub-histogram per work-item in local
                        // memory, its overflow fixed (a counter at 255 carries into 32 bits)
    LocalAtomics,       // replicated 32-bit histograms per work-group, local atomics
    GlobalAtomics,      // every pixel does atomic_inc on the final bins in global memory
};
constexpr int kHistogramVariantCount = 3;

const VariantInfo& histogramVariantInfo(HistogramVariant variant);

enum HistogramChannel : int { kRed = 0, kGreen = 1, kBlue = 2, kLuma = 3 };
constexpr int kHistogramChannels = 4;
constexpr int kHistogramBins = 256;
const char* histogramChannelName(int channel);  // "R", "G", "B", "Luma"

struct ChannelStats {
    std::uint64_t count = 0;  // pixels counted (the same for every channel)
    int min = 0;              // lowest value present (0 for an empty histogram)
    int max = 0;              // highest value present
    double mean = 0;
    int median = 0;  // lower median: smallest v with at least half the pixels <= v
};

struct Histogram {
    // bins[channel][value]; channel is a HistogramChannel.
    std::array<std::array<std::uint32_t, kHistogramBins>, kHistogramChannels> bins{};

    ChannelStats stats(int channel) const;
    friend bool operator==(const Histogram&, const Histogram&) = default;
};

// Which bins a histogram counts. Equalization needs only the luma bins (or only R, G and B);
// counting fewer saves local atomics. Only LocalAtomics honours it; the others count all.
enum class HistogramBins { All, RgbOnly, LumaOnly };

// Launch shape; 0 picks the default for the device. Tests force few groups so every work-item
// sees many pixels (the 255-overflow case); the benchmark sweeps the work-group size.

struct HistogramTuning {
    // Work-groups (the kernels loop over the image): by default enough to fill the device once
    // (2048 work-items per compute unit).
    int groups = 0;
    // LocalAtomics: default 1024 (or the device maximum). GlobalAtomics: 256.
    // ByteSubHistograms: 32 (each work-item owns 1 KiB of local memory).
    int workGroupSize = 0;
    // LocalAtomics: copies of the bins per work-group, default 1.
    int replicas = 0;
    HistogramBins bins = HistogramBins::All;  // the bins left out stay at zero
    // For an image a rotate made (or one of the same size filtered since): count only the pixels
    // whose centre maps inside that rotate's source, leaving out the fill around the picture.
    // The image's width must be coverage->dst.width.
    std::optional<RotateGeometry> coverage;
};

class ImageHistogram {
  public:
    explicit ImageHistogram(ComputeContext& cc);

    // Bins of the `size` RGBA8 pixels in `pixels` into `bins`, a buffer of at least
    // kHistogramChannels * kHistogramBins cl_uint (channel-major: R bins, G, B, luma), written
    // whole (no need to clear it). One kernel: the reduction and the final write happen on the
    // device, through running totals this object keeps zeroed between launches, so launches of one
    // ImageHistogram must go through its context's in-order queue, as they do.
    EnqueuedWork enqueue(HistogramVariant variant, const cl::Buffer& pixels, ImageSize size,
                         const cl::Buffer& bins, const HistogramTuning& tuning = {});

    // enqueue() into an internal buffer, then read the bins back. `ms` receives the device time.
    Histogram compute(HistogramVariant variant, const cl::Buffer& pixels, ImageSize size,
                      double* ms = nullptr, const HistogramTuning& tuning = {});

    // Bytes of `bins` buffer to allocate.
    static constexpr std::size_t binsBytes() {
        return sizeof(std::uint32_t) * kHistogramChannels * kHistogramBins;
    }

    // The launch enqueue() would use, for reports: "264 groups of 1024".
    std::string describeLaunch(HistogramVariant variant, ImageSize size,
                               const HistogramTuning& tuning = {});

  private:
    struct Launch {
        cl::Kernel* kernel = nullptr;
        std::size_t workGroupSize = 0;
        std::size_t reportedLimit = 0;  // CL_KERNEL_WORK_GROUP_SIZE, capped by the device's
        int groups = 0;
    };
    // Kernel and shape for `variant` on this device; throws clviz::Error for impossible tunings.
    Launch plan(HistogramVariant variant, ImageSize size, const HistogramTuning& tuning);
    cl::Kernel& kernel(const char* name, const std::string& options);

    ComputeContext& cc_;
    std::map<std::string, cl::Kernel> kernels_;  // by name + build options
    cl::Buffer bins_;
    cl::Buffer totals_;  // running totals of the launch in flight; all zero between launches
    cl::Buffer ticket_;  // work-groups done with the launch in flight; zero between launches
    // Default local-atomics work-group size cap, lowered once if the driver refuses a launch.
    std::size_t localAtomicsCap_ = SIZE_MAX;
};

}  // namespace clviz
