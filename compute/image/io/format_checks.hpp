#pragma once
// What clviz checks before stb_image sees a file's bytes. Debian's stb_image (2022-09) reads
// past the end of a short file as zeros: a truncated BMP, TGA, PSD or GIF decodes "successfully"
// with black regions. So, per format, the bytes the decoder will need are counted from the
// headers (walking run-length packets and GIF sub-blocks, which is linear in the file's size)
// and a file that holds fewer is refused as truncated. Known stb bugs (JPEG Huffman tables, huge
// PNG chunks) are refused here too. Radiance HDR and binary PNM never reach stb: clviz decodes
// them itself (radiance_hdr.hpp, image_io.cpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace clviz {

enum class ImageFormat { Unknown, Png, Jpeg, Gif, Bmp, Tga, Psd, Hdr, Pnm, Pic };

// From the signature (TGA, which has none, from a plausible header, as stb_image tests it).
ImageFormat sniffImageFormat(std::span<const std::uint8_t> bytes);

// "PNG", "JPEG", ...; "unknown" for Unknown.
const char* imageFormatName(ImageFormat format);

// The image's width and height as its header states them (a top-down BMP's negative height
// made positive), or nothing when the header is too short or has no size.
struct HeaderSize {
    std::uint64_t width = 0;
    std::uint64_t height = 0;
};
std::optional<HeaderSize> imageHeaderSize(ImageFormat format, std::span<const std::uint8_t> bytes);

// The most scans a JPEG may have. Each scan of a progressive JPEG makes stb_image walk every
// block of the image once, so the scan count multiplies the decode time: 60,000 scans of a
// 16384 x 8192 picture took 190 s. Encoders write about 10 (libjpeg's default progressive
// script: 10 for colour, 6 for grey); the most a non-redundant script can have is 4 components
// x (1 DC + 13 refinements + 63 AC bands x 14 bit positions), but no encoder writes that.
// libjpeg-turbo has the same guard (djpeg -maxscans, TJPARAM_SCANLIMIT). 500 keeps a bomb at
// the largest allowed size to about 1/120 of the 60,000-scan case (docs/bench/issue28) and is
// 50 times what encoders write.
inline constexpr std::uint64_t kMaxJpegScans = 500;

// Why stb_image must not decode these bytes (truncated, or a known decoder bug), or nothing.
// The reason reads after "cannot load image 'x': ".
std::optional<std::string> imageStructureProblem(ImageFormat format,
                                                 std::span<const std::uint8_t> bytes);

// True for a BI_RGB 32-bit BMP, whose fourth byte per pixel is padding, not alpha.
bool bmpFourthByteIsPadding(std::span<const std::uint8_t> bytes);

}  // namespace clviz
