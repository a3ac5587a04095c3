#include "app/spectral/settings.hpp"

#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

using Table = SettingTable<SpectralControls>;
using Value = const std::string&;

constexpr int kMaxIndex = 65535;

std::array<int, 3> threeIndices(const std::string& key, Value v) {
    const std::vector<std::string> parts = splitList(v, ',');
    if (parts.size() != 3) throw Error(key + " expects three numbers, e.g. 29,19,9");
    std::array<int, 3> out{};
    for (int i = 0; i < 3; ++i)
        out[i] = int(settingInteger(key, parts[i], 0, kMaxIndex));
    return out;
}

}  // namespace

const char* spectralViewName(SpectralViewMode mode) {
    switch (mode) {
        case SpectralViewMode::Band:
            return "band";
        case SpectralViewMode::BandRgb:
            return "rgb";
        case SpectralViewMode::MnfRgb:
            return "mnf";
    }
    return "?";
}

const SettingTable<SpectralControls>& spectralSettings() {
    static const Table table = {
        {{"noise", "diff|mean3|median3",
          "Noise estimate: lower-right differences, 3x3 mean residual (x9/8), 3x3 median residual"},
         [](SpectralControls& c, Value v) {
             c.noise = NoiseEstimate(settingChoice("noise", toLower(v), noiseEstimateNames()));
         }},
        {{"components", "1..4096", "MNF components kept (m): saved, and the cut in the plot"},
         [](SpectralControls& c, Value v) {
             c.components = int(settingInteger("components", v, 1, 4096));
         }},
        {{"keep", "0..4096", "Components the denoised image keeps (k)"},
         [](SpectralControls& c, Value v) { c.keep = int(settingInteger("keep", v, 0, 4096)); }},
        {{"view", "band|rgb|mnf", "Left image: one band, three bands, or three MNF components"},
         [](SpectralControls& c, Value v) {
             c.view = SpectralViewMode(settingChoice("view", toLower(v), {"band", "rgb", "mnf"}));
         }},
        {{"band", "0..65535", "Band shown by view=band (clamped to the cube)"},
         [](SpectralControls& c, Value v) {
             c.band = int(settingInteger("band", v, 0, kMaxIndex));
         }},
        {{"rgb", "R,G,B", "Bands shown as red, green and blue (view=rgb)"},
         [](SpectralControls& c, Value v) { c.rgbBands = threeIndices("rgb", v); }},
        {{"mnf-rgb", "A,B,C", "MNF components shown as red, green and blue (view=mnf), from 0"},
         [](SpectralControls& c, Value v) { c.mnfRgb = threeIndices("mnf-rgb", v); }},
        {{"noise-rect", "all|X,Y,W,H",
          "Pixels the noise statistics come from (X, Y: top-left sample and line)"},
         [](SpectralControls& c, Value v) {
             if (toLower(trim(v)) == "all") {
                 c.noiseRect = {};
                 return;
             }
             const std::vector<std::string> parts = splitList(v, ',');
             if (parts.size() != 4) throw Error("noise-rect expects all or X,Y,W,H");
             c.noiseRect = {int(settingInteger("noise-rect", parts[0], 0, kMaxIndex)),
                            int(settingInteger("noise-rect", parts[1], 0, kMaxIndex)),
                            int(settingInteger("noise-rect", parts[2], 1, kMaxIndex + 1)),
                            int(settingInteger("noise-rect", parts[3], 1, kMaxIndex + 1))};
         }},
    };
    return table;
}

std::vector<SettingDoc> spectralLabSettingDocs() {
    std::vector<SettingDoc> docs = {
        {"cube", "FILE", "Loads an ENVI cube (FILE.hdr beside its data file)", {}},
        {"save",
         "FILE",
         "Saves the m components as an ENVI float32 cube and FILE.eigenvalues.csv",
         {}}};
    const auto& rows = spectralSettings().docs();
    docs.insert(docs.end(), rows.begin(), rows.end());
    return docs;
}

void applySpectralSetting(SpectralControls& c, const std::string& key, const std::string& value) {
    SpectralControls next = c;
    if (!spectralSettings().apply(next, key, trim(value)))
        throw Error("unknown setting '" + key +
                    "' (spectral lab settings: " + settingKeyList(spectralLabSettingDocs()) + ")");
    c = next;
}

}  // namespace clviz

namespace clviz {

std::vector<DemoFlag> spectralLabFlags() {
    return {{"--cube", "FILE", "ENVI cube to load (FILE.hdr beside its data)", "cube", {}}};
}

}  // namespace clviz
