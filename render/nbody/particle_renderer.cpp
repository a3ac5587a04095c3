#include "render/nbody/particle_renderer.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/named_values.hpp"
#include "render/nbody/particle_splat.hpp"
#include "render/nbody/splat_footprint.hpp"

namespace clviz {

constexpr NamedValue<ParticleColour> kColourNames[] = {{ParticleColour::Speed, "speed"},
                                                       {ParticleColour::Mass, "mass"},
                                                       {ParticleColour::Fixed, "fixed"}};
constexpr NamedValue<ColourMap> kColourMapNames[] = {
    {ColourMap::Inferno, "inferno"}, {ColourMap::Viridis, "viridis"}, {ColourMap::Ice, "ice"}};
constexpr NamedValue<ParticleDraw> kDrawNames[] = {{ParticleDraw::Auto, "auto"},
                                                   {ParticleDraw::Splat, "splat"},
                                                   {ParticleDraw::Sprites, "sprites"}};

const char* particleColourName(ParticleColour c) {
    return nameOf(kColourNames, c);
}
ParticleColour parseParticleColour(const std::string& name) {
    return parseNamed(kColourNames, name, "colour mode");
}
const char* colourMapName(ColourMap m) {
    return nameOf(kColourMapNames, m);
}
ColourMap parseColourMap(const std::string& name) {
    return parseNamed(kColourMapNames, name, "colour map");
}
const char* particleDrawName(ParticleDraw d) {
    return nameOf(kDrawNames, d);
}
ParticleDraw parseParticleDraw(const std::string& name) {
    return parseNamed(kDrawNames, name, "particle drawing");
}

bool ParticleRenderer::softwareRasterizer(const std::string& glRenderer) {
    for (const char* name : {"llvmpipe", "softpipe", "SwiftShader", "Software Rasterizer"})
        if (glRenderer.find(name) != std::string::npos) return true;
    return false;
}

ParticleRenderer::~ParticleRenderer() = default;

ParticleRenderer::ParticleRenderer()
    : program_(buildGlProgram("particles.vert", "particles.frag")), vao_(makeGlVertexArray()) {
    uView_ = uniformLocation(program_, "u_view");
    uProjection_ = uniformLocation(program_, "u_projection");
    uSize_ = uniformLocation(program_, "u_size");
    uPixelScale_ = uniformLocation(program_, "u_pixelScale");
    uMaxPointSize_ = uniformLocation(program_, "u_maxPointSize");
    uColourMode_ = uniformLocation(program_, "u_colourMode");
    uColourMap_ = uniformLocation(program_, "u_colourMap");
    uColourScale_ = uniformLocation(program_, "u_colourScale");
    uFixedColour_ = uniformLocation(program_, "u_fixedColour");
    uIntensity_ = uniformLocation(program_, "u_intensity");
    uPass_ = uniformLocation(program_, "u_pass");
    uSplatMaxPixels_ = uniformLocation(program_, "u_splatMaxPixels");
    uAtlasTile_ = uniformLocation(program_, "u_atlasTile");
    uAtlasSize_ = uniformLocation(program_, "u_atlasSize");
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (renderer && softwareRasterizer(renderer)) autoDraw_ = ParticleDraw::Sprites;
    GLfloat range[2] = {1, 64};
    glGetFloatv(GL_POINT_SIZE_RANGE, range);
    maxPointSize_ = std::max(1.0f, range[1]);
}

void ParticleRenderer::draw(const ParticleSource& source, const OrbitCamera& camera,
                            int viewportWidth, int viewportHeight, const ParticleStyle& style) {
    if (source.positions == 0 || source.count <= 0 || viewportWidth <= 0 || viewportHeight <= 0)
        return;
    const bool speed = style.colour == ParticleColour::Speed && source.velocities != 0;
    const ParticleColour mode =
        style.colour == ParticleColour::Speed && !speed ? ParticleColour::Mass : style.colour;

    // Splatting needs its atlas; where it cannot have one, sprites (the reason is kept). First:
    // building the blur program and the atlas changes the bound program and framebuffer.
    bool splat = (style.draw == ParticleDraw::Auto ? autoDraw_ : style.draw) == ParticleDraw::Splat;
    if (splat) {
        try {
            if (!splat_ && !splatFailed_) splat_ = std::make_unique<ParticleSplat>();
            if (splat_) splatUnavailable_ = splat_->prepare(viewportWidth, viewportHeight);
        } catch (const Error& e) {
            splatFailed_ = true;  // its shaders do not build here: not again every frame
            splatUnavailable_ = e.what();
        }
        splat = splatUnavailable_.empty();
    }
    glUseProgram(program_.id());
    const Mat4 view = camera.view();
    const Mat4 projection = camera.projection(float(viewportWidth) / float(viewportHeight));
    glUniformMatrix4fv(uView_, 1, GL_FALSE, view.data());
    glUniformMatrix4fv(uProjection_, 1, GL_FALSE, projection.data());
    glUniform1f(uSize_, style.size);
    glUniform1f(uPixelScale_, camera.pixelsPerUnitAtDistance1(viewportHeight));
    glUniform1f(uMaxPointSize_, maxPointSize_);
    glUniform1i(uColourMode_, int(mode));
    glUniform1i(uColourMap_, int(style.map));
    glUniform1f(uColourScale_, style.colourScale > 0 ? style.colourScale : 1.0f);
    glUniform3fv(uFixedColour_, 1, style.fixedColour);
    glUniform1f(uIntensity_, style.intensity);

    glUniform1f(uSplatMaxPixels_, splat::largestSplatDiameter());
    bindSource(source, speed);
    profile_.begin();
    if (profile_.enabled()) {  // the vertex work alone: every body, nothing rasterized
        glEnable(GL_RASTERIZER_DISCARD);
        drawPoints(source.count, 0);
        glDisable(GL_RASTERIZER_DISCARD);
        profile_.mark("vertices only");
    }

    if (splat) {
        GLint target = 0, viewport[4] = {};
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
        glGetIntegerv(GL_VIEWPORT, viewport);
        const SplatAtlasLayout& l = splat_->layout();
        glUniform4f(uAtlasTile_, float(l.tileWidth), float(l.tileHeight), float(l.gutter),
                    float(l.columns));
        glUniform2f(uAtlasSize_, float(l.width), float(l.height));
        splat_->beginSplats();
        profile_.mark("atlas bind");  // no clear: ParticleSplat zeroes what it used
        drawPoints(source.count, 2);
        profile_.mark("splats");
        splat_->finish(target, viewport, profile_);
        glUseProgram(program_.id());
        glBindVertexArray(vao_.id());
    }
    lastDraw_ = splat ? ParticleDraw::Splat : ParticleDraw::Sprites;
    // The bodies too wide to splat (close to the camera), only when there are any, or all of them.
    if (splat) splat_->beginWideBodies();
    drawPoints(source.count, splat ? 1 : 0);
    if (splat) splat_->endWideBodies();
    profile_.mark(splat ? "wide sprites" : "sprites");
    profile_.end();
    glBindVertexArray(0);
    glUseProgram(0);
}

void ParticleRenderer::bindSource(const ParticleSource& source, bool speed) {
    glBindVertexArray(vao_.id());
    glBindBuffer(GL_ARRAY_BUFFER, source.positions);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16,
                          reinterpret_cast<const void*>(source.positionsOffset));
    glEnableVertexAttribArray(0);
    if (speed) {
        glBindBuffer(GL_ARRAY_BUFFER, source.velocities);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16,
                              reinterpret_cast<const void*>(source.velocitiesOffset));
        glEnableVertexAttribArray(1);
    } else {
        glDisableVertexAttribArray(1);
        glVertexAttrib4f(1, 0, 0, 0, 0);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void ParticleRenderer::drawPoints(GLsizei count, int pass) {
    glUniform1i(uPass_, pass);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    if (pass != 2) glEnable(GL_PROGRAM_POINT_SIZE);
    glDrawArrays(GL_POINTS, 0, count);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_BLEND);
}

}  // namespace clviz
