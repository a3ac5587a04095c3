#pragma once
// The checks every decoder in io/ runs before it decodes a pixel, and the words its failures
// are reported in. Internal to compute/image/io.
#include <cstdint>
#include <string>

#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/image_limits.hpp"

namespace clviz {

// "'name'", as file names appear in messages.
std::string quotedName(const std::string& name);

// The header's size against clviz's own bounds and the caller's (device, GL): checked before a
// single pixel is decoded, so a decompression bomb costs nothing. Throws clviz::Error starting
// with `prefix` ("cannot load image 'x': ").
void checkHeaderSize(const std::string& prefix, std::uint64_t width, std::uint64_t height,
                     const ImageLoadLimits& limits);

// stb's reasons are terse ("outofdata", sometimes empty); what they mean for the user.
std::string explainStbFailure(ImageFormat format, const char* reason);

}  // namespace clviz
