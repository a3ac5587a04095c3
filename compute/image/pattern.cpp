#include "compute/image/pattern.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <thread>
#include <vector>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_easy_font.h>  // header-only: quads for a small bitmap font
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace clviz {

namespace {

using Colour = std::array<double, 3>;  // linear-ish 0..1 values, written as is (no gamma)

constexpr double kPi = std::numbers::pi;

Colour mix(const Colour& a, const Colour& b, double t) {
    return {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t};
}

Colour hsv(double h, double s, double v) {
    h = h - std::floor(h);
    const double k[3] = {5, 3, 1};
    Colour c;
    for (int i = 0; i < 3; ++i) {
        const double t = std::fmod(k[i] + h * 6.0, 6.0);
        c[i] = v - v * s * std::clamp(std::min(t, 4.0 - t), 0.0, 1.0);
    }
    return c;
}

// Deterministic hash noise in [0, 1).
double hash01(std::uint32_t x, std::uint32_t y, std::uint32_t salt) {
    std::uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ salt * 0xcb1ab31fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return (h >> 8) * (1.0 / 16777216.0);
}

struct Rect {
    double x0, y0, x1, y1;  // in pixels
    bool contains(double x, double y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// The picture as a function of the continuous position (pixels) and the pixel it falls in.
class Pattern {
  public:
    Pattern(int w, int h) : w_(w), h_(h) {
        const double W = w, H = h;
        band_ = {0, 0, W, 0.12 * H};
        ramp_ = {0, 0.12 * H, 0.05 * W, H};
        wheelCx_ = 0.25 * W, wheelCy_ = 0.42 * H, wheelR_ = 0.14 * std::min(W, H * 1.3);
        checkers_ = {0.47 * W, 0.16 * H, 0.74 * W, 0.46 * H};
        zone_ = {0.77 * W, 0.16 * H, 0.98 * W, 0.46 * H};
        starCx_ = 0.22 * W, starCy_ = 0.79 * H, starR_ = 0.13 * std::min(W, H * 1.3);
        spheres_ = {0.44 * W, 0.52 * H, 0.74 * W, 0.96 * H};
        lines_ = {0.77 * W, 0.52 * H, 0.98 * W, 0.72 * H};
        noise_ = {0.77 * W, 0.76 * H, 0.98 * W, 0.96 * H};
    }

    Colour at(double x, double y) const {
        const int px = static_cast<int>(x), py = static_cast<int>(y);
        if (band_.contains(x, y)) {
            // Full hue sweep left to right, dark to bright top to bottom.
            const double t = (y - band_.y0) / (band_.y1 - band_.y0);
            return hsv(x / w_, 1.0, 0.15 + 0.85 * t);
        }
        if (ramp_.contains(x, y)) {
            // Every grey level from black to white: a flat luma histogram part.
            const double v = std::floor(256.0 * (y - ramp_.y0) / (ramp_.y1 - ramp_.y0)) / 255.0;
            return {v, v, v};
        }
        if (double r = std::hypot(x - wheelCx_, y - wheelCy_); r < wheelR_) {
            const double hue = std::atan2(wheelCy_ - y, x - wheelCx_) / (2 * kPi);
            return hsv(hue, r / wheelR_, 1.0);
        }
        if (checkers_.contains(x, y)) return checkers(x, y, px, py);
        if (zone_.contains(x, y)) {
            // Zone plate: rings whose frequency rises with the radius; rotations alias visibly.
            const double cx = 0.5 * (zone_.x0 + zone_.x1), cy = 0.5 * (zone_.y0 + zone_.y1);
            const double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
            const double v = 0.5 + 0.5 * std::cos(kPi * r2 / (2.2 * (zone_.y1 - zone_.y0)));
            return {v, v, v};
        }
        if (double r = std::hypot(x - starCx_, y - starCy_); r < starR_) {
            // Siemens star, 24 spokes, in two colours.
            const double a = std::atan2(y - starCy_, x - starCx_);
            const bool on = std::sin(24.0 * a) > 0;
            return on ? Colour{0.95, 0.92, 0.2} : Colour{0.1, 0.1, 0.35};
        }
        if (spheres_.contains(x, y)) return spheres(x, y);
        if (lines_.contains(x, y)) return lines(px, py);
        if (noise_.contains(x, y)) return {hash01(px, py, 1), hash01(px, py, 2), hash01(px, py, 3)};
        // Background: a soft diagonal gradient.
        const double t = (x / w_ + y / h_) * 0.5;
        return mix({0.16, 0.18, 0.22}, {0.05, 0.05, 0.08}, t);
    }

  private:
    Colour checkers(double x, double y, int px, int py) const {
        // Four quadrants: 1, 2, 4 and 8 pixel squares, aligned to pixels.
        const bool right = x >= 0.5 * (checkers_.x0 + checkers_.x1);
        const bool bottom = y >= 0.5 * (checkers_.y0 + checkers_.y1);
        const int size = 1 << ((right ? 1 : 0) + (bottom ? 2 : 0));
        const int ox = px - static_cast<int>(checkers_.x0),
                  oy = py - static_cast<int>(checkers_.y0);
        const bool on = ((ox / size) + (oy / size)) % 2 == 0;
        if (bottom && right) return on ? Colour{1, 0.3, 0.1} : Colour{0.1, 0.3, 1};
        return on ? Colour{1, 1, 1} : Colour{0, 0, 0};
    }

    Colour spheres(double x, double y) const {
        struct Ball {
            double cx, cy, r;
            Colour albedo;
        };
        const double W = spheres_.x1 - spheres_.x0, H = spheres_.y1 - spheres_.y0;
        const double s = std::min(W, H);
        const Ball balls[3] = {
            {spheres_.x0 + 0.28 * W, spheres_.y0 + 0.35 * H, 0.24 * s, {0.85, 0.15, 0.1}},
            {spheres_.x0 + 0.70 * W, spheres_.y0 + 0.40 * H, 0.20 * s, {0.1, 0.7, 0.25}},
            {spheres_.x0 + 0.48 * W, spheres_.y0 + 0.75 * H, 0.18 * s, {0.2, 0.35, 0.9}},
        };
        Colour c = mix({0.75, 0.72, 0.65}, {0.35, 0.33, 0.3}, (y - spheres_.y0) / H);  // floor
        for (const Ball& b : balls) {
            const double dx = (x - b.cx) / b.r, dy = (y - b.cy) / b.r;
            const double d2 = dx * dx + dy * dy;
            if (d2 >= 1) continue;
            const double nz = std::sqrt(1 - d2);
            // Light from the upper left; Lambert plus a Blinn-Phong highlight.
            const double lx = -0.5, ly = -0.6, lz = 0.62;
            const double diffuse = std::max(0.0, dx * lx + dy * ly + nz * lz);
            const double hx = lx, hy = ly, hz = lz + 1.0;
            const double hn = std::sqrt(hx * hx + hy * hy + hz * hz);
            const double spec = std::pow(std::max(0.0, (dx * hx + dy * hy + nz * hz) / hn), 60.0);
            for (int i = 0; i < 3; ++i)
                c[i] = b.albedo[i] * (0.12 + 0.88 * diffuse) + 0.8 * spec;
        }
        return c;
    }

    Colour lines(int px, int py) const {
        // 1-pixel lines: vertical ones spaced 2..9 pixels apart, horizontal ones every 4 rows.
        const int ox = px - static_cast<int>(lines_.x0), oy = py - static_cast<int>(lines_.y0);
        const int block = ox / 24, spacing = 2 + block % 8;
        if (oy % 4 == 0 && oy < (lines_.y1 - lines_.y0) / 2) return {1, 1, 1};
        if ((ox % 24) % spacing == 0) return {0.9, 0.9, 0.9};
        return {0.02, 0.02, 0.02};
    }

    double w_, h_;
    Rect band_, ramp_, checkers_, zone_, spheres_, lines_, noise_;
    double wheelCx_, wheelCy_, wheelR_, starCx_, starCy_, starR_;
};

std::uint8_t toByte(double v) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
}

// Draws `text` with stb_easy_font at (x, y), scaled, in `colour`.
void drawText(Rgba8Image& img, const char* text, double x, double y, double scale,
              std::array<std::uint8_t, 3> colour) {
    static thread_local std::vector<char> buffer(1 << 16);
    const int quads = stb_easy_font_print(0, 0, const_cast<char*>(text), nullptr, buffer.data(),
                                          static_cast<int>(buffer.size()));
    const float* v = reinterpret_cast<const float*>(buffer.data());
    for (int q = 0; q < quads; ++q) {
        // 4 vertices of 16 bytes: x, y, z floats and a colour.
        const float* quad = v + q * 16;
        const double qx0 = x + scale * std::min(quad[0], quad[8]);
        const double qx1 = x + scale * std::max(quad[0], quad[8]);
        const double qy0 = y + scale * std::min(quad[1], quad[9]);
        const double qy1 = y + scale * std::max(quad[1], quad[9]);
        for (int py = std::max(0, static_cast<int>(std::lround(qy0)));
             py < std::min(img.height, static_cast<int>(std::lround(qy1))); ++py)
            for (int px = std::max(0, static_cast<int>(std::lround(qx0)));
                 px < std::min(img.width, static_cast<int>(std::lround(qx1))); ++px)
                std::copy(colour.begin(), colour.end(), img.at(px, py));
    }
}

// An arrow pointing up (towards the top of the picture), filled.
void drawUpArrow(Rgba8Image& img, double cx, double top, double size) {
    for (int py = std::max(0, static_cast<int>(top)); py < std::min<double>(img.height, top + size);
         ++py)
        for (int px = std::max(0, static_cast<int>(cx - size));
             px < std::min<double>(img.width, cx + size); ++px) {
            const double dx = std::fabs(px + 0.5 - cx), dy = py + 0.5 - top;
            const bool head = dy < 0.45 * size && dx < 0.5 * dy / 0.45;
            const bool shaft = dy >= 0.45 * size && dx < 0.12 * size;
            if (head || shaft) {
                std::uint8_t* p = img.at(px, py);
                p[0] = 255, p[1] = 255, p[2] = 255;
            }
        }
}

}  // namespace

Rgba8Image makeTestPattern(int width, int height) {
    Rgba8Image img(std::max(1, width), std::max(1, height));
    const Pattern pattern(img.width, img.height);
    // 2 x 2 supersampling smooths curved edges; pixel-aligned regions are unaffected.
    auto renderRows = [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < img.width; ++x) {
                Colour sum{0, 0, 0};
                for (int s = 0; s < 4; ++s) {
                    const Colour c =
                        pattern.at(x + 0.25 + 0.5 * (s & 1), y + 0.25 + 0.5 * (s >> 1));
                    for (int i = 0; i < 3; ++i)
                        sum[i] += 0.25 * c[i];
                }
                std::uint8_t* p = img.at(x, y);
                for (int i = 0; i < 3; ++i)
                    p[i] = toByte(sum[i]);
                p[3] = 255;
            }
    };
    const int threads =
        static_cast<int>(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1u, 64u));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back(renderRows,
                          static_cast<int>(static_cast<long long>(img.height) * t / threads),
                          static_cast<int>(static_cast<long long>(img.height) * (t + 1) / threads));
    for (auto& th : pool)
        th.join();

    // Text and an arrow make the orientation obvious after any rotation.
    const double s = img.height / 768.0;
    drawText(img, "clviz image lab", 0.08 * img.width, 0.14 * img.height, 3.0 * s, {255, 255, 255});
    drawText(img, "TOP LEFT", 0.08 * img.width, 0.20 * img.height, 2.0 * s, {255, 220, 60});
    drawText(img, "0123456789 ABCDEFGHIJKLM abcdefghijklm", 0.47 * img.width, 0.475 * img.height,
             1.0 * s, {230, 230, 230});
    drawText(img, "BOTTOM RIGHT", 0.77 * img.width, 0.965 * img.height, 2.0 * s, {120, 220, 255});
    drawUpArrow(img, 0.42 * img.width, 0.16 * img.height, 0.12 * img.height);
    return img;
}

}  // namespace clviz
