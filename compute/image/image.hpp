#pragma once
// The image lab's picture types, shared by the filters, the pipeline, the references and file I/O.
//
// Pixel layout everywhere in the image lab: tightly packed RGBA8 rows, top row first, bytes in
// R, G, B, A order; pixel (x, y) starts at byte 4 * (y * width + x).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clviz {

struct ImageSize {
    int width = 0;
    int height = 0;
    std::size_t pixels() const { return std::size_t(width) * std::size_t(height); }
    std::size_t bytes() const { return pixels() * 4; }
    bool empty() const { return width <= 0 || height <= 0; }
    friend bool operator==(const ImageSize&, const ImageSize&) = default;
};

struct Rgba8 {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

struct Rgba8Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4 bytes, layout above

    Rgba8Image() = default;
    Rgba8Image(int w, int h) : width(w), height(h), pixels(std::size_t(w) * std::size_t(h) * 4) {}
    ImageSize size() const { return {width, height}; }
    bool empty() const { return width <= 0 || height <= 0; }
    std::uint8_t* at(int x, int y) { return pixels.data() + 4 * (std::size_t(y) * width + x); }
    const std::uint8_t* at(int x, int y) const {
        return pixels.data() + 4 * (std::size_t(y) * width + x);
    }
};

}  // namespace clviz
