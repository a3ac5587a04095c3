#pragma once
// What the user steers in the spectral lab besides the cube itself: the noise estimate and the
// rectangle it comes from, the components kept (m) and used to denoise (k), and what the images
// show; the `--set key=value` / Demo::set language over them. Pure (no GL, no CL), so every key
// and bad value is unit-tested; the panels edit the same struct. Band and component numbers are
// not checked against a cube here (there may be none yet): the demo clamps them to the cube.
#include <array>
#include <string>
#include <vector>

#include "app/demo_flag.hpp"
#include "common/settings_table.hpp"
#include "compute/spectral/noise_estimate.hpp"

namespace clviz {

enum class SpectralViewMode { Band, BandRgb, MnfRgb };

struct SpectralControls {
    NoiseEstimate noise = NoiseEstimate::Diff;
    int components = 20;  // m: components computed, saved and drawn in the eigenvalue plot's cut
    int keep = 10;        // k: components the denoised image keeps
    SpectralViewMode view = SpectralViewMode::BandRgb;
    int band = 0;                             // the band of view=band, and of the spectrum's marker
    std::array<int, 3> rgbBands{-1, -1, -1};  // -1: picked from the wavelengths when a cube loads
    std::array<int, 3> mnfRgb{0, 1, 2};       // components shown as red, green, blue (view=mnf)
    CubeRect noiseRect;                       // samples/lines 0: the whole cube
};

const SettingTable<SpectralControls>& spectralSettings();
// All the lab's keys: cube and save (the demo handles them), then spectralSettings().
std::vector<SettingDoc> spectralLabSettingDocs();
// --cube FILE (sugar for --set cube=FILE).
std::vector<DemoFlag> spectralLabFlags();

// Applies one setting (every key but cube and save). Throws clviz::Error when refused; `c` is
// unchanged then.
void applySpectralSetting(SpectralControls& c, const std::string& key, const std::string& value);

const char* spectralViewName(SpectralViewMode mode);  // "band", "rgb", "mnf"

}  // namespace clviz
