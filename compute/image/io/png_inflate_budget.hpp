#pragma once
// A PNG's compressed pixel data inflates to exactly the bytes its header implies (rows of
// filter byte + packed samples, per interlace pass). Debian's stb_image inflates without a
// bound, so a 64 x 64 PNG of 20 MB inflates to 3 GiB before stb notices anything: a
// decompression bomb that the header-size check cannot see. Internal to compute/image/io.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace clviz {

// The bytes the IHDR's size, bit depth, colour type and interlace method imply the inflated
// IDAT stream holds, or nothing when the IHDR is missing or invalid (stb then says why).
std::optional<std::uint64_t> pngInflatedBytes(std::span<const std::uint8_t> png);

// Inflates the IDAT stream into a buffer of the implied size plus a small slack and refuses a
// stream that needs more, before stb sees it: memory and time are those of the implied size.
// Skipped when the compressed data is too small to exceed the budget (deflate expands at most
// 1032:1), so ordinary PNGs are not inflated twice. Why the file must not be decoded, or nothing.
std::optional<std::string> pngInflateProblem(std::span<const std::uint8_t> png);

}  // namespace clviz
