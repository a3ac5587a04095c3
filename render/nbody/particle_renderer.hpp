#pragma once
// Draws N bodies straight from GL buffers (the interop bridge's slots) as soft point sprites with
// additive blending. Works on a GL 3.3 core context.
#include <glad/gl.h>

#include <string>

#include "render/gl/resources.hpp"
#include "render/nbody/camera.hpp"

namespace clviz {

enum class ParticleColour { Speed, Mass, Fixed };
enum class ColourMap { Inferno, Viridis, Ice };

const char* particleColourName(ParticleColour c);             // "speed", "mass", "fixed"
ParticleColour parseParticleColour(const std::string& name);  // throws clviz::Error
const char* colourMapName(ColourMap m);                       // "inferno", "viridis", "ice"
ColourMap parseColourMap(const std::string& name);            // throws clviz::Error

struct ParticleStyle {
    ParticleColour colour = ParticleColour::Speed;
    ColourMap map = ColourMap::Inferno;
    float fixedColour[3] = {1.0f, 0.75f, 0.45f};
    float size = 0.02f;        // world-space sprite radius
    float intensity = 0.6f;    // brightness per sprite before additive blending
    float colourScale = 1.0f;  // speed (or mass) at the top of the colour map
};

// Where the float4 data lives. Velocities are only read for ParticleColour::Speed; 0 = none.
struct ParticleSource {
    GLuint positions = 0;
    GLintptr positionsOffset = 0;
    GLuint velocities = 0;
    GLintptr velocitiesOffset = 0;
    GLsizei count = 0;
};

class ParticleRenderer {
  public:
    // Builds the program (shaders/particles.*) and vertex array; throws clviz::Error with the log.
    ParticleRenderer();

    // Draws into the current framebuffer and viewport. Leaves blending and depth test off.
    void draw(const ParticleSource& source, const OrbitCamera& camera, int viewportWidth,
              int viewportHeight, const ParticleStyle& style);

    float maxPointSize() const { return maxPointSize_; }

  private:
    GlProgram program_;
    GlVertexArray vao_;
    float maxPointSize_ = 64;
    GLint uView_, uProjection_, uSize_, uPixelScale_, uMaxPointSize_, uColourMode_, uColourMap_,
        uColourScale_, uFixedColour_, uIntensity_;
};

}  // namespace clviz
