#pragma once
// The image lab's ImGui windows: Image (file, view, save, interop), Filters (the ordered chain
// and each filter's parameters), Histogram (plots and statistics) and Timings (per-filter device
// time, transfer time, rolling plots) plus a compact timing overlay. Each panel edits
// ImageLabControls and reports what the demo must do; none touches OpenCL or GL itself.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/image/settings.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/interop/texture_share.hpp"

namespace clviz {

// --- Image panel ---------------------------------------------------------------------------

struct ImagePanelFacts {
    std::string imageLabel;  // path, or "generated pattern"
    std::string imageNote;   // why the default image is not shown (warning), or empty
    ImageSize source;
    ImageSize result;
    InteropChoice interop;        // the path in use and why
    std::string textureFallback;  // gl-sharing abandoned at run time: why
    std::string caps;             // describeInteropCaps
    float actualSizeZoom = 1.0f;  // zoom that shows pixels 1:1
    int glMaxTextureSize = 0;
};

struct ImagePanelRequests {
    std::optional<std::string> load;  // a file to open
    std::optional<std::string> save;  // where to save the result
    bool interopChanged = false;      // controls.interop changed: recreate textures
};

using PathField = std::array<char, 1024>;

void drawImagePanel(bool* open, ImageLabControls& controls, const ImagePanelFacts& facts,
                    PathField& loadField, PathField& saveField, ImagePanelRequests& requests);

// --- Filters panel -------------------------------------------------------------------------

// Returns true when anything in the chain changed. `pipeline` answers which rotate variants can
// run on this device and source.
bool drawFiltersPanel(bool* open, ImageLabControls& controls, const ImagePipeline& pipeline,
                      const std::string& runError);

// --- Histogram panel -----------------------------------------------------------------------

// Returns true when the histogram settings changed.
bool drawHistogramPanel(bool* open, ImageLabControls& controls,
                        const std::optional<Histogram>& histogram, double histogramMs);

// Plot values for one channel: counts, or log10(1 + count) on the log scale.
std::array<float, kHistogramBins> histogramPlotValues(const Histogram& h, int channel,
                                                      HistogramScale scale);

// --- Timings panel and overlay -------------------------------------------------------------

// Rolling per-frame history for the plots.
class TimingHistory {
  public:
    static constexpr int kFrames = 240;
    void push(float chainMs, float transferMs);
    const float* total() const { return total_.data(); }  // chain + transfer per frame
    int offset() const { return next_; }
    float maxValue() const;

  private:
    std::array<float, kFrames> total_{};
    int next_ = 0;
};

struct TimingFacts {
    const std::vector<StepTiming>* steps = nullptr;  // the pipeline's last run
    double chainMs = 0;
    TextureTransferTiming transfer;  // result -> texture
    InteropPath path = InteropPath::HostCopy;
    ImageSize result;
    bool continuous = true;
    const TimingHistory* history = nullptr;
};

// `continuous` (may be null): the "run every frame" switch, shown next to the total.
void drawTimingsPanel(bool* open, const TimingFacts& facts, bool* continuous);
void drawTimingOverlay(const TimingFacts& facts);

// Bytes per second as "12.3 GB/s" for `bytes` moved in `ms`.
std::string formatRate(double bytes, double ms);

}  // namespace clviz
