#pragma once
// The procedural picture behind assets/default.png, at any size: gradients, a colour wheel,
// fine lines and checkers, text, shaded spheres, a noise patch and an orientation arrow, so
// rotations (aliasing, holes, edges) and histograms (full range, peaks, smooth spreads) are
// easy to judge. Deterministic: the same size always gives the same pixels.
#include "compute/image/image.hpp"

namespace clviz {

Rgba8Image makeTestPattern(int width, int height);

// Size of the shipped default image.
constexpr int kDefaultImageWidth = 1024;
constexpr int kDefaultImageHeight = 768;

}  // namespace clviz
