// The splat drawing against the sprites it stands for, on the GL at hand (llvmpipe here): the
// same bodies drawn both ways into a float framebuffer must give the same light, in the same
// places, with an awkward viewport (odd size, not at the origin); bodies too wide to splat are
// drawn as sprites either way.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "render/gl/resources.hpp"
#include "render/nbody/camera.hpp"
#include "render/nbody/particle_renderer.hpp"
#include "render/nbody/particle_splat.hpp"
#include "render/nbody/splat_footprint.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

constexpr int kFbWidth = 211, kFbHeight = 149;     // the framebuffer
constexpr GLint kViewport[4] = {13, 7, 173, 127};  // odd, off the origin

class ParticleSplatGl : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { gl_ = new test::HiddenGlContext(64, 64); }
    static void TearDownTestSuite() {
        delete gl_;
        gl_ = nullptr;
    }
    void SetUp() override {
        if (!gl_->ok()) GTEST_SKIP() << gl_->error();
    }

    // Draws the bodies into a cleared RGBA32F framebuffer; returns its RGB, row by row.
    std::vector<float> draw(const std::vector<float>& xyzw, ParticleDraw mode, float size) {
        GlTexture colour = makeGlTexture();
        glBindTexture(GL_TEXTURE_2D, colour.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, kFbWidth, kFbHeight, 0, GL_RGBA, GL_FLOAT,
                     nullptr);
        GlFramebuffer fb = makeGlFramebuffer();
        glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour.id(), 0);
        EXPECT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));
        glViewport(0, 0, kFbWidth, kFbHeight);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glViewport(kViewport[0], kViewport[1], kViewport[2], kViewport[3]);

        GlBuffer buffer = makeGlBuffer();
        glBindBuffer(GL_ARRAY_BUFFER, buffer.id());
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(xyzw.size() * sizeof(float)), xyzw.data(),
                     GL_STATIC_DRAW);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        ParticleSource source;
        source.positions = buffer.id();
        source.count = GLsizei(xyzw.size() / 4);
        ParticleStyle style;
        style.colour = ParticleColour::Fixed;
        style.fixedColour[0] = 1.0f;
        style.fixedColour[1] = 0.5f;
        style.fixedColour[2] = 0.25f;
        style.intensity = 1.0f;
        style.size = size;
        style.draw = mode;
        OrbitCamera camera;
        camera.frame(1.0f);
        renderer_.draw(source, camera, kViewport[2], kViewport[3], style);
        EXPECT_EQ(renderer_.lastDraw(), mode);
        EXPECT_EQ(renderer_.splatUnavailable(), "");

        // The renderer leaves the target bound with its viewport.
        GLint bound = 0, viewport[4] = {};
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
        glGetIntegerv(GL_VIEWPORT, viewport);
        EXPECT_EQ(GLuint(bound), fb.id());
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(viewport[i], kViewport[i]);

        std::vector<float> rgba(std::size_t(kFbWidth) * kFbHeight * 4);
        glReadPixels(0, 0, kFbWidth, kFbHeight, GL_RGBA, GL_FLOAT, rgba.data());
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        EXPECT_EQ(takeGlError(), "");
        std::vector<float> rgb;
        rgb.reserve(rgba.size() / 4 * 3);
        for (std::size_t i = 0; i < rgba.size(); i += 4)
            rgb.insert(rgb.end(), {rgba[i], rgba[i + 1], rgba[i + 2]});
        return rgb;
    }

    static std::vector<float> bodies(int n, float spread, unsigned seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> u(-spread, spread);
        std::vector<float> xyzw;
        for (int i = 0; i < n; ++i)
            xyzw.insert(xyzw.end(), {u(rng), u(rng), u(rng), 1.0f});
        return xyzw;
    }

    static test::HiddenGlContext* gl_;
    ParticleRenderer renderer_;
};

test::HiddenGlContext* ParticleSplatGl::gl_ = nullptr;

double total(const std::vector<float>& rgb, int channel) {
    double s = 0;
    for (std::size_t i = std::size_t(channel); i < rgb.size(); i += 3)
        s += rgb[i];
    return s;
}

// Sum over 16x16 blocks: where the light is, without the sub-pixel placement of single sprites.
std::vector<double> blocks(const std::vector<float>& rgb) {
    const int bw = (kFbWidth + 15) / 16, bh = (kFbHeight + 15) / 16;
    std::vector<double> b(std::size_t(bw * bh), 0.0);
    for (int y = 0; y < kFbHeight; ++y)
        for (int x = 0; x < kFbWidth; ++x)
            b[std::size_t((y / 16) * bw + x / 16)] += rgb[std::size_t((y * kFbWidth + x) * 3)];
    return b;
}

TEST_F(ParticleSplatGl, SameLightInTheSamePlacesAsSprites) {
    // Sprites from under a pixel to about 9 (the camera sits 2.9 units away).
    for (float size : {0.004f, 0.013f, 0.03f}) {
        const std::vector<float> xyzw = bodies(20011, 0.9f, 7);
        const std::vector<float> sprites = draw(xyzw, ParticleDraw::Sprites, size);
        const std::vector<float> splat = draw(xyzw, ParticleDraw::Splat, size);
        std::printf("size %g: sprites %g splat %g\n", size, total(sprites, 0), total(splat, 0));
        for (int c = 0; c < 3; ++c) {
            ASSERT_GT(total(sprites, c), 0.0);
            EXPECT_NEAR(total(splat, c) / total(sprites, c), 1.0, 0.03)
                << "size " << size << " channel " << c;
        }
        // Nothing outside the viewport.
        for (int y = 0; y < kFbHeight; ++y)
            for (int x = 0; x < kFbWidth; ++x) {
                const bool inside = x >= kViewport[0] && x < kViewport[0] + kViewport[2] &&
                                    y >= kViewport[1] && y < kViewport[1] + kViewport[3];
                if (!inside) {
                    ASSERT_EQ(splat[std::size_t((y * kFbWidth + x) * 3)], 0.0f);
                }
            }
        const std::vector<double> a = blocks(sprites), b = blocks(splat);
        double diff = 0, sum = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            diff += std::abs(a[i] - b[i]);
            sum += a[i];
        }
        std::printf("size %g: block difference %g\n", size, diff / sum);
        EXPECT_LT(diff / sum, 0.08) << "size " << size;
    }
}

// A few bodies over mostly empty space: the occupancy maps (a fine map of blocks, then the cells)
// must keep every body's cell, wherever in its cell and block the body falls, or its light is
// lost. Two seeds and sizes, so bodies land at many offsets within the blocks. Sprites of a few
// pixels: below one pixel, 53 sprites' light depends on where each falls within its pixel.
TEST_F(ParticleSplatGl, SparseBodiesKeepTheirLight) {
    for (const auto& [seed, size] : {std::pair{3u, 0.013f}, std::pair{5u, 0.03f}}) {
        const std::vector<float> xyzw = bodies(53, 0.9f, seed);
        const std::vector<float> sprites = draw(xyzw, ParticleDraw::Sprites, size);
        const std::vector<float> splat = draw(xyzw, ParticleDraw::Splat, size);
        ASSERT_GT(total(sprites, 0), 0.0);
        EXPECT_NEAR(total(splat, 0) / total(sprites, 0), 1.0, 0.05) << "seed " << seed;
        const std::vector<double> a = blocks(sprites), b = blocks(splat);
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] > 0.25 * total(sprites, 0) / 53) {  // a quarter of a body's light or more
                EXPECT_GT(b[i], 0.5 * a[i]) << "seed " << seed << " block " << i;
            }
    }
}

// The atlas is cleared once, then each frame zeroes the cells it used: the same bodies drawn
// again give the same image, bit for bit, after a frame of other bodies in other places.
TEST_F(ParticleSplatGl, EachFrameStartsFromAZeroAtlas) {
    const std::vector<float> first = bodies(3001, 0.5f, 13), other = bodies(2003, 0.9f, 17);
    const std::vector<float> once = draw(first, ParticleDraw::Splat, 0.02f);
    draw(other, ParticleDraw::Splat, 0.006f);
    EXPECT_EQ(draw(first, ParticleDraw::Splat, 0.02f), once);
}

TEST_F(ParticleSplatGl, WideBodiesStaySprites) {
    // Every body wider than the largest class: the splat mode draws exactly the sprites.
    const std::vector<float> xyzw = bodies(101, 0.5f, 11);
    const float size = 0.15f;  // 13 pixels and more at this distance
    ASSERT_GT(2 * size * (kViewport[3] / (2 * std::tan(0.3926991f))) / 3.4f,
              splat::largestSplatDiameter());
    EXPECT_EQ(draw(xyzw, ParticleDraw::Splat, size), draw(xyzw, ParticleDraw::Sprites, size));
}

TEST(ParticleSplatLayout, TilesFitTheTextureLimit) {
    const SplatAtlasLayout wide = splatAtlasLayout(1280, 720, 16384);
    EXPECT_EQ(wide.columns, splat::kClasses);
    EXPECT_EQ(wide.width, splat::kClasses * (1280 + 2 * wide.gutter));
    EXPECT_EQ(wide.height, 720 + 2 * wide.gutter);
    EXPECT_GT(wide.gutter, splat::kMaxTap);
    const SplatAtlasLayout tall = splatAtlasLayout(3840, 2160, 16384);
    EXPECT_EQ(tall.columns, 4);
    EXPECT_LE(tall.width, 16384);
    EXPECT_LE(tall.height, 16384);
    EXPECT_EQ(splatAtlasLayout(16384, 16384, 16384).columns, 0);
}

}  // namespace
}  // namespace clviz
