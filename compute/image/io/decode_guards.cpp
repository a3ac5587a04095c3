#include "compute/image/io/decode_guards.hpp"

#include <cstdio>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

std::string quotedName(const std::string& name) {
    return quotedPath(name);
}

namespace {
// "134.2 million pixels" (a limit in words a user can compare with a picture's size).
std::string megapixels(std::uint64_t pixels) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f million pixels", static_cast<double>(pixels) / 1e6);
    return text;
}
}  // namespace

void checkHeaderSize(const std::string& prefix, std::uint64_t width, std::uint64_t height,
                     const ImageLoadLimits& limits) {
    if (width == 0 || height == 0)
        throw Error(prefix + "the image has zero size (" + std::to_string(width) + " x " +
                    std::to_string(height) + ")");
    if (width > static_cast<std::uint64_t>(limits.maxEdge) ||
        height > static_cast<std::uint64_t>(limits.maxEdge) || width * height > limits.maxPixels)
        throw Error(prefix + "the image is " + std::to_string(width) + " x " +
                    std::to_string(height) + " pixels; clviz loads at most " +
                    std::to_string(limits.maxEdge) + " pixels a side and " +
                    megapixels(limits.maxPixels) + " in all");
    const ImageSize size{static_cast<int>(width), static_cast<int>(height)};
    if (auto problem = imageSizeProblem(size, limits.fit)) throw Error(prefix + *problem);
}

std::string explainStbFailure(ImageFormat format, const char* reason) {
    const std::string r = reason && *reason ? reason : "no reason given";
    if (r == "too large" || r == "outofmem")
        return "the image is too large to decode (stb_image: " + r + ")";
    return std::string("the ") + imageFormatName(format) +
           " file is corrupt or uses a feature stb_image does not read (stb_image: " + r + ")";
}

}  // namespace clviz
