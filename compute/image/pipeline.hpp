#pragma once
// The image lab's filter chain: source image -> ordered, toggleable filters -> result, plus the
// histogram of the source or the result, with every filter's device time from profiling events.
// The GUI owns one; so do the tests and the benchmark's pipeline rows.
//
// Memory: the source lives in a device buffer owned by the pipeline (RGBA8, see
// compute/image/filter.hpp); the chain ping-pongs between two more buffers, and result() is
// whichever holds the last output. A CL_RGBA / CL_UNORM_INT8 image copy of the source is kept only
// while an image-object rotate variant needs it (an image variant later in the chain gets its input
// copied into an image, timed as its own step).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/image/equalize.hpp"
#include "compute/image/grayscale.hpp"
#include "compute/image/histogram.hpp"
#include "compute/image/image.hpp"
#include "compute/image/noise_filters.hpp"
#include "compute/image/rotate.hpp"
#include "compute/image/transpose.hpp"

namespace clviz {

class ComputeContext;

enum class FilterKind { Rotate, Transpose, Mean3, Median3, Grayscale, Equalize };
constexpr int kFilterKindCount = 6;

// Indexed by FilterKind: id ("median3"), name ("Median 3x3"), description.
const VariantInfo& filterKindInfo(FilterKind kind);

struct FilterStep {
    FilterKind kind = FilterKind::Rotate;
    bool enabled = true;
    RotateParams rotate;      // used when kind == Rotate
    EqualizeParams equalize;  // used when kind == Equalize
};

// One line of the timings panel.
struct StepTiming {
    std::string label;  // "rotate (image + sampler, bilinear)", "copy to image for rotate"
    double ms = 0;      // device time from profiling events
};

enum class HistogramOf { Source, Result };

struct HistogramSettings {
    bool enabled = true;
    HistogramVariant variant = HistogramVariant::LocalAtomics;
    HistogramOf of = HistogramOf::Result;
};

class ImagePipeline {
  public:
    explicit ImagePipeline(ComputeContext& cc);
    ~ImagePipeline();
    ImagePipeline(const ImagePipeline&) = delete;
    ImagePipeline& operator=(const ImagePipeline&) = delete;

    // One step of each kind in the default order: rotate on (0 degrees, buffer bilinear), the
    // others off.
    static std::vector<FilterStep> defaultSteps();

    // --- device capabilities --------------------------------------------------------------
    bool imagesSupported() const;
    // Whether a rotate variant can run on the current source (or on `size`); `why` says why not.
    bool rotateAvailable(RotateVariant variant, std::string* why = nullptr) const;

    // --- source ---------------------------------------------------------------------------
    // Uploads a host image (blocking). Throws clviz::Error when it is empty or too large for
    // the device; the previous source is kept then.
    void setSource(const Rgba8Image& image);
    // Copies `size` RGBA8 pixels from another device buffer (e.g. one SharedTexture::copyTo
    // filled). Returns after the copy has finished.
    void setSource(const cl::Buffer& pixels, ImageSize size);
    bool hasSource() const { return !sourceSize_.empty(); }
    ImageSize sourceSize() const { return sourceSize_; }
    const cl::Buffer& sourceBuffer() const { return source_; }

    // --- chain ----------------------------------------------------------------------------
    // Edit freely between run() calls: order, enabled flags, parameters.
    std::vector<FilterStep>& steps() { return steps_; }
    const std::vector<FilterStep>& steps() const { return steps_; }
    HistogramSettings& histogramSettings() { return histogramSettings_; }

    // Size run() will produce for the current source and steps (expand-to-fit rotation and
    // transpose change it). Empty without a source.
    ImageSize outputSize() const;

    // Runs the enabled steps in order, then the histogram if enabled; waits for the device and
    // collects the timings. Throws clviz::Error before enqueuing anything when a step cannot run
    // (no source, an image variant on a device without images, an output too large); the
    // previous result stays valid then.
    void run();

    // Live reload: drops the filters' kernels so the next run() fetches fresh ones from the
    // program cache. The source, the chain and the last result stay.
    void reloadKernels();

    // --- results of the last run() ----------------------------------------------------------
    // Holds resultSize() RGBA8 pixels at offset 0 (the buffer may be larger). With no enabled
    // step this is the source buffer.
    const cl::Buffer& result() const;
    ImageSize resultSize() const { return resultSize_; }
    Rgba8Image readResult();  // blocking read of result()
    // One RGBA8 pixel of the result (blocking; 4 bytes): x < resultSize().width, y < height.
    std::array<std::uint8_t, 4> resultPixel(int x, int y);

    // One entry per enabled step (plus conversions), then the histogram when enabled.
    const std::vector<StepTiming>& timings() const { return timings_; }
    double totalMs() const;  // sum of timings()

    // The histogram of the last run(), when enabled.
    const std::optional<Histogram>& histogram() const { return histogram_; }

  private:
    struct Impl;
    ComputeContext& cc_;
    std::unique_ptr<Impl> impl_;
    cl::Buffer source_;
    ImageSize sourceSize_;
    std::vector<FilterStep> steps_;
    HistogramSettings histogramSettings_;
    ImageSize resultSize_;
    std::vector<StepTiming> timings_;
    std::optional<Histogram> histogram_;
};

}  // namespace clviz
