#include "render/image/view.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

namespace {

// Texel boundaries appear from this many screen pixels per texel, fully at twice that.
constexpr float kGridStartScale = 12.0f;

}  // namespace

ImageView::ImageView()
    : program_(buildGlProgram("image.vert", "image.frag")), vao_(makeGlVertexArray()) {
    uRect_ = uniformLocation(program_, "uRect");
    uImage_ = uniformLocation(program_, "uImage");
    uSolid_ = uniformLocation(program_, "uSolid");
    uColor_ = uniformLocation(program_, "uColor");
    uTexSize_ = uniformLocation(program_, "uTexSize");
    uGrid_ = uniformLocation(program_, "uGrid");
    uUvScale_ = uniformLocation(program_, "uUvScale");
    uChecker_ = uniformLocation(program_, "uCheckerPixels");
}

void ImageView::setRect(const PixelRect& r, int viewportWidth, int viewportHeight) {
    const float w = static_cast<float>(std::max(viewportWidth, 1));
    const float h = static_cast<float>(std::max(viewportHeight, 1));
    glUniform4f(uRect_, r.x0 / w * 2.0f - 1.0f, 1.0f - r.y0 / h * 2.0f, r.x1 / w * 2.0f - 1.0f,
                1.0f - r.y1 / h * 2.0f);
}

void ImageView::drawSolid(const PixelRect& rect, const float rgba[4], int viewportWidth,
                          int viewportHeight) {
    glUniform1i(uSolid_, 1);
    glUniform4fv(uColor_, 1, rgba);
    setRect(rect, viewportWidth, viewportHeight);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void ImageView::drawPane(const ImagePane& pane, float scale, const ImageViewState& state,
                         ImageTextureRef image, int viewportWidth, int viewportHeight) {
    if (image.texture == 0 || image.width <= 0 || image.height <= 0) return;
    // Clip to the pane with the scissor box (GL's origin is bottom-left).
    const int x0 = static_cast<int>(std::floor(std::max(pane.clip.x0, 0.0f)));
    const int x1 = static_cast<int>(std::ceil(std::min(pane.clip.x1, float(viewportWidth))));
    const int y0 = static_cast<int>(std::floor(std::max(pane.clip.y0, 0.0f)));
    const int y1 = static_cast<int>(std::ceil(std::min(pane.clip.y1, float(viewportHeight))));
    if (x1 <= x0 || y1 <= y0) return;
    glScissor(x0, viewportHeight - y1, x1 - x0, y1 - y0);

    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, image.texture);
    const GLint filter = state.magnification == Magnification::Nearest ? GL_NEAREST : GL_LINEAR;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

    const float grid =
        state.magnification == Magnification::Nearest
            ? std::clamp((scale - kGridStartScale) / kGridStartScale, 0.0f, 1.0f) * 0.35f
            : 0.0f;
    glUniform1i(uSolid_, 0);
    glUniform1i(uImage_, 0);
    glUniform2f(uTexSize_, float(image.width), float(image.height));
    const int capW = std::max(image.capacityWidth, image.width);
    const int capH = std::max(image.capacityHeight, image.height);
    glUniform2f(uUvScale_, float(image.width) / float(capW), float(image.height) / float(capH));
    glUniform1f(uGrid_, grid);
    glUniform1f(uChecker_, 8.0f);
    setRect(pane.image, viewportWidth, viewportHeight);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void ImageView::draw(const ImageLayout& layout, const ImageViewState& state, ImageTextureRef source,
                     ImageTextureRef result, int viewportWidth, int viewportHeight) {
    if (viewportWidth <= 0 || viewportHeight <= 0) return;
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glUseProgram(program_.id());
    glBindVertexArray(vao_.id());
    glEnable(GL_SCISSOR_TEST);

    drawPane(layout.source, layout.scale, state, source, viewportWidth, viewportHeight);
    drawPane(layout.result, layout.scale, state, result, viewportWidth, viewportHeight);

    glDisable(GL_SCISSOR_TEST);
    if (state.mode == ImageViewMode::Split) {
        // A light line with dark edges reads on any image; a handle marks where to grab it.
        const float dark[4] = {0.05f, 0.05f, 0.05f, 1.0f};
        const float light[4] = {0.95f, 0.95f, 0.95f, 1.0f};
        const float x = layout.dividerX;
        const float y0 = layout.source.clip.y0, y1 = layout.source.clip.y1;
        const float mid = 0.5f * (y0 + y1);
        drawSolid({x - 2.0f, y0, x + 2.0f, y1}, dark, viewportWidth, viewportHeight);
        drawSolid({x - 1.0f, y0, x + 1.0f, y1}, light, viewportWidth, viewportHeight);
        drawSolid({x - 6.0f, mid - 20.0f, x + 6.0f, mid + 20.0f}, dark, viewportWidth,
                  viewportHeight);
        drawSolid({x - 4.0f, mid - 18.0f, x + 4.0f, mid + 18.0f}, light, viewportWidth,
                  viewportHeight);
    }

    glBindTexture(GL_TEXTURE_2D, 0);
    glBindVertexArray(0);
    glUseProgram(0);
}

}  // namespace clviz
