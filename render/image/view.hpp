#pragma once
// Draws the image lab's source and result textures as screen quads laid out by image_layout:
// side by side or split with a divider, zoomed and panned, nearest or linear magnification,
// transparent pixels over a checkerboard. Needs a current GL 3.3+ core context.
#include <glad/gl.h>

#include "render/gl/resources.hpp"
#include "render/image/layout.hpp"

namespace clviz {

// A texture to draw: the picture fills its top-left width x height texels of a texture that may
// be larger (capacity 0 = the same as the picture). texture 0 or an empty size draws nothing.
struct ImageTextureRef {
    GLuint texture = 0;
    int width = 0;
    int height = 0;
    int capacityWidth = 0;
    int capacityHeight = 0;
};

class ImageView {
  public:
    // Builds the shader program. Throws clviz::Error with the compile log.
    ImageView();

    // Draws into the current framebuffer, whose size is viewportWidth x viewportHeight pixels.
    // Leaves the scissor test off and program/VAO/texture bindings at 0.
    void draw(const ImageLayout& layout, const ImageViewState& state, ImageTextureRef source,
              ImageTextureRef result, int viewportWidth, int viewportHeight);

  private:
    void drawPane(const ImagePane& pane, float scale, const ImageViewState& state,
                  ImageTextureRef image, int viewportWidth, int viewportHeight);
    void drawSolid(const PixelRect& rect, const float rgba[4], int viewportWidth,
                   int viewportHeight);
    void setRect(const PixelRect& rect, int viewportWidth, int viewportHeight);

    GlProgram program_;
    GlVertexArray vao_;  // core profile needs one bound, even with no attributes
    GLint uRect_ = -1, uImage_ = -1, uSolid_ = -1, uColor_ = -1, uTexSize_ = -1, uGrid_ = -1,
          uUvScale_ = -1, uChecker_ = -1;
};

}  // namespace clviz
