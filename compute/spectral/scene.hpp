#pragma once
// Synthetic hyperspectral scenes, so tests and benchmarks have AVIRIS-sized cubes (no Debian
// package ships a real one). A scene is a linear mixture of smooth endmember reflectance spectra
// with absorption features (vegetation, soil, water, a mineral, a dark man-made surface, more
// from the seed), under a solar illumination with atmospheric water and oxygen absorption, with
// spatially structured abundances (smooth fields mixed by a sharpened softmax, so there are
// regions with edges and mixed pixels) and an illumination (shade) field, plus white sensor noise
// whose level depends on the band (worse at the blue and short-wave-infrared ends), quantised to
// the chosen type. The same spec and seed give the same bytes on every machine: the random
// numbers come from clviz's own generator and Box-Muller, not the standard library's
// distributions, whose output is implementation-defined.
#include <cstdint>
#include <vector>

#include "compute/spectral/cube.hpp"

namespace clviz {

struct SceneSpec {
    CubeShape shape{145, 145, 200};
    CubeType type = CubeType::U8;
    std::uint64_t seed = 1;
    int endmembers = 8;
    double noise = 1.0;                   // multiplies every band's noise level (0: none)
    double firstNm = 400, lastNm = 2500;  // band centres spread evenly between these
};

struct Scene {
    Cube cube;
    std::vector<double> wavelengthNm;  // one per band
    std::vector<double> fwhmNm;
    std::vector<double> noiseSigma;  // each band's noise standard deviation, in stored units
};

// Throws clviz::Error for a spec it cannot make (a side or band count below 1, no endmembers).
Scene makeScene(const SceneSpec& spec);

}  // namespace clviz
