#include "render/nbody/particle_splat.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "common/error.hpp"
#include "render/nbody/splat_footprint.hpp"

namespace clviz {

namespace {

// Two RGBA16F atlases of kClasses screens each: 100 MB at 1280x720. Past this the viewer draws
// sprites rather than hold more.
constexpr std::int64_t kMaxAtlasBytes = std::int64_t(1) << 30;

GlTexture makeAtlasTexture(int width, int height, GLenum format = GL_RGBA16F) {
    GlTexture t = makeGlTexture();
    glBindTexture(GL_TEXTURE_2D, t.id());
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(format), width, height, 0, GL_RGBA,
                 format == GL_RGBA16F ? GL_HALF_FLOAT : GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    return t;
}

GlFramebuffer makeAtlasFramebuffer(const GlTexture& texture) {
    GlFramebuffer f = makeGlFramebuffer();
    glBindFramebuffer(GL_FRAMEBUFFER, f.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture.id(), 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw Error("the splat atlas cannot be drawn into here (framebuffer status " +
                    std::to_string(status) + ")");
    return f;
}

}  // namespace

SplatAtlasLayout splatAtlasLayout(int viewportWidth, int viewportHeight, int maxTextureSize) {
    SplatAtlasLayout l;
    l.tileWidth = viewportWidth;
    l.tileHeight = viewportHeight;
    l.gutter = splat::kMaxTap + 1;
    const int strideX = viewportWidth + 2 * l.gutter, strideY = viewportHeight + 2 * l.gutter;
    // The fewest rows that fit the width: wide atlases keep each tile's rows together.
    for (int rows = 1; rows <= splat::kClasses; ++rows) {
        const int columns = (splat::kClasses + rows - 1) / rows;
        if (std::int64_t(columns) * strideX <= maxTextureSize &&
            std::int64_t(rows) * strideY <= maxTextureSize) {
            l.columns = columns;
            l.width = columns * strideX;
            l.height = rows * strideY;
            return l;
        }
    }
    return l;
}

ParticleSplat::ParticleSplat()
    : program_(buildGlProgram("particles_blur.vert", "particles_blur.frag")),
      vao_(makeGlVertexArray()),
      wideQuery_(makeGlQuery()) {
    uSource_ = uniformLocation(program_, "u_source");
    uPass_ = uniformLocation(program_, "u_pass");
    uWeights_ = uniformLocation(program_, "u_weights");
    uTaps_ = uniformLocation(program_, "u_taps");
    uTileStride_ = uniformLocation(program_, "u_tileStride");
    uGutter_ = uniformLocation(program_, "u_gutter");
    uColumns_ = uniformLocation(program_, "u_columns");
    uTileSize_ = uniformLocation(program_, "u_tileSize");
    uOrigin_ = uniformLocation(program_, "u_origin");
    uClass_ = uniformLocation(program_, "u_class");
    const auto weights = splat::classWeights();
    std::array<GLint, splat::kClasses> taps{};
    for (int k = 0; k < splat::kClasses; ++k)
        taps[std::size_t(k)] = splat::tapsOf(k);
    glUseProgram(program_.id());
    glUniform1fv(uWeights_, GLsizei(weights.size()), weights.data());
    glUniform1iv(uTaps_, GLsizei(taps.size()), taps.data());
    glUniform1i(uSource_, 0);
    glUniform1i(uniformLocation(program_, "u_occupied"), 1);
    glUniform1i(uniformLocation(program_, "u_cell"), kCell);
    glUseProgram(0);
}

std::string ParticleSplat::prepare(int viewportWidth, int viewportHeight) {
    if (layout_.tileWidth == viewportWidth && layout_.tileHeight == viewportHeight && splats_)
        return "";
    splats_.reset();
    blurred_.reset();
    splatsFbo_.reset();
    blurredFbo_.reset();
    occupied_.reset();
    occupiedFbo_.reset();
    fine_.reset();
    fineFbo_.reset();
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    layout_ = splatAtlasLayout(viewportWidth, viewportHeight, maxSize);
    if (layout_.columns == 0)
        return "the splat atlas for a " + std::to_string(viewportWidth) + "x" +
               std::to_string(viewportHeight) + " view exceeds the texture size limit " +
               std::to_string(maxSize);
    const std::int64_t bytes = std::int64_t(layout_.width) * layout_.height * 8 * 2;
    if (bytes > kMaxAtlasBytes)
        return "the splat atlas for a " + std::to_string(viewportWidth) + "x" +
               std::to_string(viewportHeight) + " view would take " + std::to_string(bytes >> 20) +
               " MiB";
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    try {
        splats_ = makeAtlasTexture(layout_.width, layout_.height);
        blurred_ = makeAtlasTexture(layout_.width, layout_.height);
        splatsFbo_ = makeAtlasFramebuffer(splats_);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);  // once: then each frame zeroes the cells it used
        blurredFbo_ = makeAtlasFramebuffer(blurred_);
        glClear(GL_COLOR_BUFFER_BIT);  // the gutters, which the blur never writes
        occupied_ = makeAtlasTexture(occupiedWidth(), occupiedHeight(), GL_R8);
        occupiedFbo_ = makeAtlasFramebuffer(occupied_);
        fine_ = makeAtlasTexture(fineWidth(), fineHeight(), GL_R8);
        fineFbo_ = makeAtlasFramebuffer(fine_);
    } catch (const Error& e) {
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
        splats_.reset();
        blurred_.reset();
        occupied_.reset();
        fine_.reset();
        layout_ = {};
        return e.what();
    }
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    return "";
}

int ParticleSplat::cellsX() const {
    return (layout_.tileWidth + kCell - 1) / kCell;
}

int ParticleSplat::cellsY() const {
    return (layout_.tileHeight + kCell - 1) / kCell;
}

int ParticleSplat::occupiedWidth() const {
    return layout_.columns * (cellsX() + 2);
}

int ParticleSplat::occupiedHeight() const {
    const int rows = (splat::kClasses + layout_.columns - 1) / layout_.columns;
    return rows * (cellsY() + 2);
}

int ParticleSplat::fineWidth() const {
    return layout_.columns * cellsX() * kFine;
}

int ParticleSplat::fineHeight() const {
    const int rows = (splat::kClasses + layout_.columns - 1) / layout_.columns;
    return rows * cellsY() * kFine;
}

void ParticleSplat::beginSplats() {
    // No clear: the atlas is zero (prepare() clears it, and finish() zeroes the cells it used),
    // which costs a fraction of clearing all of it every frame (docs/benchmarks.md, issue 31).
    glBindFramebuffer(GL_FRAMEBUFFER, splatsFbo_.id());
    glViewport(0, 0, layout_.width, layout_.height);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
}

void ParticleSplat::beginWideBodies() {
    glBeginConditionalRender(wideQuery_.id(), GL_QUERY_WAIT);
}

void ParticleSplat::endWideBodies() {
    glEndConditionalRender();
}

void ParticleSplat::finish(GLint targetFramebuffer, const GLint viewport[4], DrawProfile& profile) {
    glUseProgram(program_.id());
    glUniform2i(uTileStride_, layout_.tileWidth + 2 * layout_.gutter,
                layout_.tileHeight + 2 * layout_.gutter);
    glUniform1i(uGutter_, layout_.gutter);
    glUniform1i(uColumns_, layout_.columns);
    glUniform2i(uTileSize_, layout_.tileWidth, layout_.tileHeight);
    const GLsizei quads = 6 * cellsX() * cellsY();
    // One draw per class over its tile's interior in the atlas (the class as a uniform, so a
    // pass's taps are the same for the whole draw).
    auto drawEachClassTile = [&] {
        for (int k = 0; k < splat::kClasses; ++k) {
            const int x = (k % layout_.columns) * (layout_.tileWidth + 2 * layout_.gutter);
            const int y = (k / layout_.columns) * (layout_.tileHeight + 2 * layout_.gutter);
            glViewport(x + layout_.gutter, y + layout_.gutter, layout_.tileWidth,
                       layout_.tileHeight);
            glUniform1i(uClass_, k);
            glDrawArrays(GL_TRIANGLES, 0, quads);
        }
    };
    glBindVertexArray(vao_.id());
    glActiveTexture(GL_TEXTURE0);

    // Pass 3: the fine map from the splats, one texel per block; pass 2: the occupancy map from
    // it, one texel per cell (zero in its border).
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, fineFbo_.id());
    glViewport(0, 0, fineWidth(), fineHeight());
    glBindTexture(GL_TEXTURE_2D, splats_.id());
    glUniform1i(uPass_, 3);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindFramebuffer(GL_FRAMEBUFFER, occupiedFbo_.id());
    glViewport(0, 0, occupiedWidth(), occupiedHeight());
    glBindTexture(GL_TEXTURE_2D, fine_.id());
    glUniform1i(uPass_, 2);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    profile.mark("occupancy");
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, occupied_.id());
    glActiveTexture(GL_TEXTURE0);

    // Pass 0: each tile's interior blurred along x by its class's weights, atlas to atlas, one
    // class a draw so the taps are uniform (llvmpipe runs a per-pixel class 5x slower). The
    // gutters of `blurred_` stay as cleared: zero rows for pass 1's taps.
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, blurredFbo_.id());
    glBindTexture(GL_TEXTURE_2D, splats_.id());
    glUniform1i(uPass_, 0);
    drawEachClassTile();

    profile.mark("blur x");
    // Pass 4: the cells pass 0 read (every cell holding a splat, and its neighbours) back to zero
    // in the splats' atlas, for the next frame's splats.
    glBindFramebuffer(GL_FRAMEBUFFER, splatsFbo_.id());
    glBindTexture(GL_TEXTURE_2D, 0);  // the atlas it writes is not read meanwhile
    glUniform1i(uPass_, 4);
    drawEachClassTile();
    // Pass 5: whether a body too wide to splat marked the atlas's corner texel: one fragment,
    // kept only then, counted by the query endWideBodies()'s pass is conditional on. It draws
    // into the occupancy map's corner, a border texel that stays zero. Then the corner is zeroed.
    glBindFramebuffer(GL_FRAMEBUFFER, occupiedFbo_.id());
    glViewport(0, 0, 1, 1);
    glBindTexture(GL_TEXTURE_2D, splats_.id());
    glUniform1i(uPass_, 5);
    glBeginQuery(GL_ANY_SAMPLES_PASSED, wideQuery_.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEndQuery(GL_ANY_SAMPLES_PASSED);
    glBindFramebuffer(GL_FRAMEBUFFER, splatsFbo_.id());
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 1, 1);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    profile.mark("splats zeroed");
    // Pass 1: along y, every tile summed, added to the target.
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(targetFramebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    glBindTexture(GL_TEXTURE_2D, blurred_.id());
    glUniform1i(uPass_, 1);
    glUniform2i(uOrigin_, viewport[0], viewport[1]);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glDrawArrays(GL_TRIANGLES, 0, quads);
    glDisable(GL_BLEND);
    profile.mark("blur y + sum");

    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(0);
    glUseProgram(0);
}

}  // namespace clviz
