#pragma once
// What the user steers in the image lab besides the image itself: the filter chain, histogram,
// spin, view and interop request, and the `--set key=value` / Demo::set language over them.
// Pure (no GL, no CL calls), so every key and every bad value is unit-tested; the panels edit the
// same struct.
#include <optional>
#include <string>
#include <vector>

#include "app/demo_flag.hpp"
#include "common/settings_table.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/interop/interop_path.hpp"
#include "render/image/layout.hpp"

namespace clviz {

enum class HistogramScale { Linear, Log };

struct ImageLabControls {
    std::vector<FilterStep> steps = ImagePipeline::defaultSteps();
    HistogramSettings histogram;
    HistogramScale histogramScale = HistogramScale::Linear;
    double spinDegreesPerSecond = 0;  // animated rotation; 0 = still
    ImageViewState view;
    InteropRequest interop = InteropRequest::Auto;
    bool continuous = true;  // run the chain every frame (live timings) or only after a change
};

// Every Demo::set key of the lab except "image" and "save": values, help, how it applies.
const SettingTable<ImageLabControls>& imageSettings();
// All the lab's keys (image and save, which the demo handles, then imageSettings()), for help,
// error messages and the README.
std::vector<SettingDoc> imageLabSettingDocs();
// --image FILE (sugar for --set image=FILE).
std::vector<DemoFlag> imageLabFlags();

// Applies one setting (every Demo::set key except "image" and "save"). Throws clviz::Error
// naming the valid values when refused; `c` is unchanged then.
void applyImageSetting(ImageLabControls& c, const std::string& key, const std::string& value);

// "image, save, angle, spin, rotate-variant, ..." for error messages and help.
std::string imageSettingKeys();

// --- pieces the panels share ---------------------------------------------------------------

// The step of `kind` (the chain holds one of each kind), or nullptr.
FilterStep* findStep(std::vector<FilterStep>& steps, FilterKind kind);
const FilterStep* findStep(const std::vector<FilterStep>& steps, FilterKind kind);

// filterKindInfo ids: "rotate", "transpose", "mean3", "median3", "grayscale", "equalize".
std::optional<FilterKind> parseFilterKind(const std::string& id);

// Reorders and enables from a comma list ("median3,rotate"): the listed steps, in that order,
// enabled; the rest disabled after them. "none" (or "") disables all. Throws clviz::Error when
// refused; `steps` is unchanged then.
void applyFilterList(std::vector<FilterStep>& steps, const std::string& list);
// The enabled steps in order as such a list ("none" when none is).
std::string filterList(const std::vector<FilterStep>& steps);

// Rotate variants as two choices: how the source is read (buffer, image + sampler, forward
// scatter) and how it is sampled (nearest or bilinear; forward has no sampling).
enum class RotateAccess { Buffer, Image, Forward };
RotateAccess rotateAccess(RotateVariant v);
bool rotateBilinear(RotateVariant v);  // false for nearest and forward
RotateVariant makeRotateVariant(RotateAccess access, bool bilinear);

// "#rrggbb", "#rrggbbaa", "r,g,b" or "r,g,b,a" (0..255 each).
std::optional<Rgba8> parseColour(const std::string& text);
std::string formatColour(Rgba8 c);  // "#rrggbbaa"

}  // namespace clviz
