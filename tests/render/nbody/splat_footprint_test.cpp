// The splat's arithmetic against a sprite rasterized the way GL rasterizes a point sprite:
// a body splatted into its pixel and blurred by footprintWeight() must put the same light in
// each pixel around it as its sprite does on average over where in its pixel the body sits.
#include "render/nbody/splat_footprint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace clviz::splat {
namespace {

// Light of a sprite `diameter` pixels wide (particles.vert/.frag: point size max(d, 1), falloff
// exp(-4 r^2) inside the disc, times the coverage min(d, 1)) in the pixel (i, j) away from the
// body's pixel, averaged over a steps x steps grid of positions within that pixel.
std::vector<double> rasterizedSprite(float diameter, int reach, int steps) {
    const int side = 2 * reach + 1;
    std::vector<double> light(std::size_t(side * side), 0.0);
    const double size = std::max(1.0f, diameter), coverage = std::min(1.0f, diameter);
    for (int sy = 0; sy < steps; ++sy)
        for (int sx = 0; sx < steps; ++sx) {
            const double bx = (sx + 0.5) / steps, by = (sy + 0.5) / steps;  // in pixel 0
            for (int j = -reach; j <= reach; ++j)
                for (int i = -reach; i <= reach; ++i) {
                    // GL: a pixel belongs to the point when its centre is inside the square.
                    const double dx = i + 0.5 - bx, dy = j + 0.5 - by;
                    if (std::abs(dx) >= size / 2 || std::abs(dy) >= size / 2) continue;
                    const double px = 2 * dx / size, py = 2 * dy / size;
                    const double r2 = px * px + py * py;
                    if (r2 > 1) continue;
                    light[std::size_t((j + reach) * side + i + reach)] +=
                        coverage * std::exp(-4 * r2) / (steps * steps);
                }
        }
    return light;
}

TEST(SplatFootprint, ClassesAreTheNearestInRatio) {
    EXPECT_EQ(classOf(0.0f), 0);
    EXPECT_EQ(classOf(0.3f), 0);
    EXPECT_EQ(classOf(1.0f), 0);
    for (int k = 0; k < kClasses; ++k) {
        const float d = classDiameter(k);
        EXPECT_NEAR(d, std::pow(2.0f, k / 2.0f), 1e-5f);
        EXPECT_EQ(classOf(d), k);
        EXPECT_EQ(classOf(d * 1.15f), k) << d;  // within 2^(1/4) = 1.19 either side
        if (k > 0) {
            EXPECT_EQ(classOf(d / 1.15f), k) << d;
        }
    }
    EXPECT_EQ(classOf(largestSplatDiameter()), kClasses - 1);
    EXPECT_EQ(classOf(1000.0f), kClasses - 1);
    EXPECT_NEAR(largestSplatDiameter(), 8 * std::pow(2.0f, 0.25f), 1e-4f);
}

TEST(SplatFootprint, TapsReachEveryLitPixelAndNoMore) {
    for (int k = 0; k < kClasses; ++k) {
        const int taps = tapsOf(k);
        ASSERT_LE(taps, kMaxTap);
        EXPECT_GT(footprintWeight(classDiameter(k), taps), 0.0) << "class " << k;
        EXPECT_EQ(footprintWeight(classDiameter(k), taps + 1), 0.0) << "class " << k;
        EXPECT_EQ(footprintWeight(classDiameter(k), -taps - 1), 0.0) << "class " << k;
    }
    const auto w = classWeights();
    for (int k = 0; k < kClasses; ++k)
        for (int i = 0; i <= kMaxTap; ++i)
            EXPECT_FLOAT_EQ(w[std::size_t(k * (kMaxTap + 1) + i)],
                            i <= tapsOf(k) ? float(footprintWeight(classDiameter(k), i)) : 0.0f);
}

TEST(SplatFootprint, MatchesTheRasterizedSpriteOnAverage) {
    // Awkward diameters: under a pixel, between classes, each class, the largest splatted.
    for (float d : {0.4f, 1.0f, 1.3f, 2.0f, 2.83f, 3.7f, 5.66f, 7.0f, 8.0f, 9.4f}) {
        const int reach = 6, side = 2 * reach + 1;
        const std::vector<double> sprite = rasterizedSprite(d, reach, 64);
        double spriteTotal = 0, splatTotal = 0, peak = 0, worst = 0;
        for (int j = -reach; j <= reach; ++j)
            for (int i = -reach; i <= reach; ++i) {
                const double s = sprite[std::size_t((j + reach) * side + i + reach)];
                const double f = std::min(1.0f, d) * footprintWeight(d, i) * footprintWeight(d, j);
                spriteTotal += s;
                splatTotal += f;
                peak = std::max(peak, s);
                worst = std::max(worst, std::abs(s - f));
            }
        // The splat's separable footprint keeps the disc's corners (under 1% of the light).
        EXPECT_NEAR(splatTotal / spriteTotal, 1.0, 0.015) << "diameter " << d;
        EXPECT_LT(worst, 0.02 * peak) << "diameter " << d;
    }
}

TEST(SplatFootprint, ClassWeightsScaledKeepEachSpritesLight) {
    // The splat carries (d / class diameter)^2 of its light: the class's footprint then holds
    // exactly the light of a sprite d wide (particles.vert's lightScale).
    for (float d : {1.2f, 2.4f, 3.1f, 4.6f, 6.5f, 9.0f}) {
        const int k = classOf(d);
        double sum = 0, own = 0;
        for (int i = -kMaxTap - 2; i <= kMaxTap + 2; ++i) {
            sum += footprintWeight(classDiameter(k), i);
            own += footprintWeight(d, i);
        }
        const double scale = double(d) * d / (classDiameter(k) * classDiameter(k));
        EXPECT_NEAR(scale * sum * sum / (own * own), 1.0, 0.01) << "diameter " << d;
    }
}

}  // namespace
}  // namespace clviz::splat
