#pragma once
// Loading and saving pictures for the image lab, through stb_image / stb_image_write. Every
// failure (missing, unreadable, truncated, corrupt, unsupported, zero-size, too large) throws
// clviz::Error with a message meant for the user. No OpenCL or GL here: the fuzzer links io/ alone.
// Size limits: image_limits.hpp; the HDR tone map: tone_map.hpp; PNM: pnm.hpp.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/image/image.hpp"
#include "compute/image/io/image_limits.hpp"

namespace clviz {

// Formats read: PNG (8/16 bit, palette, grey, alpha), JPEG (baseline and progressive), BMP
// (1/4/8-bit palette, 16-bit 555/565, 24, 32 with or without alpha; bottom-up and top-down),
// TGA (16/24/32-bit true colour, grey, colour-mapped; raw or RLE; either vertical origin), GIF
// (first frame; interlaced, transparency), PSD (RGB, 8/16 bit, raw or RLE; composited), PIC
// (Softimage, raw or run-length) through stb_image; HDR (Radiance, tone-mapped to 8-bit sRGB)
// and binary PNM (P5, P6) by clviz itself. Refused by name: run-length BMPs, right-to-left TGAs,
// 16-bit TGAs with an alpha bit, ASCII PNM (P1-P3), P4 bitmaps and P7 (PAM). Everything is
// converted to RGBA8; opaque formats get alpha 255. A file shorter than its headers say is
// refused as truncated (never shown with black regions): format_checks.hpp.
const char* supportedImageFormats();

// What a load throws when ImageLoadLimits::cancel was set during it.
struct ImageLoadCancelled : Error {
    using Error::Error;
};

// Reads and decodes a file. Throws clviz::Error naming the file and the reason; refuses
// directories, FIFOs, devices and files over limits.maxFileBytes before reading them.
Rgba8Image loadImage(const std::string& path, const ImageLoadLimits& limits = {});

// Decodes an in-memory file; `name` is used in messages ("dropped file", a path...).
Rgba8Image loadImageFromMemory(std::span<const std::uint8_t> bytes,
                               const std::string& name = "image data",
                               const ImageLoadLimits& limits = {});

// Writes PNG (.png) or JPEG (.jpg, .jpeg; quality 1..100; alpha is dropped) chosen by the
// extension, case-insensitively. Throws clviz::Error for other extensions, empty images or I/O
// failures (with the system's reason).
void saveImage(const std::string& path, const Rgba8Image& image, int jpegQuality = 92);

// PNG file bytes in memory (tests, the fuzzer's seed corpus).
std::vector<std::uint8_t> encodePng(const Rgba8Image& image);

}  // namespace clviz
