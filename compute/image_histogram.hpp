#pragma once
// 256-bin histograms of R, G, B and luma (luma8 in image_filter.hpp) on the device
// (kernels/histogram.cl), every variant reducing to the final bins on the device too. Alpha is
// not counted; every pixel counts once per channel whatever its alpha.
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "compute/image_filter.hpp"

namespace clviz {

class ComputeContext;

enum class HistogramVariant {
    ByteSubHistograms,  // the seed: one 8-bit sub-histogram per work-item in local memory,
                        // with its overflow fixed (a counter at 255 carries into 32 bits)
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

// Launch shape; 0 picks the default for the device. Tests force few groups so every work-item
// sees many pixels (the 255-overflow case); the benchmark sweeps the work-group size.
struct HistogramTuning {
    int groups = 0;         // work-groups (the kernels loop over the image): default 8 per CU
    int workGroupSize = 0;  // LocalAtomics, GlobalAtomics: default 256. ByteSubHistograms:
                            // default 32 (each work-item owns 1 KiB of local memory)
    int replicas = 0;       // LocalAtomics: copies of the bins per work-group, default 4
};

class ImageHistogram {
  public:
    explicit ImageHistogram(ComputeContext& cc);

    // Bins of the `size` RGBA8 pixels in `pixels` into `bins`, a buffer of at least
    // kHistogramChannels * kHistogramBins cl_uint (channel-major: R bins, G, B, luma).
    EnqueuedWork enqueue(HistogramVariant variant, const cl::Buffer& pixels, ImageSize size,
                         const cl::Buffer& bins, const HistogramTuning& tuning = {});

    // enqueue() into an internal buffer, then read the bins back. `ms` receives the device time.
    Histogram compute(HistogramVariant variant, const cl::Buffer& pixels, ImageSize size,
                      double* ms = nullptr, const HistogramTuning& tuning = {});

    // Bytes of `bins` buffer to allocate.
    static constexpr std::size_t binsBytes() {
        return sizeof(std::uint32_t) * kHistogramChannels * kHistogramBins;
    }

  private:
    cl::Kernel& kernel(const char* name, const std::string& options);

    ComputeContext& cc_;
    std::map<std::string, cl::Kernel> kernels_;  // by name + build options
    cl::Buffer bins_;
};

}  // namespace clviz
