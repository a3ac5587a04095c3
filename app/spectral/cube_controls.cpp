#include "app/spectral/cube_controls.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace clviz {

namespace {

// The band whose wavelength is nearest `nm`, or `fallback` without wavelengths.
int nearestBand(const std::vector<double>& wavelength, double nm, int fallback) {
    if (wavelength.empty()) return fallback;
    int best = 0;
    for (int b = 1; b < int(wavelength.size()); ++b)
        if (std::abs(wavelength[b] - nm) < std::abs(wavelength[best] - nm)) best = b;
    return best;
}

}  // namespace

int clampBandOf(int b, const CubeShape& shape) {
    return std::clamp(b, 0, std::max(0, shape.bands - 1));
}

int componentsOf(const SpectralControls& c, const CubeShape& shape) {
    return std::clamp(c.components, 1, std::max(1, shape.bands));
}

int keepOf(const SpectralControls& c, const CubeShape& shape) {
    return std::clamp(c.keep, 0, shape.bands);
}

std::vector<int> shownBandsOf(const SpectralControls& c, const CubeShape& shape) {
    if (c.view == SpectralViewMode::Band) return {clampBandOf(c.band, shape)};
    return {clampBandOf(c.rgbBands[0], shape), clampBandOf(c.rgbBands[1], shape),
            clampBandOf(c.rgbBands[2], shape)};
}

void fitControlsToCube(SpectralControls& c, const EnviHeader& meta, const CubeShape& shape) {
    const int B = shape.bands;
    if (c.rgbBands[0] < 0 || c.rgbBands[0] >= B || c.rgbBands[1] >= B || c.rgbBands[2] >= B) {
        c.rgbBands = {nearestBand(meta.wavelength, 640, B * 2 / 3),
                      nearestBand(meta.wavelength, 550, B / 2),
                      nearestBand(meta.wavelength, 460, B / 3)};
    }
    c.band = clampBandOf(c.band, shape);
}

void checkFitsTexture(const CubeShape& shape, const std::string& label, int maxTextureSize) {
    if (shape.samples > maxTextureSize || shape.lines > maxTextureSize)
        throw Error("cannot show '" + label + "': " + std::to_string(shape.samples) + " x " +
                    std::to_string(shape.lines) + " pixels is larger than GL_MAX_TEXTURE_SIZE (" +
                    std::to_string(maxTextureSize) + ")");
}

}  // namespace clviz
