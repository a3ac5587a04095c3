#include "render/nbody/splat_footprint.hpp"

#include <algorithm>
#include <cmath>

namespace clviz::splat {

float classDiameter(int k) {
    return std::exp2(0.5f * float(k));
}

int classOf(float diameterPixels) {
    if (!(diameterPixels > 1.0f)) return 0;
    return std::clamp(int(std::lround(2.0f * std::log2(diameterPixels))), 0, kClasses - 1);
}

float largestSplatDiameter() {
    return classDiameter(kClasses - 1) * std::exp2(0.25f);
}

int tapsOf(int k) {
    // Offsets i with i - 1/2 < R.
    const float r = classDiameter(k) / 2;
    return std::min(kMaxTap, int(std::ceil(r + 0.5f)) - 1);
}

double footprintWeight(float diameter, int offset) {
    const double r = std::max(1.0f, diameter) / 2.0;
    const double a = std::max(offset - 0.5, -r), b = std::min(offset + 0.5, r);
    if (b <= a) return 0;
    // The integral of exp(-4 x^2 / r^2) dx is r sqrt(pi) / 4 erf(2 x / r).
    return r * std::sqrt(3.14159265358979323846) / 4 * (std::erf(2 * b / r) - std::erf(2 * a / r));
}

std::array<float, kClasses*(kMaxTap + 1)> classWeights() {
    std::array<float, kClasses*(kMaxTap + 1)> w{};
    for (int k = 0; k < kClasses; ++k)
        for (int i = 0; i <= tapsOf(k); ++i)
            w[std::size_t(k * (kMaxTap + 1) + i)] = float(footprintWeight(classDiameter(k), i));
    return w;
}

}  // namespace clviz::splat
