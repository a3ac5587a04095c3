#include "render/nbody/particle_renderer.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace clviz {

const char* particleColourName(ParticleColour c) {
    switch (c) {
        case ParticleColour::Speed:
            return "speed";
        case ParticleColour::Mass:
            return "mass";
        case ParticleColour::Fixed:
            return "fixed";
    }
    return "?";
}

ParticleColour parseParticleColour(const std::string& name) {
    for (auto c : {ParticleColour::Speed, ParticleColour::Mass, ParticleColour::Fixed})
        if (name == particleColourName(c)) return c;
    throw Error("unknown colour mode '" + name + "' (expected speed, mass or fixed)");
}

const char* colourMapName(ColourMap m) {
    switch (m) {
        case ColourMap::Inferno:
            return "inferno";
        case ColourMap::Viridis:
            return "viridis";
        case ColourMap::Ice:
            return "ice";
    }
    return "?";
}

ColourMap parseColourMap(const std::string& name) {
    for (auto m : {ColourMap::Inferno, ColourMap::Viridis, ColourMap::Ice})
        if (name == colourMapName(m)) return m;
    throw Error("unknown colour map '" + name + "' (expected inferno, viridis or ice)");
}

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

    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glDrawArrays(GL_POINTS, 0, source.count);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
}

}  // namespace clviz
