#pragma once
// Radiance HDR's linear light to the 8-bit sRGB the image lab works on.
#include "compute/image/image.hpp"

namespace clviz {

// Tone-maps linear HDR RGB (3 floats per pixel) to RGBA8: extended Reinhard on luminance with
// the white point at the brightest pixel and the exposure keyed to the log-average luminance,
// then sRGB encoding. loadImage uses it for .hdr files.
Rgba8Image toneMapHdr(const float* rgb, int width, int height);

}  // namespace clviz
