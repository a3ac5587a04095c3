#include "compute/image/io/image_limits.hpp"

#include <cstdio>

#include "common/error.hpp"
#include "compute/core/device_info.hpp"

namespace clviz {

namespace {

// "512 B", "1.5 MiB" (device_info.cpp has formatBytes, but the fuzzer links the io/ files alone).
std::string humanBytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4)
        v /= 1024.0, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

}  // namespace

std::vector<ImageSizeLimit> deviceImageLimits(const DeviceInfo& device) {
    std::vector<ImageSizeLimit> limits;
    if (device.maxAllocBytes > 0) {
        ImageSizeLimit l;
        l.maxBytes = device.maxAllocBytes;
        l.what = "the largest OpenCL buffer " + device.name + " allocates (" +
                 humanBytes(device.maxAllocBytes) + ")";
        limits.push_back(l);
    }
    return limits;
}

ImageSizeLimit glTextureLimit(int glMaxTextureSize) {
    ImageSizeLimit l;
    l.maxWidth = l.maxHeight = glMaxTextureSize;
    l.what = "GL_MAX_TEXTURE_SIZE (" + std::to_string(glMaxTextureSize) + ")";
    return l;
}

std::optional<std::string> imageSizeProblem(ImageSize size,
                                            const std::vector<ImageSizeLimit>& limits) {
    const std::string dims = "the image is " + std::to_string(size.width) + " x " +
                             std::to_string(size.height) + " pixels";
    if (size.empty()) return dims + ": it is empty";
    for (const auto& l : limits) {
        if (l.maxWidth > 0 && size.width > l.maxWidth) return dims + ", wider than " + l.what;
        if (l.maxHeight > 0 && size.height > l.maxHeight) return dims + ", taller than " + l.what;
        if (l.maxBytes > 0 && size.bytes() > l.maxBytes)
            return dims + " (" + humanBytes(size.bytes()) + " of RGBA8), more than " + l.what;
    }
    return std::nullopt;
}

void checkImageSize(ImageSize size, const std::vector<ImageSizeLimit>& limits) {
    if (auto problem = imageSizeProblem(size, limits)) throw Error(*problem);
}

}  // namespace clviz
