#pragma once
// Histogram equalization (kernels/equalize.cl), all on the device, in two kernels: the histogram
// (any HistogramVariant; local atomics count only the bins the mode needs), then one kernel that
// builds a 256-entry lookup table per channel from the cumulative counts in every work-group and
// applies it to the image. Alpha is kept.
//
// Table, in integers so the device and the CPU agree exactly: with N pixels, cdf(v) the count of
// values <= v and cdfMin the cdf of the lowest value present,
//     lut[v] = ((cdf(v) - cdfMin) * 255 + (N - cdfMin) / 2) / (N - cdfMin)
// (0 below the lowest value; the identity when the channel has a single value).
//
// After a rotate, N and the counts are those of the picture alone, as in the histogram the lab
// shows: the fill around it is left out of the counts (HistogramTuning::coverage) but, like every
// pixel, mapped through the table.
#include <optional>

#include "compute/image/histogram.hpp"
#include "compute/image/rotate.hpp"

namespace clviz {

class ComputeContext;

enum class EqualizeMode {
    Luma,        // one table from the luma histogram, applied to R, G and B: hues mostly kept
    PerChannel,  // R, G and B each equalized with its own table: maximum contrast, hues shift
};

struct EqualizeParams {
    EqualizeMode mode = EqualizeMode::Luma;
    HistogramVariant histogram = HistogramVariant::LocalAtomics;
};

class ImageEqualize {
  public:
    explicit ImageEqualize(ComputeContext& cc);

    // `src` and `dst` hold `size` RGBA8 pixels (they may be the same buffer). `coverage`: the
    // rotate that made `src` (or an image of its size filtered since), whose fill is not counted.
    EnqueuedWork enqueue(const EqualizeParams& params, const cl::Buffer& src, ImageSize size,
                         const cl::Buffer& dst,
                         const std::optional<RotateGeometry>& coverage = std::nullopt);

  private:
    ComputeContext& cc_;
    ImageHistogram histogram_;
    cl::Kernel apply_;
    cl::Buffer bins_;
};

}  // namespace clviz
