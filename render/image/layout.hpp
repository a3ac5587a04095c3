#pragma once
// Where the source and result images go on screen: side by side or overlaid with a split divider,
// with zoom and pan. Pure arithmetic in framebuffer pixels (origin top-left, y down), so it is
// tested without GL and shared by drawing and mouse handling.
#include <array>

namespace clviz {

enum class ImageViewMode { SideBySide, Split };
enum class Magnification { Nearest, Linear };

const char* imageViewModeName(ImageViewMode mode);  // "side-by-side", "split"
const char* magnificationName(Magnification m);     // "nearest", "linear"

// What the user steers; the image view keeps one.
struct ImageViewState {
    ImageViewMode mode = ImageViewMode::SideBySide;
    Magnification magnification = Magnification::Linear;
    float zoom = 1.0f;  // relative to "fit": 1 shows both images whole
    float panX = 0.0f;  // framebuffer pixels, applied to both images so they stay aligned
    float panY = 0.0f;
    float split = 0.5f;  // divider position in split mode, as a fraction of the viewport width

    static constexpr float kMinZoom = 1.0f / 16.0f;
    static constexpr float kMaxZoom = 256.0f;
};

struct PixelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
    bool contains(float x, float y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// One image as drawn: its rectangle on screen (may extend past the viewport) and the part of the
// viewport it may paint (its half, or its side of the divider).
struct ImagePane {
    PixelRect image;
    PixelRect clip;
};

struct ImageLayout {
    float scale = 1.0f;     // screen pixels per image pixel (same for both images)
    float fitScale = 1.0f;  // the scale at zoom 1
    ImagePane source;
    ImagePane result;
    float dividerX = 0.0f;  // split mode only
};

// Sizes are in pixels; a zero-size image or viewport gives empty rectangles, never NaN.
ImageLayout layoutImages(const ImageViewState& state, int viewportWidth, int viewportHeight,
                         int sourceWidth, int sourceHeight, int resultWidth, int resultHeight);

// The same inside `area` of the viewport (the part not covered by panels docked at its edges).
// The split fraction is of the area's width.
ImageLayout layoutImages(const ImageViewState& state, const PixelRect& area, int sourceWidth,
                         int sourceHeight, int resultWidth, int resultHeight);

// Zooms by `factor` keeping the image point under (cursorX, cursorY) still. Clamps the zoom.
void zoomAt(ImageViewState& state, const ImageLayout& layout, float factor, float cursorX,
            float cursorY);

// Zoom that shows image pixels 1:1 on screen for this layout.
float actualSizeZoom(const ImageLayout& layout);

// Image pixel under a screen point for a pane, or false when the point is outside the image or
// outside the pane's clip. Used for the pixel readout under the cursor.
bool imagePixelAt(const ImagePane& pane, float scale, float x, float y, int& px, int& py);

// True when a screen x is close enough to the divider to grab it.
bool nearDivider(const ImageLayout& layout, float x, float tolerancePixels = 6.0f);

}  // namespace clviz
