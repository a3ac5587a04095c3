#include "compute/image/io/png_inflate_budget.hpp"

#include <stb/stb_image.h>

#include <cstring>
#include <vector>

namespace clviz {

namespace {

using Bytes = std::span<const std::uint8_t>;

std::uint32_t u32be(Bytes b, std::size_t at) {
    return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
           (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

// Calls f(type, offset of data, length) for each chunk that fits in the file.
template <class F>
void forEachChunk(Bytes b, F f) {
    for (std::size_t at = 8; at + 12 <= b.size();) {
        const std::uint64_t length = u32be(b, at);
        if (length > b.size() - at - 12) return;
        if (!f(std::string(reinterpret_cast<const char*>(&b[at + 4]), 4), at + 8,
               static_cast<std::size_t>(length)))
            return;
        at += 12 + static_cast<std::size_t>(length);
    }
}

// Extra inflated bytes tolerated past the implied size: libpng only warns about trailing data,
// so a few bytes of it must not refuse a picture; 64 KiB cannot make a bomb.
constexpr std::uint64_t kSlackBytes = 64 << 10;
// The densest deflate coding: a 258-byte match in 2 bits (1-bit length and distance codes).
constexpr std::uint64_t kMaxDeflateRatio = 1032;

}  // namespace

std::optional<std::uint64_t> pngInflatedBytes(Bytes b) {
    if (b.size() < 33 || std::memcmp(&b[12], "IHDR", 4) != 0) return std::nullopt;
    const std::uint64_t width = u32be(b, 16), height = u32be(b, 20);
    const unsigned depth = b[24], colour = b[25], interlace = b[28];
    unsigned channels = 0;
    switch (colour) {
        case 0:
            channels = 1;
            break;  // grey
        case 2:
            channels = 3;
            break;  // RGB
        case 3:
            channels = 1;
            break;  // palette index
        case 4:
            channels = 2;
            break;  // grey + alpha
        case 6:
            channels = 4;
            break;  // RGBA
        default:
            return std::nullopt;
    }
    if (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16) return std::nullopt;
    if (width == 0 || height == 0 || interlace > 1) return std::nullopt;
    const std::uint64_t bitsPerPixel = std::uint64_t{channels} * depth;
    auto rows = [&](std::uint64_t w, std::uint64_t h) -> std::uint64_t {
        return w == 0 || h == 0 ? 0 : h * (1 + (w * bitsPerPixel + 7) / 8);
    };
    if (interlace == 0) return rows(width, height);
    // Adam7: each pass is a sub-image of its own rows, each with its filter byte.
    const unsigned x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    const unsigned dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    std::uint64_t total = 0;
    for (int p = 0; p < 7; ++p)
        total += rows(width > x0[p] ? (width - x0[p] + dx[p] - 1) / dx[p] : 0,
                      height > y0[p] ? (height - y0[p] + dy[p] - 1) / dy[p] : 0);
    return total;
}

std::optional<std::string> pngInflateProblem(Bytes b) {
    const auto implied = pngInflatedBytes(b);
    if (!implied) return std::nullopt;
    std::uint64_t compressed = 0;
    bool apple = false;  // Apple's CgBI PNGs hold raw deflate without the zlib header
    forEachChunk(b, [&](const std::string& type, std::size_t, std::size_t length) {
        if (type == "IDAT") compressed += length;
        if (type == "CgBI") apple = true;
        return true;
    });
    const std::uint64_t budget = *implied + kSlackBytes;
    if (compressed == 0 || compressed * kMaxDeflateRatio + 1024 <= budget) return std::nullopt;
    std::vector<char> idat;
    idat.reserve(static_cast<std::size_t>(compressed));
    forEachChunk(b, [&](const std::string& type, std::size_t at, std::size_t length) {
        if (type == "IDAT") idat.insert(idat.end(), &b[at], &b[at] + length);
        return true;
    });
    if (budget > static_cast<std::uint64_t>(INT32_MAX) || idat.size() > INT32_MAX)
        return std::nullopt;  // beyond stb's int sizes: the header-size check refuses these
    std::vector<char> out(static_cast<std::size_t>(budget));
    const int n = apple
                      ? stbi_zlib_decode_noheader_buffer(out.data(), static_cast<int>(budget),
                                                         idat.data(), static_cast<int>(idat.size()))
                      : stbi_zlib_decode_buffer(out.data(), static_cast<int>(budget), idat.data(),
                                                static_cast<int>(idat.size()));
    const char* reason = stbi_failure_reason();
    if (n < 0 && reason && std::strcmp(reason, "output buffer limit") == 0)
        return "the PNG's compressed pixel data inflates to more than " + std::to_string(budget) +
               " bytes, where its header (" + std::to_string(u32be(b, 16)) + " x " +
               std::to_string(u32be(b, 20)) + " pixels) implies " + std::to_string(*implied) +
               " (a decompression bomb; refused before decoding)";
    return std::nullopt;  // a corrupt stream: stb reports it with its own reason
}

}  // namespace clviz
