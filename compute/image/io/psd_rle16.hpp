#pragma once
// 16-bit run-length PSDs. Debian's stb_image unpacks a PSD's PackBits data one byte per sample,
// which is right for 8-bit files only: a 16-bit RLE PSD decoded "successfully" into garbage
// (issue 28: 135,299 of 135,300 pixels wrong). clviz unpacks those itself into the equivalent
// uncompressed 16-bit PSD, which stb reads correctly (its raw path takes each sample's high
// byte), so both compressions of one picture give the same pixels. Internal to compute/image/io.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace clviz {

// For a 16-bit RLE RGB PSD: the same picture as an uncompressed 16-bit PSD (the colour-mode,
// resource and layer sections dropped; at most 4 channels, which is all stb reads). Nothing
// for any other file. Throws clviz::Error (the reason, to follow "cannot load image 'x': ")
// when the run-length data is truncated or corrupt.
std::optional<std::vector<std::uint8_t>> unpackPsd16Rle(std::span<const std::uint8_t> psd);

}  // namespace clviz
