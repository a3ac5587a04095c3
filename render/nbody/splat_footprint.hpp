#pragma once
// The arithmetic of the splat drawing (particle_splat.*), no GL: which size class a body's
// sprite falls in, and the blur weights that spread its one splatted pixel the way its sprite
// would have spread, averaged over where in its pixel the body sits. particles.vert repeats
// classOf(); tests/render/nbody/splat_footprint_test.cpp holds both to a rasterized sprite.
#include <array>

namespace clviz::splat {

constexpr int kClasses = 7;  // sprite diameters 1, 1.41, 2, ..., 8 pixels
constexpr int kMaxTap = 4;   // the widest class blurs over offsets -4..4

// Sprite diameter (pixels) the class stands for: 2^(k/2).
float classDiameter(int k);
// The class whose diameter is nearest in ratio; diameters below 1 pixel are class 0.
int classOf(float diameterPixels);
// Sprites wider than this are drawn as sprites, not splatted (halfway to a class beyond the last).
float largestSplatDiameter();
// Offsets a class blurs over: the pixels whose span reaches into the sprite's radius.
int tapsOf(int k);

// Light a sprite of `diameter` pixels puts in the pixel `offset` away along one axis, averaged
// over the body's position in its own pixel: the integral of exp(-4 x^2 / R^2) over
// [offset - 1/2, offset + 1/2] within [-R, R], R = diameter / 2 (at least 1/2: a sprite is never
// under a pixel). The sprite's falloff is exp(-4 r^2) = exp(-4 x^2/R^2) exp(-4 y^2/R^2), so its
// footprint is this times the same in y, up to the disc's corners (under 1% of the light).
double footprintWeight(float diameter, int offset);

// footprintWeight(classDiameter(k), i) for i = 0..kMaxTap, per class, as the shader's uniform.
std::array<float, kClasses*(kMaxTap + 1)> classWeights();

}  // namespace clviz::splat
