#pragma once
// Radiance HDR (.hdr, RGBE) decoding, done here rather than by stb_image: Debian's copy
// (2022-09) loops forever on a run-length scanline cut short (a zero count never advances) and
// decodes other truncations as black. Here every packet must advance and fit in the file, so
// decoding is linear in the file's size and a short file is refused with what is missing.
// Same header rules as stb ("#?RADIANCE" or "#?RGBE", FORMAT=32-bit_rle_rgbe, "-Y H +X W").
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace clviz {

struct RadianceHeader {
    int width = 0;
    int height = 0;
    std::size_t dataOffset = 0;  // first byte of the scanlines
};

// Throws clviz::Error (message without a file name) when the header is missing or malformed.
RadianceHeader parseRadianceHeader(std::span<const std::uint8_t> bytes);

// Linear RGB, 3 floats per pixel, top row first. Throws clviz::Error for corrupt or truncated
// scanlines. Call after checking the header's size against the limits.
std::vector<float> decodeRadiancePixels(std::span<const std::uint8_t> bytes,
                                        const RadianceHeader& header);

}  // namespace clviz
