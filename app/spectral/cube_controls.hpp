#pragma once
// The spectral lab's controls against a cube: band and component numbers clamped to it, the rows
// the denoised picture needs, the bands shown picked from its wavelengths when it loads, and
// whether its pictures fit a texture.
// Pure (no GL, no CL): the frame and the lab's jobs use the same rules.
#include <string>
#include <vector>

#include "app/spectral/settings.hpp"
#include "compute/spectral/cube.hpp"
#include "compute/spectral/io/envi_header.hpp"

namespace clviz {

int clampBandOf(int b, const CubeShape& shape);
int componentsOf(const SpectralControls& c, const CubeShape& shape);  // m, 1..bands
int keepOf(const SpectralControls& c, const CubeShape& shape);        // k, 0..bands
// Rows the denoised picture needs: the band shown, or the three of the RGB view.
std::vector<int> shownBandsOf(const SpectralControls& c, const CubeShape& shape);
// Natural colour where the wavelengths allow (red 640 nm, green 550 nm, blue 460 nm), and the
// band shown within the cube.
void fitControlsToCube(SpectralControls& c, const EnviHeader& meta, const CubeShape& shape);
// Throws clviz::Error ("cannot show 'label': ...") when the cube's pictures would not fit a GL
// texture of `maxTextureSize` (GL_MAX_TEXTURE_SIZE, read on the frame's thread).
void checkFitsTexture(const CubeShape& shape, const std::string& label, int maxTextureSize);

}  // namespace clviz
