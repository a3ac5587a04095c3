// The filter chain: results equal the composition of the CPU references in the chosen order,
// sizes follow expand-to-fit and transpose, timings name every step, bad states are clear
// errors that keep the previous result. Also checks the shipped default image.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "common/error.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/image/reference.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

FilterStep& stepOf(ImagePipeline& p, FilterKind kind) {
    for (auto& s : p.steps())
        if (s.kind == kind) return s;
    throw std::logic_error("no such step");
}

// The result's histogram: the rotate's fill left out while no step after the last rotate moves
// pixels (HistogramTuning::coverage).
Histogram resultHistogram(const Rgba8Image& result, ImageSize src,
                          const std::vector<FilterStep>& steps) {
    std::optional<RotateGeometry> coverage;
    ImageSize size = src;
    for (const auto& s : steps) {
        if (!s.enabled) continue;
        if (s.kind == FilterKind::Rotate) {
            coverage = rotateGeometry(size, s.rotate.degrees, s.rotate.fit);
            size = coverage->dst;
        } else if (s.kind == FilterKind::Transpose) {
            coverage.reset();
            size = {size.height, size.width};
        }
    }
    return coverage ? reference::histogram(result, *coverage) : reference::histogram(result);
}

// The steps' references composed. Equalize after a rotate counts the picture alone, as the
// histogram does: the last rotate's fill stays out of its tables while the steps since keep the
// size and do not transpose.
Rgba8Image applyReference(const Rgba8Image& src, const std::vector<FilterStep>& steps) {
    Rgba8Image img = src;
    std::optional<RotateGeometry> coverage;
    for (const auto& s : steps) {
        if (!s.enabled) continue;
        if (s.kind == FilterKind::Transpose) coverage.reset();
        switch (s.kind) {
            case FilterKind::Rotate:
                coverage = rotateGeometry(img.size(), s.rotate.degrees, s.rotate.fit);
                img = reference::rotate(img, s.rotate);
                break;
            case FilterKind::Transpose:
                img = reference::transpose(img);
                break;
            case FilterKind::Mean3:
                img = reference::mean3(img);
                break;
            case FilterKind::Median3:
                img = reference::median3(img);
                break;
            case FilterKind::Grayscale:
                img = reference::grayscale(img);
                break;
            case FilterKind::Equalize:
                img = coverage ? reference::equalize(img, s.equalize.mode, *coverage)
                               : reference::equalize(img, s.equalize.mode);
                break;
        }
    }
    return img;
}

std::filesystem::path repoRoot() {
    return std::filesystem::path(CLVIZ_TEST_SOURCE_DIR);
}

}  // namespace

TEST(ImagePipeline, DefaultChainRotatesOnly) {
    ImagePipeline p(context());
    ASSERT_EQ(p.steps().size(), std::size_t(kFilterKindCount));
    int enabled = 0;
    for (const auto& s : p.steps())
        enabled += s.enabled;
    EXPECT_EQ(enabled, 1);
    EXPECT_EQ(p.steps()[0].kind, FilterKind::Rotate);
    EXPECT_FALSE(p.hasSource());
    EXPECT_TRUE(p.outputSize().empty());
    EXPECT_THROW(p.run(), Error);
    EXPECT_THROW(p.readResult(), Error);
}

TEST(ImagePipeline, ChainsMatchTheReferencesInOrder) {
    ImagePipeline p(context());
    const Rgba8Image src = randomImage(45, 29, 1);
    p.setSource(src);
    for (auto& s : p.steps())
        s.enabled = true;
    auto& rot = stepOf(p, FilterKind::Rotate);
    rot.rotate.degrees = 21;
    rot.rotate.fit = RotateFit::Expand;
    rot.rotate.variant = RotateVariant::BufferNearest;  // exact, so the whole chain is exact
    rot.rotate.background = {10, 20, 30, 255};

    // Default order, then reversed, then a rotation in the middle of the chain.
    for (int round = 0; round < 3; ++round) {
        if (round == 1) std::reverse(p.steps().begin(), p.steps().end());
        if (round == 2) std::rotate(p.steps().begin(), p.steps().begin() + 2, p.steps().end());
        SCOPED_TRACE("round " + std::to_string(round) + ", " + seedNote());
        const Rgba8Image want = applyReference(src, p.steps());
        EXPECT_EQ(p.outputSize(), want.size());
        p.run();
        EXPECT_EQ(p.resultSize(), want.size());
        std::string where;
        EXPECT_EQ(maxDifference(p.readResult(), want, &where), 0) << where;
        // One timing per enabled step, plus the histogram.
        ASSERT_EQ(p.timings().size(), std::size_t(kFilterKindCount + 1));
        for (const auto& t : p.timings())
            EXPECT_GE(t.ms, 0.0) << t.label;
        EXPECT_NE(p.timings().back().label.find("histogram"), std::string::npos);
        ASSERT_TRUE(p.histogram().has_value());
        EXPECT_EQ(*p.histogram(), resultHistogram(want, src.size(), p.steps()));
    }
    // Rotate last: the fill (the background's 10 in R) is not counted, though it is in the image.
    std::stable_partition(p.steps().begin(), p.steps().end(),
                          [](const FilterStep& s) { return s.kind != FilterKind::Rotate; });
    ASSERT_EQ(p.steps().back().kind, FilterKind::Rotate);
    p.run();
    const Rgba8Image want = applyReference(src, p.steps());
    EXPECT_EQ(*p.histogram(), resultHistogram(want, src.size(), p.steps()));
    EXPECT_LT(p.histogram()->stats(kRed).count, want.size().pixels());
}

// Issue 27: equalize after a rotate built its tables from every pixel, the rotate's fill too,
// while the histogram beside it left the fill out. Now both count the picture alone; the fill is
// mapped through the same tables. Sizes: odd, prime, and one row; every histogram variant and
// both modes; a blur between the rotate and equalize keeps the size, so the fill stays out.
TEST(ImagePipeline, EqualizeAfterARotateLeavesTheFillOutOfItsCounts) {
    ImagePipeline p(context());
    p.histogramSettings().enabled = false;
    for (const ImageSize size : {ImageSize{45, 29}, ImageSize{31, 1}, ImageSize{1, 1}}) {
        const Rgba8Image src = randomImage(size.width, size.height, 7);
        p.setSource(src);
        for (int v = 0; v < kHistogramVariantCount; ++v)
            for (const EqualizeMode mode : {EqualizeMode::Luma, EqualizeMode::PerChannel})
                for (const bool blur : {false, true}) {
                    FilterStep rotate, mean3, equalize;
                    rotate.kind = FilterKind::Rotate;
                    rotate.rotate.degrees = 33;
                    rotate.rotate.fit = RotateFit::Expand;
                    rotate.rotate.variant = RotateVariant::BufferNearest;  // exact
                    rotate.rotate.background = {250, 5, 128, 255};  // far from the picture's mean
                    mean3.kind = FilterKind::Mean3;
                    mean3.enabled = blur;
                    equalize.kind = FilterKind::Equalize;
                    equalize.equalize.mode = mode;
                    equalize.equalize.histogram = HistogramVariant(v);
                    p.steps() = {rotate, mean3, equalize};
                    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height) +
                                 " " + histogramVariantInfo(HistogramVariant(v)).name +
                                 (mode == EqualizeMode::Luma ? " luma" : " per channel") +
                                 (blur ? " after mean3" : "") + ", " + seedNote());
                    p.run();
                    const Rgba8Image want = applyReference(src, p.steps());
                    std::string where;
                    EXPECT_EQ(maxDifference(p.readResult(), want, &where), 0) << where;
                }
        // The fill changes the tables where the picture leaves room for it: counting it (the
        // old behaviour) gives another picture, so the comparison above can tell them apart.
        if (size.pixels() > 1) {
            FilterStep rotate;
            rotate.kind = FilterKind::Rotate;
            rotate.rotate.degrees = 33;
            rotate.rotate.fit = RotateFit::Expand;
            rotate.rotate.variant = RotateVariant::BufferNearest;
            rotate.rotate.background = {250, 5, 128, 255};
            const Rgba8Image rotated = reference::rotate(src, rotate.rotate);
            const RotateGeometry g = rotateGeometry(src.size(), 33, RotateFit::Expand);
            EXPECT_NE(maxDifference(reference::equalize(rotated, EqualizeMode::Luma, g),
                                    reference::equalize(rotated, EqualizeMode::Luma)),
                      0);
        }
    }
}

TEST(ImagePipeline, DisabledStepsAndHistogramSettings) {
    ImagePipeline p(context());
    const Rgba8Image src = randomImage(31, 17, 2);
    p.setSource(src);
    for (auto& s : p.steps())
        s.enabled = false;
    p.histogramSettings().of = HistogramOf::Source;
    p.histogramSettings().variant = HistogramVariant::ByteSubHistograms;
    p.run();
    EXPECT_EQ(p.readResult().pixels, src.pixels) << "no step: the result is the source";
    ASSERT_EQ(p.timings().size(), 1u);
    EXPECT_EQ(*p.histogram(), reference::histogram(src));

    stepOf(p, FilterKind::Grayscale).enabled = true;
    p.histogramSettings().enabled = false;
    p.run();
    EXPECT_FALSE(p.histogram().has_value());
    EXPECT_EQ(p.timings().size(), 1u);
    EXPECT_EQ(maxDifference(p.readResult(), reference::grayscale(src)), 0);
}

TEST(ImagePipeline, ImageVariantsAnywhereInTheChain) {
    ImagePipeline p(context());
    if (!p.imagesSupported()) GTEST_SKIP() << "device has no image support";
    const Rgba8Image src = randomImage(40, 23, 3);
    p.setSource(src);
    p.histogramSettings().enabled = false;
    auto& rot = stepOf(p, FilterKind::Rotate);
    rot.rotate.variant = RotateVariant::ImageNearest;
    rot.rotate.degrees = -33;
    const RotateParams params = rot.rotate;  // `rot` moves when the steps are reordered

    // First step: the source image is copied to an image object once per source.
    p.run();
    EXPECT_EQ(maxDifference(p.readResult(), reference::rotate(src, params)), 0);
    ASSERT_EQ(p.timings().size(), 2u);
    EXPECT_NE(p.timings()[0].label.find("once"), std::string::npos) << p.timings()[0].label;
    p.run();
    EXPECT_EQ(p.timings().size(), 1u) << "second run reuses the source image";

    // After a transpose: its output is copied to an image every run, timed as its own line.
    std::swap(p.steps()[0], p.steps()[1]);
    ASSERT_EQ(p.steps()[0].kind, FilterKind::Transpose);
    p.steps()[0].enabled = true;
    p.run();
    EXPECT_EQ(maxDifference(p.readResult(), reference::rotate(reference::transpose(src), params)),
              0);
    ASSERT_EQ(p.timings().size(), 3u);
    EXPECT_NE(p.timings()[1].label.find("copy to image"), std::string::npos);

    // A new source invalidates the image copy.
    const Rgba8Image other = randomImage(40, 23, 4);
    p.setSource(other);
    std::swap(p.steps()[0], p.steps()[1]);
    p.steps()[1].enabled = false;
    p.run();
    EXPECT_EQ(maxDifference(p.readResult(), reference::rotate(other, params)), 0);
}

TEST(ImagePipeline, ErrorsKeepThePreviousResult) {
    ImagePipeline p(context());
    const Rgba8Image src = randomImage(20, 10, 5);
    p.setSource(src);
    stepOf(p, FilterKind::Rotate).rotate.degrees = 90;
    stepOf(p, FilterKind::Rotate).rotate.fit = RotateFit::Expand;
    p.run();
    const Rgba8Image before = p.readResult();
    EXPECT_EQ(before.size(), (ImageSize{10, 20}));

    stepOf(p, FilterKind::Rotate).rotate.degrees = NAN;
    EXPECT_THROW(p.run(), Error);
    EXPECT_EQ(p.readResult().pixels, before.pixels);

    EXPECT_THROW(p.setSource(Rgba8Image()), Error);
    Rgba8Image broken(4, 4);
    broken.pixels.resize(3);
    EXPECT_THROW(p.setSource(broken), Error);
    EXPECT_EQ(p.sourceSize(), src.size()) << "a rejected source keeps the old one";

    if (!p.imagesSupported()) {
        stepOf(p, FilterKind::Rotate).rotate.degrees = 0;
        stepOf(p, FilterKind::Rotate).rotate.variant = RotateVariant::ImageBilinear;
        std::string why;
        EXPECT_FALSE(p.rotateAvailable(RotateVariant::ImageBilinear, &why));
        EXPECT_THROW(p.run(), Error);
    }
}

// Issue 27: the default chain's 0-degree rotate ran a bilinear pass every frame. A whole turn is
// now a copy: the result is the source exactly, whatever the variant, on an awkward size.
TEST(ImagePipeline, AWholeTurnIsTheSourceItself) {
    ImagePipeline p(context());
    const Rgba8Image src = randomImage(7, 5, 11);
    p.setSource(src);
    for (auto& s : p.steps())
        s.enabled = s.kind == FilterKind::Rotate;
    for (double degrees : {0.0, 360.0, -720.0}) {
        stepOf(p, FilterKind::Rotate).rotate.degrees = degrees;
        p.run();
        const Rgba8Image out = p.readResult();
        EXPECT_EQ(out.width, 7);
        EXPECT_EQ(out.height, 5);
        EXPECT_EQ(out.pixels, src.pixels) << degrees;
    }
}

TEST(ImagePipeline, SourceFromADeviceBuffer) {
    ImagePipeline p(context());
    const Rgba8Image src = randomImage(33, 12, 6);
    p.setSource(upload(src), src.size());
    for (auto& s : p.steps())
        s.enabled = false;
    p.run();
    EXPECT_EQ(p.readResult().pixels, src.pixels);
    EXPECT_EQ(download(p.sourceBuffer(), src.size()).pixels, src.pixels);
}

TEST(ImagePipeline, NamesForTheGui) {
    for (int k = 0; k < kFilterKindCount; ++k) {
        const auto& info = filterKindInfo(static_cast<FilterKind>(k));
        EXPECT_STRNE(info.id, "");
        EXPECT_STRNE(info.name, "");
        EXPECT_STRNE(info.description, "");
    }
    for (int v = 0; v < kHistogramVariantCount; ++v)
        EXPECT_STRNE(histogramVariantInfo(static_cast<HistogramVariant>(v)).description, "");
}

TEST(DefaultImage, ShippedFileIsTheGeneratorsOutput) {
    const auto path = repoRoot() / "assets" / "default.png";
    const Rgba8Image shipped = loadImage(path.string());
    ASSERT_EQ(shipped.size(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    const Rgba8Image generated = makeTestPattern(kDefaultImageWidth, kDefaultImageHeight);
    // Allow a level for libm differences between machines; anything more means the generator
    // changed without regenerating the asset (clviz-make-default-image).
    EXPECT_LE(maxDifference(shipped, generated), 1);
    EXPECT_LT(std::filesystem::file_size(path), 1536u * 1024u);

    // Enough range to judge histograms: every channel spans 0..255 and the luma is spread.
    const Histogram h = reference::histogram(shipped);
    for (int c = 0; c < kHistogramChannels; ++c) {
        EXPECT_EQ(h.stats(c).min, 0) << histogramChannelName(c);
        EXPECT_EQ(h.stats(c).max, 255) << histogramChannelName(c);
    }
    int usedLumaBins = 0;
    for (auto n : h.bins[kLuma])
        usedLumaBins += n > 0;
    EXPECT_EQ(usedLumaBins, 256);
}

TEST(DefaultImage, PatternScalesToAnySize) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{7, 300}, std::pair{2000, 90}}) {
        const Rgba8Image img = makeTestPattern(w, h);
        EXPECT_EQ(img.size(), (ImageSize{w, h}));
        EXPECT_EQ(img.pixels.size(), img.size().bytes());
    }
    EXPECT_EQ(makeTestPattern(64, 48).pixels, makeTestPattern(64, 48).pixels) << "deterministic";
}
