// Image view layout: where the source and result land for each mode, zoom about the cursor,
// the pixel readout and the divider, including degenerate sizes. Pure arithmetic, no GL.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render/image/layout.hpp"

using namespace clviz;

namespace {

ImageViewState sideBySide() {
    return {};
}

ImageViewState split(float at = 0.5f) {
    ImageViewState s;
    s.mode = ImageViewMode::Split;
    s.split = at;
    return s;
}

bool finiteRect(const PixelRect& r) {
    return std::isfinite(r.x0) && std::isfinite(r.y0) && std::isfinite(r.x1) && std::isfinite(r.y1);
}

}  // namespace

TEST(ImageLayout, SideBySideFitsBothImagesInTheirHalvesAtOneScale) {
    // 1000x500 viewport: each pane 496 wide; a 400x200 source and an expanded 600x300 result.
    const ImageLayout l = layoutImages(sideBySide(), 1000, 500, 400, 200, 600, 300);
    EXPECT_FLOAT_EQ(l.scale, 496.0f / 600.0f);
    EXPECT_FLOAT_EQ(l.source.image.width(), 400 * l.scale);
    EXPECT_FLOAT_EQ(l.result.image.width(), 600 * l.scale);
    EXPECT_FLOAT_EQ(l.result.image.width(),
                    l.result.clip.width());  // the larger one fills its pane
    // Each image centred in its own pane, panes do not overlap.
    EXPECT_FLOAT_EQ(l.source.image.x0 + l.source.image.x1, l.source.clip.x0 + l.source.clip.x1);
    EXPECT_FLOAT_EQ(l.result.image.x0 + l.result.image.x1, l.result.clip.x0 + l.result.clip.x1);
    EXPECT_LE(l.source.clip.x1, l.result.clip.x0);
    EXPECT_FLOAT_EQ(l.source.image.y0 + l.source.image.y1, 500.0f);
    EXPECT_FLOAT_EQ(l.result.clip.x1, 1000.0f);
}

TEST(ImageLayout, TallImagesAreLimitedByHeight) {
    const ImageLayout l = layoutImages(sideBySide(), 1000, 300, 100, 600, 100, 600);
    EXPECT_FLOAT_EQ(l.scale, 0.5f);
    EXPECT_FLOAT_EQ(l.source.image.y0, 0.0f);
    EXPECT_FLOAT_EQ(l.source.image.y1, 300.0f);
}

TEST(ImageLayout, SplitOverlaysBothImagesAndClipsAtTheDivider) {
    const ImageLayout l = layoutImages(split(0.25f), 800, 600, 400, 300, 400, 300);
    EXPECT_FLOAT_EQ(l.scale, 2.0f);
    EXPECT_FLOAT_EQ(l.dividerX, 200.0f);
    EXPECT_FLOAT_EQ(l.source.clip.x1, 200.0f);
    EXPECT_FLOAT_EQ(l.result.clip.x0, 200.0f);
    EXPECT_FLOAT_EQ(l.source.image.x0, l.result.image.x0);
    EXPECT_FLOAT_EQ(l.source.image.y1, l.result.image.y1);
    EXPECT_TRUE(nearDivider(l, 204.0f));
    EXPECT_FALSE(nearDivider(l, 220.0f));
}

TEST(ImageLayout, SplitPositionIsClampedToTheViewport) {
    EXPECT_FLOAT_EQ(layoutImages(split(-3.0f), 800, 600, 10, 10, 10, 10).dividerX, 0.0f);
    EXPECT_FLOAT_EQ(layoutImages(split(7.0f), 800, 600, 10, 10, 10, 10).dividerX, 800.0f);
}

TEST(ImageLayout, ZoomAtKeepsThePointUnderTheCursorStill) {
    for (ImageViewState s : {sideBySide(), split(0.6f)}) {
        ImageLayout before = layoutImages(s, 1024, 768, 257, 131, 300, 200);
        const float cx = 700.0f, cy = 333.0f;
        const ImagePane& pane = before.result.clip.contains(cx, cy) ? before.result : before.source;
        const float u = (cx - pane.image.x0) / before.scale;
        const float v = (cy - pane.image.y0) / before.scale;
        zoomAt(s, before, 3.5f, cx, cy);
        const ImageLayout after = layoutImages(s, 1024, 768, 257, 131, 300, 200);
        const ImagePane& pane2 = &pane == &before.result ? after.result : after.source;
        EXPECT_FLOAT_EQ(after.scale, before.scale * 3.5f);
        EXPECT_NEAR((cx - pane2.image.x0) / after.scale, u, 1e-3);
        EXPECT_NEAR((cy - pane2.image.y0) / after.scale, v, 1e-3);
    }
}

TEST(ImageLayout, ZoomIsClampedAndIgnoresBadFactors) {
    ImageViewState s;
    const ImageLayout l = layoutImages(s, 100, 100, 10, 10, 10, 10);
    zoomAt(s, l, 1e9f, 50, 50);
    EXPECT_FLOAT_EQ(s.zoom, ImageViewState::kMaxZoom);
    zoomAt(s, l, 0.0f, 50, 50);
    zoomAt(s, l, -2.0f, 50, 50);
    zoomAt(s, l, std::numeric_limits<float>::quiet_NaN(), 50, 50);
    EXPECT_FLOAT_EQ(s.zoom, ImageViewState::kMaxZoom);
    zoomAt(s, l, 1e-12f, 50, 50);
    EXPECT_FLOAT_EQ(s.zoom, ImageViewState::kMinZoom);
}

TEST(ImageLayout, ActualSizeZoomShowsOneScreenPixelPerImagePixel) {
    ImageViewState s;
    const ImageLayout fit = layoutImages(s, 1000, 800, 4000, 3000, 4000, 3000);
    s.zoom = actualSizeZoom(fit);
    EXPECT_NEAR(layoutImages(s, 1000, 800, 4000, 3000, 4000, 3000).scale, 1.0f, 1e-5);
}

TEST(ImageLayout, PixelUnderTheCursor) {
    const ImageLayout l = layoutImages(split(1.0f), 300, 300, 3, 3, 3, 3);  // 100 px per pixel
    int px = -1, py = -1;
    ASSERT_TRUE(imagePixelAt(l.source, l.scale, 150.0f, 299.0f, px, py));
    EXPECT_EQ(px, 1);
    EXPECT_EQ(py, 2);
    ASSERT_TRUE(imagePixelAt(l.source, l.scale, 0.0f, 0.0f, px, py));
    EXPECT_EQ(px, 0);
    EXPECT_EQ(py, 0);
    EXPECT_FALSE(imagePixelAt(l.source, l.scale, 300.0f, 10.0f, px, py));   // outside the clip
    EXPECT_FALSE(imagePixelAt(l.result, l.scale, 150.0f, 150.0f, px, py));  // result clip is empty
}

TEST(ImageLayout, DegenerateSizesGiveEmptyFiniteRectangles) {
    for (ImageViewState s : {sideBySide(), split()}) {
        for (auto [vw, vh, w, h] : {std::array{0, 0, 10, 10}, std::array{100, 100, 0, 0},
                                    std::array{100, 0, 5, 5}, std::array{-5, 100, 5, 5}}) {
            const ImageLayout l = layoutImages(s, vw, vh, w, h, w, h);
            EXPECT_TRUE(finiteRect(l.source.image) && finiteRect(l.result.image));
            EXPECT_FLOAT_EQ(l.source.image.width(), 0.0f);
            int px, py;
            EXPECT_FALSE(imagePixelAt(l.source, l.scale, 0, 0, px, py));
        }
        // A 1x1 image with a NaN pan and zoom still lays out.
        s.panX = std::numeric_limits<float>::quiet_NaN();
        s.zoom = std::numeric_limits<float>::infinity();
        const ImageLayout l = layoutImages(s, 64, 64, 1, 1, 1, 1);
        EXPECT_TRUE(finiteRect(l.source.image) && finiteRect(l.result.image));
        EXPECT_GT(l.source.image.width(), 0.0f);
    }
}

TEST(ImageLayout, Names) {
    EXPECT_STREQ(imageViewModeName(ImageViewMode::Split), "split");
    EXPECT_STREQ(imageViewModeName(ImageViewMode::SideBySide), "side-by-side");
    EXPECT_STREQ(magnificationName(Magnification::Nearest), "nearest");
    EXPECT_STREQ(magnificationName(Magnification::Linear), "linear");
}

TEST(ImageLayout, AreaOffsetsEverythingAndKeepsTheScale) {
    for (ImageViewState s : {sideBySide(), split(0.3f)}) {
        const ImageLayout plain = layoutImages(s, 600, 400, 123, 77, 150, 90);
        const ImageLayout inset = layoutImages(s, PixelRect{340, 20, 940, 420}, 123, 77, 150, 90);
        EXPECT_FLOAT_EQ(inset.scale, plain.scale);
        EXPECT_FLOAT_EQ(inset.dividerX, plain.dividerX + 340);
        EXPECT_FLOAT_EQ(inset.source.image.x0, plain.source.image.x0 + 340);
        EXPECT_FLOAT_EQ(inset.result.clip.x1, plain.result.clip.x1 + 340);
        EXPECT_FLOAT_EQ(inset.result.image.y1, plain.result.image.y1 + 20);
        EXPECT_FLOAT_EQ(inset.source.clip.y0, 20.0f);
    }
    // An inverted or NaN area lays out nothing, without NaN.
    const ImageLayout bad =
        layoutImages(sideBySide(), PixelRect{500, 0, 100, std::nanf("")}, 10, 10, 10, 10);
    EXPECT_TRUE(finiteRect(bad.source.image) && finiteRect(bad.result.clip));
    EXPECT_FLOAT_EQ(bad.source.image.width(), 0.0f);
}
