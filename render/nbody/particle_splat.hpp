#pragma once
// The splat drawing's GL side: an atlas of one screen-sized tile per sprite size class
// (splat_footprint.hpp), into which particles.vert adds every body as one pixel of its class's
// tile; then a horizontal blur of each tile by its class's weights, and a vertical blur that
// sums the tiles into the target framebuffer with additive blending. A body's light and mean
// shape are its sprite's; the fragments are one per body instead of one per sprite pixel.
// An occupancy map (one texel per kCell x kCell cell of each tile, read from the splats) lets
// both blurs draw only the cells near splats: most of the view is empty space. It is made by
// reading the atlas, not by drawing the bodies into it: a million points into a few texels
// serialize on the GPU's blending units (docs/benchmarks.md, issue 31). It is read in two
// steps (a fine map of kCell / kFine blocks, then the cells from it), so that the reads of the
// atlas are spread over many texels.
#include <glad/gl.h>

#include <string>

#include "render/gl/resources.hpp"
#include "render/nbody/draw_profile.hpp"

namespace clviz {

struct SplatAtlasLayout {
    int tileWidth = 0, tileHeight = 0;  // the viewport
    int gutter = 0;                     // zero pixels around each tile: blurs never cross tiles
    int columns = 0;                    // tiles per atlas row
    int width = 0, height = 0;          // the atlas
};

// Tiles laid out within maxTextureSize; columns = 0 when they cannot be.
SplatAtlasLayout splatAtlasLayout(int viewportWidth, int viewportHeight, int maxTextureSize);

class ParticleSplat {
  public:
    ParticleSplat();  // builds the blur program; throws clviz::Error with the log

    // Sizes the atlas for the viewport; "" when ready, else why splatting cannot be done here
    // (the atlas would not fit the texture size or the memory bound).
    std::string prepare(int viewportWidth, int viewportHeight);
    const SplatAtlasLayout& layout() const { return layout_; }

    static constexpr int kCell = 16;  // >= splat::kMaxTap: a dilation of one cell covers a blur
    static constexpr int kFine = 4;   // fine-map blocks per cell, each way (particles_blur.frag)
    static_assert(kCell % kFine == 0, "a cell is whole fine-map blocks");

    int cellsX() const;  // cells across a tile
    int cellsY() const;
    int occupiedWidth() const;  // the map: tiles of (cells + 2)^2 texels, laid out as the atlas
    int occupiedHeight() const;
    int fineWidth() const;  // the fine map: tiles of (cells * kFine)^2 texels, no border
    int fineHeight() const;
    // Binds the atlas (zero: see finish()) and sets its viewport and additive blending: draw the
    // splats.
    void beginSplats();
    // Marks the occupied cells, blurs the tiles, zeroes the splats' cells again and adds the
    // tiles' sum into `targetFramebuffer` at `viewport` (x, y, w, h); leaves that framebuffer
    // bound with that viewport and blending off.
    void finish(GLint targetFramebuffer, const GLint viewport[4], DrawProfile& profile);
    // Around the pass that draws the bodies too wide to splat as sprites: it runs only when the
    // splats found any (decided on the GPU by an occlusion query; the CPU never waits for it).
    void beginWideBodies();
    void endWideBodies();

  private:
    GlProgram program_;
    GlVertexArray vao_;
    GlTexture splats_, blurred_, occupied_, fine_;
    GlFramebuffer splatsFbo_, blurredFbo_, occupiedFbo_, fineFbo_;
    GlQuery wideQuery_;  // any body too wide to splat, this frame
    SplatAtlasLayout layout_;
    GLint uSource_, uPass_, uWeights_, uTaps_, uTileStride_, uGutter_, uColumns_, uTileSize_,
        uOrigin_, uClass_;
};

}  // namespace clviz
