#pragma once
// The three ways the spectral lab estimates a cube's noise, band by band, from its spatial
// neighbours (step 1 of MNF). Each gives a residual image per band over a set of pixels, and the
// noise covariance is the residuals' covariance (mean removed, divided by n - 1) times a scale:
//   diff:    N = X(line i, sample j) - X(i+1, j+1) over the (lines-1) x (samples-1) pixels with a
//            lower-right neighbour; scale 1/2 (a difference of two independent noises has twice
//            the variance). Spectral Python's noise_from_diffs.
//   mean3:   N = X - (3 x 3 mean around it) over the interior (lines-2) x (samples-2) pixels;
//            scale 9/8 (white noise keeps 8/9 of its variance in that residual).
//   median3: N = X - (3 x 3 median around it) over the interior pixels; scale 1 (a median
//            residual has no simple constant).
// Interior pixels only for the 3 x 3 estimates: a replicated border would give residuals with a
// different variance, biasing C_N.
// The residuals may come from a rectangle of the cube instead of all of it (a homogeneous area,
// as Spectral Python's example takes noise_from_diffs(data[117:137, 85:122])): the rectangle then
// stands for the cube in the sizes above, and windows stay inside it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compute/spectral/cube.hpp"

namespace clviz {

enum class NoiseEstimate { Diff, Mean3, Median3 };

const char* noiseEstimateName(NoiseEstimate estimate);  // "diff", "mean3", "median3"
std::optional<NoiseEstimate> parseNoiseEstimate(std::string_view text);
const std::vector<std::string>& noiseEstimateNames();

// A rectangle of pixels; samples or lines 0 mean "to the cube's edge".
struct CubeRect {
    int sample0 = 0, line0 = 0, samples = 0, lines = 0;
    friend bool operator==(const CubeRect&, const CubeRect&) = default;
};
// `rect` cut to the cube (an empty result when it lies outside).
CubeRect clampRect(const CubeRect& rect, const CubeShape& shape);
bool isWholeCube(const CubeRect& rect, const CubeShape& shape);

// The residual image's size: (lines-1) x (samples-1) for diff, (lines-2) x (samples-2) else, of
// the rectangle (zero when it is too small).
struct ResidualSize {
    int samples = 0, lines = 0;
    std::size_t pixels() const { return std::size_t(samples) * std::size_t(lines); }
};
ResidualSize residualSize(NoiseEstimate estimate, const CubeShape& shape,
                          const CubeRect& rect = {});
// Why the rectangle is too small for the estimate ("noise=mean3 needs at least 3 x 4 ..."), or
// "" when it is not.
std::string residualSizeProblem(NoiseEstimate estimate, const CubeShape& shape,
                                const CubeRect& rect = {});

// The factor the residuals' covariance is multiplied by: 0.5, 9/8 or 1.
double noiseCovarianceScale(NoiseEstimate estimate);

}  // namespace clviz
