#include "compute/spectral/noise_estimate.hpp"

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

ResidualSize residualSize(NoiseEstimate estimate, const CubeShape& shape) {
    const int cut = estimate == NoiseEstimate::Diff ? 1 : 2;
    if (shape.samples <= cut || shape.lines <= cut) return {};
    return {shape.samples - cut, shape.lines - cut};
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
