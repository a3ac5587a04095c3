#include "compute/image/reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "common/error.hpp"

namespace clviz::reference {

namespace {

// Runs body(rowBegin, rowEnd) over [0, rows) split between threads.
template <class Body>
void forRows(int rows, int threads, Body body) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::clamp(threads, 1, std::max(1, rows));
    if (threads == 1) {
        body(0, rows);
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        const int begin = static_cast<int>(static_cast<long long>(rows) * t / threads);
        const int end = static_cast<int>(static_cast<long long>(rows) * (t + 1) / threads);
        pool.emplace_back([=] { body(begin, end); });
    }
    for (auto& th : pool)
        th.join();
}

bool isNearest(RotateVariant v) {
    return v == RotateVariant::BufferNearest || v == RotateVariant::ImageNearest;
}

// The kernels' source_position(), operation for operation (kernels/rotate.cl).
void sourcePosition(const RotateGeometry& g, int x, int y, float& sx, float& sy) {
    const float dx = (static_cast<float>(x) + 0.5f) - g.dstCx;
    const float dy = (static_cast<float>(y) + 0.5f) - g.dstCy;
    sx = std::fma(g.c, dx, std::fma(-g.s, dy, g.srcCx));
    sy = std::fma(g.s, dx, std::fma(g.c, dy, g.srcCy));
}

int clampi(int v, int lo, int hi) {
    return std::min(std::max(v, lo), hi);
}

}  // namespace

Rgba8Image rotate(const Rgba8Image& src, const RotateParams& params, int threads) {
    if (params.variant == RotateVariant::Forward)
        throw Error("reference::rotate: forward mapping has its own reference");
    const RotateGeometry g = rotateGeometry(src.size(), params.degrees, params.fit);
    Rgba8Image out(g.dst.width, g.dst.height);
    const std::uint8_t bg[4] = {params.background.r, params.background.g, params.background.b,
                                params.background.a};
    const float sw = static_cast<float>(src.width), sh = static_cast<float>(src.height);
    auto pixelOr = [&](int x, int y) -> const std::uint8_t* {
        return (x >= 0 && y >= 0 && x < src.width && y < src.height) ? src.at(x, y) : bg;
    };
    const bool nearest = isNearest(params.variant);

    forRows(out.height, threads, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < out.width; ++x) {
                float sx, sy;
                sourcePosition(g, x, y, sx, sy);
                std::uint8_t* o = out.at(x, y);
                if (nearest) {
                    const float fx = std::floor(sx), fy = std::floor(sy);
                    const bool in = fx >= 0.0f && fy >= 0.0f && fx < sw && fy < sh;
                    const std::uint8_t* p =
                        in ? src.at(static_cast<int>(fx), static_cast<int>(fy)) : bg;
                    std::copy(p, p + 4, o);
                    continue;
                }
                const float qx = sx - 0.5f, qy = sy - 0.5f;
                const float fx = std::floor(qx), fy = std::floor(qy);
                if (!(fx >= -1.0f && fy >= -1.0f && fx < sw && fy < sh)) {
                    std::copy(bg, bg + 4, o);
                    continue;
                }
                const double ax = qx - fx, ay = qy - fy;
                const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
                const std::uint8_t* p00 = pixelOr(ix, iy);
                const std::uint8_t* p10 = pixelOr(ix + 1, iy);
                const std::uint8_t* p01 = pixelOr(ix, iy + 1);
                const std::uint8_t* p11 = pixelOr(ix + 1, iy + 1);
                for (int c = 0; c < 4; ++c) {
                    const double v = (1 - ax) * (1 - ay) * p00[c] + ax * (1 - ay) * p10[c] +
                                     (1 - ax) * ay * p01[c] + ax * ay * p11[c];
                    o[c] = static_cast<std::uint8_t>(std::clamp(std::nearbyint(v), 0.0, 255.0));
                }
            }
    });
    return out;
}

std::vector<std::vector<std::size_t>> rotateForwardSources(ImageSize src, const RotateParams& p) {
    const RotateGeometry g = rotateGeometry(src, p.degrees, p.fit);
    std::vector<std::vector<std::size_t>> sources(g.dst.pixels());
    const float dw = static_cast<float>(g.dst.width), dh = static_cast<float>(g.dst.height);
    for (int y = 0; y < src.height; ++y)
        for (int x = 0; x < src.width; ++x) {
            // kernels/rotate.cl rotate_forward(), operation for operation.
            const float dx = (static_cast<float>(x) + 0.5f) - g.srcCx;
            const float dy = (static_cast<float>(y) + 0.5f) - g.srcCy;
            const float ox = std::floor(std::fma(g.c, dx, std::fma(g.s, dy, g.dstCx)));
            const float oy = std::floor(std::fma(-g.s, dx, std::fma(g.c, dy, g.dstCy)));
            if (ox >= 0.0f && oy >= 0.0f && ox < dw && oy < dh)
                sources[static_cast<std::size_t>(oy) * g.dst.width + static_cast<std::size_t>(ox)]
                    .push_back(static_cast<std::size_t>(y) * src.width + x);
        }
    return sources;
}

Histogram histogram(const Rgba8Image& image, int threads) {
    std::vector<Histogram> parts(static_cast<std::size_t>(
        threads <= 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads));
    std::atomic<int> next{0};
    forRows(image.height, static_cast<int>(parts.size()), [&](int y0, int y1) {
        Histogram& h = parts[static_cast<std::size_t>(next++)];
        for (int y = y0; y < y1; ++y) {
            const std::uint8_t* p = image.at(0, y);
            for (int x = 0; x < image.width; ++x, p += 4) {
                ++h.bins[kRed][p[0]];
                ++h.bins[kGreen][p[1]];
                ++h.bins[kBlue][p[2]];
                ++h.bins[kLuma][luma8(p[0], p[1], p[2])];
            }
        }
    });
    Histogram total;
    for (const auto& h : parts)
        for (int c = 0; c < kHistogramChannels; ++c)
            for (int v = 0; v < kHistogramBins; ++v)
                total.bins[c][v] += h.bins[c][v];
    return total;
}

Histogram histogram(const Rgba8Image& image, const RotateGeometry& g) {
    Histogram h;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            // histogram.cl's covered_pixel, operation for operation (fma rounds once there too).
            const float dx = (static_cast<float>(x) + 0.5f) - g.dstCx;
            const float dy = (static_cast<float>(y) + 0.5f) - g.dstCy;
            const float sx = std::fma(g.c, dx, std::fma(-g.s, dy, g.srcCx));
            const float sy = std::fma(g.s, dx, std::fma(g.c, dy, g.srcCy));
            if (!(sx >= 0.0f && sy >= 0.0f && sx < static_cast<float>(g.src.width) &&
                  sy < static_cast<float>(g.src.height)))
                continue;
            const std::uint8_t* p = image.at(x, y);
            ++h.bins[kRed][p[0]];
            ++h.bins[kGreen][p[1]];
            ++h.bins[kBlue][p[2]];
            ++h.bins[kLuma][luma8(p[0], p[1], p[2])];
        }
    return h;
}

Rgba8Image transpose(const Rgba8Image& src) {
    Rgba8Image out(src.height, src.width);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            std::copy_n(src.at(y, x), 4, out.at(x, y));
    return out;
}

namespace {

// Calls f(out pixel, the 9 neighbours) with edges replicated.
template <class F>
Rgba8Image filter3x3(const Rgba8Image& src, F f) {
    Rgba8Image out(src.width, src.height);
    for (int y = 0; y < src.height; ++y)
        for (int x = 0; x < src.width; ++x) {
            const std::uint8_t* n[9];
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    n[(dy + 1) * 3 + dx + 1] =
                        src.at(clampi(x + dx, 0, src.width - 1), clampi(y + dy, 0, src.height - 1));
            f(out.at(x, y), n);
        }
    return out;
}

}  // namespace

Rgba8Image mean3(const Rgba8Image& src) {
    return filter3x3(src, [](std::uint8_t* o, const std::uint8_t* const* n) {
        for (int c = 0; c < 4; ++c) {
            int sum = 0;
            for (int i = 0; i < 9; ++i)
                sum += n[i][c];
            o[c] = static_cast<std::uint8_t>((sum + 4) / 9);
        }
    });
}

Rgba8Image median3(const Rgba8Image& src) {
    return filter3x3(src, [](std::uint8_t* o, const std::uint8_t* const* n) {
        for (int c = 0; c < 4; ++c) {
            std::uint8_t v[9];
            for (int i = 0; i < 9; ++i)
                v[i] = n[i][c];
            std::nth_element(v, v + 4, v + 9);
            o[c] = v[4];
        }
    });
}

Rgba8Image grayscale(const Rgba8Image& src) {
    Rgba8Image out = src;
    for (std::size_t i = 0; i < out.pixels.size(); i += 4) {
        std::uint8_t* p = out.pixels.data() + i;
        p[0] = p[1] = p[2] = static_cast<std::uint8_t>(luma8(p[0], p[1], p[2]));
    }
    return out;
}

std::array<std::array<std::uint8_t, 256>, 3> equalizeTables(const Histogram& h, EqualizeMode mode) {
    std::array<std::array<std::uint8_t, 256>, 3> tables{};
    for (int c = 0; c < 3; ++c) {
        const auto& bins = h.bins[mode == EqualizeMode::PerChannel ? c : kLuma];
        std::uint64_t total = 0, cdfMin = 0;
        for (auto n : bins)
            total += n;
        for (auto n : bins)
            if (n != 0) {
                cdfMin = n;
                break;
            }
        std::uint64_t cdf = 0;
        for (int v = 0; v < 256; ++v) {
            cdf += bins[v];
            std::uint64_t out;
            if (total == cdfMin)
                out = static_cast<std::uint64_t>(v);
            else if (cdf < cdfMin)
                out = 0;
            else
                out = ((cdf - cdfMin) * 255 + (total - cdfMin) / 2) / (total - cdfMin);
            tables[c][v] = static_cast<std::uint8_t>(out);
        }
    }
    return tables;
}

namespace {

Rgba8Image applyTables(const Rgba8Image& src,
                       const std::array<std::array<std::uint8_t, 256>, 3>& tables) {
    Rgba8Image out = src;
    for (std::size_t i = 0; i < out.pixels.size(); i += 4)
        for (int c = 0; c < 3; ++c)
            out.pixels[i + c] = tables[c][out.pixels[i + c]];
    return out;
}

}  // namespace

Rgba8Image equalize(const Rgba8Image& src, EqualizeMode mode) {
    return applyTables(src, equalizeTables(histogram(src), mode));
}

Rgba8Image equalize(const Rgba8Image& src, EqualizeMode mode, const RotateGeometry& coverage) {
    return applyTables(src, equalizeTables(histogram(src, coverage), mode));
}

}  // namespace clviz::reference
