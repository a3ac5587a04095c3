#pragma once
// A PNG the viewer wrote (screenshot, recorded frame), read back as 8-bit RGB for the e2e checks.
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <vector>

namespace clviz::test {

struct RgbImage {
    int w = 0, h = 0;
    std::vector<unsigned char> rgb;
    std::array<int, 3> at(int x, int y) const {
        const unsigned char* p = &rgb[(std::size_t(y) * w + x) * 3];
        return {p[0], p[1], p[2]};
    }
    int brightness(int x, int y) const {  // the largest channel
        const unsigned char* p = &rgb[(std::size_t(y) * w + x) * 3];
        return std::max({p[0], p[1], p[2]});
    }
};

// An empty image (w = h = 0) when the file is missing or not readable.
inline RgbImage loadRgbPng(const std::filesystem::path& path) {
    RgbImage img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 3);
    if (!data) return img;
    img.rgb.assign(data, data + std::size_t(img.w) * img.h * 3);
    stbi_image_free(data);
    return img;
}

}  // namespace clviz::test
