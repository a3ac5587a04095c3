#include "render/image/layout.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

const char* imageViewModeName(ImageViewMode mode) {
    return mode == ImageViewMode::Split ? "split" : "side-by-side";
}

const char* magnificationName(Magnification m) {
    return m == Magnification::Nearest ? "nearest" : "linear";
}

namespace {

constexpr float kSideBySideGap = 8.0f;  // pixels between the two panes

PixelRect centred(float cx, float cy, int width, int height, float scale) {
    const float hw = 0.5f * static_cast<float>(std::max(width, 0)) * scale;
    const float hh = 0.5f * static_cast<float>(std::max(height, 0)) * scale;
    return {cx - hw, cy - hh, cx + hw, cy + hh};
}

float safeZoom(float zoom) {
    if (!std::isfinite(zoom)) return 1.0f;
    return std::clamp(zoom, ImageViewState::kMinZoom, ImageViewState::kMaxZoom);
}

}  // namespace

ImageLayout layoutImages(const ImageViewState& state, int viewportWidth, int viewportHeight,
                         int sourceWidth, int sourceHeight, int resultWidth, int resultHeight) {
    ImageLayout out;
    const float w = static_cast<float>(std::max(viewportWidth, 0));
    const float h = static_cast<float>(std::max(viewportHeight, 0));
    const float imageW = static_cast<float>(std::max({sourceWidth, resultWidth, 0}));
    const float imageH = static_cast<float>(std::max({sourceHeight, resultHeight, 0}));
    if (w <= 0 || h <= 0 || imageW <= 0 || imageH <= 0) {
        out.dividerX = w * std::clamp(state.split, 0.0f, 1.0f);
        return out;
    }
    const float panX = std::isfinite(state.panX) ? state.panX : 0.0f;
    const float panY = std::isfinite(state.panY) ? state.panY : 0.0f;

    if (state.mode == ImageViewMode::SideBySide) {
        const float gap = w > 4 * kSideBySideGap ? kSideBySideGap : 0.0f;
        const float paneW = (w - gap) * 0.5f;
        out.fitScale = std::min(paneW / imageW, h / imageH);
        out.scale = out.fitScale * safeZoom(state.zoom);
        out.source.clip = {0, 0, paneW, h};
        out.result.clip = {paneW + gap, 0, w, h};
        out.source.image =
            centred(paneW * 0.5f + panX, h * 0.5f + panY, sourceWidth, sourceHeight, out.scale);
        out.result.image = centred(paneW + gap + paneW * 0.5f + panX, h * 0.5f + panY, resultWidth,
                                   resultHeight, out.scale);
        out.dividerX = paneW + gap * 0.5f;
    } else {
        out.fitScale = std::min(w / imageW, h / imageH);
        out.scale = out.fitScale * safeZoom(state.zoom);
        out.dividerX = std::round(w * std::clamp(state.split, 0.0f, 1.0f));
        out.source.clip = {0, 0, out.dividerX, h};
        out.result.clip = {out.dividerX, 0, w, h};
        const float cx = w * 0.5f + panX;
        const float cy = h * 0.5f + panY;
        out.source.image = centred(cx, cy, sourceWidth, sourceHeight, out.scale);
        out.result.image = centred(cx, cy, resultWidth, resultHeight, out.scale);
    }
    return out;
}

ImageLayout layoutImages(const ImageViewState& state, const PixelRect& area, int sourceWidth,
                         int sourceHeight, int resultWidth, int resultHeight) {
    const float x0 = std::isfinite(area.x0) ? area.x0 : 0.0f;
    const float y0 = std::isfinite(area.y0) ? area.y0 : 0.0f;
    const float w = std::isfinite(area.width()) ? std::max(area.width(), 0.0f) : 0.0f;
    const float h = std::isfinite(area.height()) ? std::max(area.height(), 0.0f) : 0.0f;
    ImageLayout l = layoutImages(state, static_cast<int>(w), static_cast<int>(h), sourceWidth,
                                 sourceHeight, resultWidth, resultHeight);
    for (PixelRect* r : {&l.source.image, &l.source.clip, &l.result.image, &l.result.clip}) {
        r->x0 += x0;
        r->x1 += x0;
        r->y0 += y0;
        r->y1 += y0;
    }
    l.dividerX += x0;
    return l;
}

void zoomAt(ImageViewState& state, const ImageLayout& layout, float factor, float cursorX,
            float cursorY) {
    if (!std::isfinite(factor) || factor <= 0) return;
    const float oldZoom = safeZoom(state.zoom);
    const float newZoom = safeZoom(oldZoom * factor);
    const float applied = newZoom / oldZoom;
    // Both images move with the same pan, so keeping the point under the cursor still in the pane
    // the cursor is over keeps it still in the other one too.
    const ImagePane& pane =
        layout.result.clip.contains(cursorX, cursorY) ? layout.result : layout.source;
    const float cx = 0.5f * (pane.image.x0 + pane.image.x1);
    const float cy = 0.5f * (pane.image.y0 + pane.image.y1);
    const float newCx = cursorX - (cursorX - cx) * applied;
    const float newCy = cursorY - (cursorY - cy) * applied;
    state.zoom = newZoom;
    state.panX += newCx - cx;
    state.panY += newCy - cy;
}

float actualSizeZoom(const ImageLayout& layout) {
    if (layout.fitScale <= 0) return 1.0f;
    return safeZoom(1.0f / layout.fitScale);
}

bool imagePixelAt(const ImagePane& pane, float scale, float x, float y, int& px, int& py) {
    if (scale <= 0 || !pane.clip.contains(x, y) || !pane.image.contains(x, y)) return false;
    const float imageW = pane.image.width() / scale;
    const float imageH = pane.image.height() / scale;
    px = std::clamp(static_cast<int>(std::floor((x - pane.image.x0) / scale)), 0,
                    std::max(static_cast<int>(std::lround(imageW)) - 1, 0));
    py = std::clamp(static_cast<int>(std::floor((y - pane.image.y0) / scale)), 0,
                    std::max(static_cast<int>(std::lround(imageH)) - 1, 0));
    return true;
}

bool nearDivider(const ImageLayout& layout, float x, float tolerancePixels) {
    return std::abs(x - layout.dividerX) <= tolerancePixels;
}

}  // namespace clviz
