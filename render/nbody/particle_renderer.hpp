#pragma once
// Draws N bodies straight from GL buffers (the interop bridge's slots) as soft point sprites with
// additive blending. Works on a GL 3.3 core context.
#include <glad/gl.h>

#include <memory>
#include <string>

#include "render/gl/resources.hpp"
#include "render/nbody/camera.hpp"
#include "render/nbody/draw_profile.hpp"

namespace clviz {

enum class ParticleColour { Speed, Mass, Fixed };
enum class ColourMap { Inferno, Viridis, Ice };
// Sprites: a soft disc of fragments per body. Splat: one pixel per body, then a blur per sprite
// size class (particle_splat.*), the same light and shape at a fraction of the fragments; bodies
// larger than the biggest class on screen still get a sprite. Auto: splat on a GPU, sprites on a
// CPU rasterizer (llvmpipe), where the splat's three vertex passes and blur fetches cost more
// than the sprites' fragments (docs/benchmarks.md, issue 31).
enum class ParticleDraw { Auto, Splat, Sprites };

const char* particleColourName(ParticleColour c);             // "speed", "mass", "fixed"
ParticleColour parseParticleColour(const std::string& name);  // throws clviz::Error
const char* colourMapName(ColourMap m);                       // "inferno", "viridis", "ice"
ColourMap parseColourMap(const std::string& name);            // throws clviz::Error
const char* particleDrawName(ParticleDraw d);                 // "auto", "splat", "sprites"
ParticleDraw parseParticleDraw(const std::string& name);      // throws clviz::Error

struct ParticleStyle {
    ParticleColour colour = ParticleColour::Speed;
    ColourMap map = ColourMap::Inferno;
    ParticleDraw draw = ParticleDraw::Auto;
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

class ParticleSplat;

class ParticleRenderer {
  public:
    // Builds the program (shaders/particles.*) and vertex array; throws clviz::Error with the log.
    ParticleRenderer();
    ~ParticleRenderer();

    // Draws into the current framebuffer and viewport. Leaves blending and depth test off.
    void draw(const ParticleSource& source, const OrbitCamera& camera, int viewportWidth,
              int viewportHeight, const ParticleStyle& style);

    float maxPointSize() const { return maxPointSize_; }

    // Why the last splat draw fell back to sprites ("" when it did not).
    const std::string& splatUnavailable() const { return splatUnavailable_; }
    // What the last draw used: Splat or Sprites (Auto resolved).
    ParticleDraw lastDraw() const { return lastDraw_; }
    // Is the GL renderer a CPU rasterizer (llvmpipe, softpipe, SwiftShader)? Auto draws sprites.
    static bool softwareRasterizer(const std::string& glRenderer);

  private:
    void bindSource(const ParticleSource& source, bool speed);
    void drawPoints(GLsizei count, int pass);

    GlProgram program_;
    GlVertexArray vao_;
    float maxPointSize_ = 64;
    GLint uView_, uProjection_, uSize_, uPixelScale_, uMaxPointSize_, uColourMode_, uColourMap_,
        uColourScale_, uFixedColour_, uIntensity_, uPass_, uSplatMaxPixels_, uAtlasTile_,
        uAtlasSize_;
    std::unique_ptr<ParticleSplat> splat_;
    DrawProfile profile_;
    std::string splatUnavailable_;
    bool splatFailed_ = false;
    ParticleDraw autoDraw_ = ParticleDraw::Splat;
    ParticleDraw lastDraw_ = ParticleDraw::Sprites;
};

}  // namespace clviz
