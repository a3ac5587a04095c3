// The scene generator: the same spec gives the same bytes, another seed other bytes; values stay
// in the type's range and use it; the noise it adds has the level it reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "compute/spectral/reference.hpp"
#include "compute/spectral/scene.hpp"

using namespace clviz;

TEST(Scene, DeterministicFromTheSeed) {
    SceneSpec spec;
    spec.shape = {31, 7, 13};
    const Scene a = makeScene(spec), b = makeScene(spec);
    EXPECT_EQ(a.cube.data, b.cube.data);
    spec.seed = 2;
    EXPECT_NE(makeScene(spec).cube.data, a.cube.data);
    EXPECT_EQ(a.wavelengthNm.size(), 13u);
    EXPECT_DOUBLE_EQ(a.wavelengthNm.front(), 400);
    EXPECT_DOUBLE_EQ(a.wavelengthNm.back(), 2500);
}

TEST(Scene, EveryTypeUsesItsRange) {
    for (CubeType type : {CubeType::U8, CubeType::I16, CubeType::F32}) {
        SceneSpec spec;
        spec.shape = {40, 30, 50};
        spec.type = type;
        const Scene s = makeScene(spec);
        const std::vector<double> x = s.cube.toDouble();
        const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
        SCOPED_TRACE(cubeTypeName(type));
        if (type == CubeType::U8) {
            EXPECT_GE(*lo, 0);
            EXPECT_LE(*hi, 255);
            EXPECT_GT(*hi, 50);  // uses a good part of the range
        } else if (type == CubeType::I16) {
            EXPECT_GT(*hi, 2000);
        } else {
            EXPECT_GT(*hi, 0.1);
            EXPECT_LT(*hi, 1.5);
        }
        // Spatial structure: band variance well above the noise variance.
        double mean = 0, var = 0;
        const std::size_t P = s.cube.shape.pixels();
        for (std::size_t p = 0; p < P; ++p)
            mean += x[10 * P + p] / double(P);
        for (std::size_t p = 0; p < P; ++p)
            var += std::pow(x[10 * P + p] - mean, 2) / double(P - 1);
        EXPECT_GT(var, 10 * std::pow(s.noiseSigma[10], 2));
    }
}

TEST(Scene, NoiseHasTheReportedLevel) {
    SceneSpec spec;
    spec.shape = {160, 150, 6};
    spec.type = CubeType::F64;
    const Scene noisy = makeScene(spec);
    spec.noise = 0;
    const Scene clean = makeScene(spec);
    const std::size_t P = clean.cube.shape.pixels();
    for (int b = 0; b < 6; ++b) {
        double var = 0;
        for (std::size_t p = 0; p < P; ++p)
            var +=
                std::pow(noisy.cube.value(b * P + p) - clean.cube.value(b * P + p), 2) / double(P);
        EXPECT_NEAR(std::sqrt(var) / noisy.noiseSigma[b], 1.0, 0.02) << b;
    }
    // Blue and short-wave-infrared ends are noisier than the middle.
    EXPECT_GT(noisy.noiseSigma[0], 2 * noisy.noiseSigma[2]);
}

TEST(Scene, RefusesEmptySpecs) {
    SceneSpec spec;
    spec.shape = {0, 3, 3};
    EXPECT_THROW(makeScene(spec), Error);
    spec.shape = {3, 3, 3};
    spec.endmembers = 0;
    EXPECT_THROW(makeScene(spec), Error);
}
