#include "compute/image/io/tone_map.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

namespace {

// Linear [0, 1] to an sRGB byte; anything else (NaN included) is clamped.
std::uint8_t srgbByte(double linear) {
    if (!(linear > 0)) return 0;
    if (linear >= 1) return 255;
    const double v =
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1 / 2.4) - 0.055;
    return static_cast<std::uint8_t>(std::lround(255.0 * v));
}

}  // namespace

Rgba8Image toneMapHdr(const float* rgb, int width, int height) {
    Rgba8Image out(width, height);
    const std::size_t n = out.size().pixels();
    auto luminance = [](float r, float g, float b) {
        return 0.2126f * r + 0.7152f * g + 0.0722f * b;
    };
    auto clean = [](float v) { return std::isfinite(v) && v > 0 ? v : 0.0f; };

    // Exposure: scale so the log-average luminance of the lit pixels lands on middle grey
    // (0.18). Black pixels are left out: they would drag the average down without bound.
    double logSum = 0;
    std::size_t lit = 0;
    float maxL = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float l = luminance(clean(rgb[3 * i]), clean(rgb[3 * i + 1]), clean(rgb[3 * i + 2]));
        if (l > 0 && std::isfinite(l)) {
            logSum += std::log(static_cast<double>(l));
            ++lit;
            maxL = std::max(maxL, l);
        }
    }
    const double logAverage = lit ? std::exp(logSum / static_cast<double>(lit)) : 1.0;
    // Doubles from here: the scaled values can exceed float range for extreme files.
    const double scale = 0.18 / logAverage;
    // White point: the brightest pixel maps to 1, but never stretch a low-contrast image.
    const double white = std::max(maxL * scale, 1.0);
    const double white2 = white * white;

    for (std::size_t i = 0; i < n; ++i) {
        const float r = clean(rgb[3 * i]), g = clean(rgb[3 * i + 1]), b = clean(rgb[3 * i + 2]);
        const double l = luminance(r, g, b);
        std::uint8_t* p = out.pixels.data() + 4 * i;
        p[3] = 255;
        if (!(l > 0) || !std::isfinite(l)) {
            p[0] = p[1] = p[2] = l > 0 ? 255 : 0;  // black, or overflowing radiance: white
            continue;
        }
        const double ls = l * scale;
        const double ld = ls * (1.0 + ls / white2) / (1.0 + ls);  // extended Reinhard
        const double k = ld / l;                                  // same factor keeps the hue
        p[0] = srgbByte(r * k);
        p[1] = srgbByte(g * k);
        p[2] = srgbByte(b * k);
    }
    return out;
}

}  // namespace clviz
