// The spectral lab's controls against a cube (app/spectral/cube_controls.hpp): what the frame and
// the lab's jobs both use to clamp m, k and bands, pick the rows the denoised picture needs, and
// refuse a cube too wide for a texture.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/spectral/cube_controls.hpp"
#include "common/error.hpp"

namespace clviz {
namespace {

TEST(SpectralCubeControls, MAndKAndBandsAreClampedToTheCube) {
    const CubeShape shape{7, 5, 3};
    SpectralControls c;
    c.components = 20;
    c.keep = 9;
    EXPECT_EQ(componentsOf(c, shape), 3);
    EXPECT_EQ(keepOf(c, shape), 3);
    c.components = 0;
    c.keep = -4;
    EXPECT_EQ(componentsOf(c, shape), 1);
    EXPECT_EQ(keepOf(c, shape), 0);
    EXPECT_EQ(clampBandOf(-1, shape), 0);
    EXPECT_EQ(clampBandOf(3, shape), 2);
    EXPECT_EQ(clampBandOf(1, shape), 1);
}

TEST(SpectralCubeControls, TheDenoisedRowsAreTheBandsShown) {
    const CubeShape shape{7, 5, 11};
    SpectralControls c;
    c.view = SpectralViewMode::Band;
    c.band = 40;
    EXPECT_EQ(shownBandsOf(c, shape), (std::vector<int>{10}));
    c.view = SpectralViewMode::BandRgb;
    c.rgbBands = {9, 4, 13};
    EXPECT_EQ(shownBandsOf(c, shape), (std::vector<int>{9, 4, 10}));
    c.view = SpectralViewMode::MnfRgb;  // the denoised picture still shows the three bands
    EXPECT_EQ(shownBandsOf(c, shape), (std::vector<int>{9, 4, 10}));
}

TEST(SpectralCubeControls, ANewCubeGetsNaturalColourFromItsWavelengths) {
    const CubeShape shape{7, 5, 5};
    EnviHeader meta;
    meta.wavelength = {450, 465, 560, 630, 700};
    SpectralControls c;  // rgbBands -1: not picked yet
    c.band = 12;
    fitControlsToCube(c, meta, shape);
    EXPECT_EQ(c.rgbBands, (std::array<int, 3>{3, 2, 1}));  // nearest 640, 550 and 460 nm
    EXPECT_EQ(c.band, 4);
    // Bands already inside the cube stay; without wavelengths, fixed fractions of the bands.
    fitControlsToCube(c, EnviHeader{}, shape);
    EXPECT_EQ(c.rgbBands, (std::array<int, 3>{3, 2, 1}));
    c.rgbBands = {-1, -1, -1};
    fitControlsToCube(c, EnviHeader{}, CubeShape{7, 5, 12});
    EXPECT_EQ(c.rgbBands, (std::array<int, 3>{8, 6, 4}));
}

TEST(SpectralCubeControls, ACubeWiderThanATextureIsRefusedWithItsSize) {
    EXPECT_NO_THROW(checkFitsTexture(CubeShape{64, 64, 3}, "c.hdr", 64));
    try {
        checkFitsTexture(CubeShape{65, 2, 3}, "c.hdr", 64);
        FAIL() << "a 65-pixel-wide cube fitted a 64-pixel texture";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot show 'c.hdr': 65 x 2 pixels is larger than GL_MAX_TEXTURE_SIZE (64)");
    }
    EXPECT_THROW(checkFitsTexture(CubeShape{2, 65, 3}, "c.hdr", 64), Error);
}

}  // namespace
}  // namespace clviz
