#include "compute/image/io/pnm.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "compute/image/io/decode_guards.hpp"

namespace clviz {

std::optional<std::string> unreadPnmVariant(std::span<const std::uint8_t> b) {
    if (b.size() < 2 || b[0] != 'P') return std::nullopt;
    const char* kind = nullptr;
    switch (b[1]) {
        case '1':
            kind = "P1 (ASCII bitmap)";
            break;
        case '2':
            kind = "P2 (ASCII greymap)";
            break;
        case '3':
            kind = "P3 (ASCII pixmap)";
            break;
        case '4':
            kind = "P4 (binary bitmap)";
            break;
        case '7':
            kind = "P7 (PAM)";
            break;
        default:
            return std::nullopt;
    }
    return std::string("PNM ") + kind +
           " is not read; clviz reads the binary PNM variants P5 (greymap) and P6 (pixmap)";
}

std::optional<Rgba8Image> decodeBinaryPnm(std::span<const std::uint8_t> b,
                                          const std::string& prefix,
                                          const ImageLoadLimits& limits) {
    if (b.size() < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return std::nullopt;
    const int channels = b[1] == '6' ? 3 : 1;
    std::size_t i = 2;
    auto isSpace = [](unsigned c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    // Whitespace and '#' comments, then a decimal number.
    auto number = [&](const char* what) -> std::uint64_t {
        for (;;) {
            while (i < b.size() && isSpace(b[i]))
                ++i;
            if (i < b.size() && b[i] == '#') {
                while (i < b.size() && b[i] != '\n' && b[i] != '\r')
                    ++i;
                continue;
            }
            break;
        }
        if (i >= b.size() || b[i] < '0' || b[i] > '9')
            throw Error(prefix + "the file is corrupt or truncated (PNM header: no " + what + ")");
        std::uint64_t v = 0;
        while (i < b.size() && b[i] >= '0' && b[i] <= '9') {
            v = v * 10 + (b[i++] - '0');
            if (v > (1u << 30))
                throw Error(prefix + "the file is corrupt (PNM " + what + " is absurd)");
        }
        return v;
    };
    const std::uint64_t width = number("width"), height = number("height"),
                        maxval = number("maxval");
    if (i >= b.size() || !isSpace(b[i]))
        throw Error(prefix + "the file is corrupt or truncated (PNM header)");
    ++i;  // exactly one whitespace character before the raster
    if (maxval == 0 || maxval > 65535)
        throw Error(prefix + "the file is corrupt (PNM maxval " + std::to_string(maxval) + ")");
    checkHeaderSize(prefix, width, height, limits);
    const std::size_t bytesPerSample = maxval > 255 ? 2 : 1;
    const std::size_t samples = static_cast<std::size_t>(width * height) * channels;
    if (b.size() - i < samples * bytesPerSample)
        throw Error(prefix + "the file is truncated (the PNM raster needs " +
                    std::to_string(samples * bytesPerSample) + " bytes, " +
                    std::to_string(b.size() - i) + " are there)");
    Rgba8Image img(static_cast<int>(width), static_cast<int>(height));
    const std::uint8_t* raster = b.data() + i;
    auto sample = [&](std::size_t k) -> std::uint8_t {
        const std::uint32_t v =
            bytesPerSample == 2 ? (raster[2 * k] << 8) | raster[2 * k + 1] : raster[k];
        return static_cast<std::uint8_t>((std::min<std::uint64_t>(v, maxval) * 255 + maxval / 2) /
                                         maxval);
    };
    for (std::size_t p = 0; p < img.size().pixels(); ++p) {
        std::uint8_t* o = img.pixels.data() + 4 * p;
        if (channels == 3) {
            o[0] = sample(3 * p), o[1] = sample(3 * p + 1), o[2] = sample(3 * p + 2);
        } else {
            o[0] = o[1] = o[2] = sample(p);
        }
        o[3] = 255;
    }
    return img;
}

}  // namespace clviz
