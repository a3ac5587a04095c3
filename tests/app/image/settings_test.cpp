// The image lab's setting language (Demo::set / --set): every key, its effect on the controls, and
// bad values that must be refused with a useful message and leave the controls unchanged.
#include <gtest/gtest.h>

#include "app/image/settings.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

using namespace clviz;

namespace {

const FilterStep& step(const ImageLabControls& c, FilterKind kind) {
    const FilterStep* s = findStep(c.steps, kind);
    EXPECT_NE(s, nullptr);
    return *s;
}

// Applies a setting that must succeed.
void ok(ImageLabControls& c, const std::string& key, const std::string& value) {
    EXPECT_NO_THROW(applyImageSetting(c, key, value)) << key << "=" << value;
}

// Applies a setting that must fail with a message containing `fragment`, changing nothing.
void refused(const std::string& key, const std::string& value, const std::string& fragment) {
    ImageLabControls c;
    ok(c, "angle", "12");
    const std::string before = filterList(c.steps);
    const double angle = step(c, FilterKind::Rotate).rotate.degrees;
    const auto view = c.view;
    const std::string why = errorOf([&] { applyImageSetting(c, key, value); });
    EXPECT_NE(why.find(fragment), std::string::npos)
        << key << "=" << value << " gave '" << why << "'";
    EXPECT_EQ(filterList(c.steps), before) << key << "=" << value;
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.degrees, angle);
    EXPECT_EQ(c.view.mode, view.mode);
    EXPECT_EQ(c.view.zoom, view.zoom);
}

}  // namespace

TEST(ImageSettings, DefaultsHoldEveryFilterOnceWithRotateFirst) {
    const ImageLabControls c;
    ASSERT_EQ(c.steps.size(), std::size_t(kFilterKindCount));
    for (int k = 0; k < kFilterKindCount; ++k)
        EXPECT_NE(findStep(c.steps, static_cast<FilterKind>(k)), nullptr);
    EXPECT_EQ(filterList(c.steps), "rotate");
    EXPECT_EQ(c.spinDegreesPerSecond, 0.0);
    EXPECT_TRUE(c.continuous);
}

TEST(ImageSettings, AngleEnablesRotateAndWrapsWholeTurns) {
    ImageLabControls c;
    ok(c, "filters", "none");
    ok(c, "angle", "30");
    EXPECT_TRUE(step(c, FilterKind::Rotate).enabled);
    EXPECT_DOUBLE_EQ(step(c, FilterKind::Rotate).rotate.degrees, 30.0);
    ok(c, "angle", " -390.5 ");
    EXPECT_DOUBLE_EQ(step(c, FilterKind::Rotate).rotate.degrees, -30.5);
}

TEST(ImageSettings, RotateVariantSamplingFitBackground) {
    ImageLabControls c;
    ok(c, "rotate-variant", "image-nearest");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.variant, RotateVariant::ImageNearest);
    ok(c, "sampling", "bilinear");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.variant, RotateVariant::ImageBilinear);
    ok(c, "rotate-variant", "buffer");  // keeps the sampling
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.variant, RotateVariant::BufferBilinear);
    ok(c, "sampling", "nearest");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.variant, RotateVariant::BufferNearest);
    ok(c, "rotate-variant", "forward");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.variant, RotateVariant::Forward);
    EXPECT_NE(errorOf([&] { applyImageSetting(c, "sampling", "nearest"); }).find("forward"),
              std::string::npos);
    ok(c, "expand", "on");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.fit, RotateFit::Expand);
    ok(c, "fit", "crop");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.fit, RotateFit::Crop);
    ok(c, "background", "#ff8000");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.background, (Rgba8{255, 128, 0, 255}));
    ok(c, "background", "1, 2, 3, 4");
    EXPECT_EQ(step(c, FilterKind::Rotate).rotate.background, (Rgba8{1, 2, 3, 4}));
}

TEST(ImageSettings, RotateAccessAndSamplingRoundTrip) {
    for (int i = 0; i < kRotateVariantCount; ++i) {
        const auto v = static_cast<RotateVariant>(i);
        EXPECT_EQ(makeRotateVariant(rotateAccess(v), rotateBilinear(v)), v);
    }
}

TEST(ImageSettings, SpinTakesOnOffOrASpeedAndEnablesRotate) {
    ImageLabControls c;
    ok(c, "filters", "grayscale");
    ok(c, "spin", "on");
    EXPECT_EQ(c.spinDegreesPerSecond, 30.0);
    EXPECT_TRUE(step(c, FilterKind::Rotate).enabled);
    ok(c, "spin", "-90");
    EXPECT_EQ(c.spinDegreesPerSecond, -90.0);
    ok(c, "spin", "off");
    EXPECT_EQ(c.spinDegreesPerSecond, 0.0);
}

TEST(ImageSettings, FilterListOrdersAndToggles) {
    ImageLabControls c;
    ok(c, "angle", "45");
    ok(c, "filters", "median3, rotate,equalize");
    EXPECT_EQ(filterList(c.steps), "median3,rotate,equalize");
    ASSERT_EQ(c.steps.size(), std::size_t(kFilterKindCount));
    EXPECT_EQ(c.steps[0].kind, FilterKind::Median3);
    EXPECT_EQ(c.steps[1].kind, FilterKind::Rotate);
    EXPECT_DOUBLE_EQ(c.steps[1].rotate.degrees, 45.0);  // parameters survive reordering
    for (std::size_t i = 3; i < c.steps.size(); ++i)
        EXPECT_FALSE(c.steps[i].enabled);
    ok(c, "filters", "none");
    EXPECT_EQ(filterList(c.steps), "none");
    EXPECT_EQ(c.steps.size(), std::size_t(kFilterKindCount));
    ok(c, "filters", "TRANSPOSE,Grayscale");
    EXPECT_EQ(filterList(c.steps), "transpose,grayscale");
}

TEST(ImageSettings, HistogramViewInteropAndMore) {
    ImageLabControls c;
    ok(c, "histogram", "source");
    EXPECT_TRUE(c.histogram.enabled);
    EXPECT_EQ(c.histogram.of, HistogramOf::Source);
    ok(c, "histogram", "off");
    EXPECT_FALSE(c.histogram.enabled);
    ok(c, "histogram-variant", "global-atomics");
    EXPECT_EQ(c.histogram.variant, HistogramVariant::GlobalAtomics);
    EXPECT_EQ(step(c, FilterKind::Equalize).equalize.histogram, HistogramVariant::GlobalAtomics);
    ok(c, "histogram-scale", "log");
    EXPECT_EQ(c.histogramScale, HistogramScale::Log);
    ok(c, "equalize-mode", "per-channel");
    EXPECT_EQ(step(c, FilterKind::Equalize).equalize.mode, EqualizeMode::PerChannel);
    ok(c, "view", "split");
    EXPECT_EQ(c.view.mode, ImageViewMode::Split);
    ok(c, "view", "side-by-side");
    ok(c, "split", "0.25");
    EXPECT_EQ(c.view.mode, ImageViewMode::Split);
    EXPECT_FLOAT_EQ(c.view.split, 0.25f);
    ok(c, "zoom", "4");
    EXPECT_FLOAT_EQ(c.view.zoom, 4.0f);
    c.view.panX = 30;
    ok(c, "zoom", "fit");
    EXPECT_FLOAT_EQ(c.view.zoom, 1.0f);
    EXPECT_FLOAT_EQ(c.view.panX, 0.0f);
    ok(c, "magnification", "nearest");
    EXPECT_EQ(c.view.magnification, Magnification::Nearest);
    ok(c, "interop", "host-copy");
    EXPECT_EQ(c.interop, InteropRequest::HostCopy);
    ok(c, "continuous", "off");
    EXPECT_FALSE(c.continuous);
}

TEST(ImageSettings, BadValuesAreRefusedAndChangeNothing) {
    refused("angle", "thirty", "angle in degrees");
    refused("angle", "nan", "angle in degrees");
    refused("angle", "1e300", "angle in degrees");
    refused("angle", "", "angle in degrees");
    refused("spin", "fast", "degrees per second");
    refused("spin", "100000", "degrees per second");
    refused("rotate-variant", "bicubic", "buffer-nearest");
    refused("sampling", "cubic", "nearest or bilinear");
    refused("expand", "maybe", "on or off");
    refused("fit", "stretch", "crop or expand");
    refused("background", "#12345", "colour");
    refused("background", "256,0,0", "colour");
    refused("background", "red", "colour");
    refused("filters", "rotate,blur", "unknown filter 'blur'");
    refused("filters", "rotate,rotate", "listed twice");
    refused("filters", "rotate,", "unknown filter ''");
    refused("equalize-mode", "hsv", "luma or per-channel");
    refused("histogram", "both", "source, result or off");
    refused("histogram-variant", "magic", "local-atomics");
    refused("histogram-scale", "sqrt", "linear or log");
    refused("view", "grid", "side-by-side or split");
    refused("split", "1.5", "0 to 1");
    refused("zoom", "0", "zoom factor");
    refused("zoom", "1000", "zoom factor");
    refused("magnification", "cubic", "nearest or linear");
    refused("interop", "zero-copy", "auto");
    refused("continuous", "sometimes", "on or off");
    refused("brightness", "3", "unknown setting 'brightness'");
}

TEST(ImageSettings, Colours) {
    EXPECT_EQ(parseColour("#000000"), (Rgba8{0, 0, 0, 255}));
    EXPECT_EQ(parseColour("#FFffFF80"), (Rgba8{255, 255, 255, 128}));
    EXPECT_EQ(parseColour("10,20,30"), (Rgba8{10, 20, 30, 255}));
    EXPECT_FALSE(parseColour("#gg0000"));
    EXPECT_FALSE(parseColour("1,2"));
    EXPECT_FALSE(parseColour("1,2,3,4,5"));
    EXPECT_FALSE(parseColour("-1,2,3"));
    EXPECT_EQ(formatColour({1, 2, 254, 255}), "#0102feff");
}
