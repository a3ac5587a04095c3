#include "compute/spectral/noise_estimate.hpp"

#include <algorithm>
#include <string>

namespace clviz {

const char* noiseEstimateName(NoiseEstimate estimate) {
    switch (estimate) {
        case NoiseEstimate::Diff:
            return "diff";
        case NoiseEstimate::Mean3:
            return "mean3";
        case NoiseEstimate::Median3:
            return "median3";
    }
    return "?";
}

const std::vector<std::string>& noiseEstimateNames() {
    static const std::vector<std::string> names{"diff", "mean3", "median3"};
    return names;
}

std::optional<NoiseEstimate> parseNoiseEstimate(std::string_view text) {
    if (text == "diff") return NoiseEstimate::Diff;
    if (text == "mean3") return NoiseEstimate::Mean3;
    if (text == "median3") return NoiseEstimate::Median3;
    return std::nullopt;
}

CubeRect clampRect(const CubeRect& r, const CubeShape& shape) {
    CubeRect c;
    c.sample0 = std::clamp(r.sample0, 0, shape.samples);
    c.line0 = std::clamp(r.line0, 0, shape.lines);
    const long long s1 = r.samples > 0 ? (long long)r.sample0 + r.samples : shape.samples;
    const long long l1 = r.lines > 0 ? (long long)r.line0 + r.lines : shape.lines;
    c.samples = int(std::clamp<long long>(s1, c.sample0, shape.samples) - c.sample0);
    c.lines = int(std::clamp<long long>(l1, c.line0, shape.lines) - c.line0);
    return c;
}

bool isWholeCube(const CubeRect& rect, const CubeShape& shape) {
    return clampRect(rect, shape) == CubeRect{0, 0, shape.samples, shape.lines};
}

ResidualSize residualSize(NoiseEstimate estimate, const CubeShape& shape, const CubeRect& rect) {
    const CubeRect r = clampRect(rect, shape);
    const int cut = estimate == NoiseEstimate::Diff ? 1 : 2;
    if (r.samples <= cut || r.lines <= cut) return {};
    return {r.samples - cut, r.lines - cut};
}

std::string residualSizeProblem(NoiseEstimate estimate, const CubeShape& shape,
                                const CubeRect& rect) {
    const ResidualSize rs = residualSize(estimate, shape, rect);
    if (rs.pixels() >= 2) return "";
    const CubeRect r = clampRect(rect, shape);
    return std::string("noise=") + noiseEstimateName(estimate) + " needs at least " +
           (estimate == NoiseEstimate::Diff ? "2 x 3 or 3 x 2" : "3 x 4 or 4 x 3") + " pixels; " +
           (isWholeCube(rect, shape) ? "the cube is " + describeShape(shape)
                                     : "the rectangle is " + std::to_string(r.samples) + " x " +
                                           std::to_string(r.lines));
}

double noiseCovarianceScale(NoiseEstimate estimate) {
    switch (estimate) {
        case NoiseEstimate::Diff:
            return 0.5;
        case NoiseEstimate::Mean3:
            return 9.0 / 8.0;
        case NoiseEstimate::Median3:
            return 1.0;
    }
    return 1.0;
}

}  // namespace clviz
