#pragma once
// Binary PGM / PPM (P5, P6), decoded by clviz rather than by stb_image: Debian's copy (2022-09)
// overflows its output converting 16-bit PNM to RGBA (found by tests/fuzz), leaves pixels
// uninitialised when the raster is short, and ignores maxval.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "compute/image/image.hpp"
#include "compute/image/io/image_limits.hpp"

namespace clviz {

// Why the PNM variant is not read ("PNM P1 (ASCII bitmap) is not read; clviz reads the binary
// P5 and P6"), or nothing for P5/P6.
std::optional<std::string> unreadPnmVariant(std::span<const std::uint8_t> bytes);

// Values are scaled from 0..maxval to 0..255 with rounding. Returns nothing when the bytes are
// not P5/P6; throws clviz::Error starting with `prefix` when they are corrupt, truncated or too
// large for `limits`.
std::optional<Rgba8Image> decodeBinaryPnm(std::span<const std::uint8_t> bytes,
                                          const std::string& prefix, const ImageLoadLimits& limits);

}  // namespace clviz
