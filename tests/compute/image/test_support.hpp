#pragma once
// Shared by the image-lab tests: random images from the run's seed, device round trips and pixel
// comparisons; the context, seed, TempDir and errorOf come from tests/support/.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/io/image_io.hpp"
#include "tests/support/device_context.hpp"
#include "tests/support/error_message.hpp"
#include "tests/support/random_seed.hpp"
#include "tests/support/temp_dir.hpp"

namespace clviz::test {

// Uniform random RGBA; `salt` gives each test its own stream from the one seed.
inline Rgba8Image randomImage(int w, int h, std::uint64_t salt) {
    std::mt19937_64 rng(testSeed() ^ (salt * 0x9e3779b97f4a7c15ull));
    Rgba8Image img(w, h);
    for (auto& b : img.pixels)
        b = static_cast<std::uint8_t>(rng() >> 56);
    return img;
}

inline Rgba8Image solidImage(int w, int h, Rgba8 c) {
    Rgba8Image img(w, h);
    for (std::size_t i = 0; i < img.pixels.size(); i += 4) {
        img.pixels[i] = c.r, img.pixels[i + 1] = c.g, img.pixels[i + 2] = c.b,
        img.pixels[i + 3] = c.a;
    }
    return img;
}

inline cl::Buffer upload(const Rgba8Image& img) {
    ComputeContext& cc = context();
    cl::Buffer b(cc.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(img.pixels.size(), 4));
    cc.queue().enqueueWriteBuffer(b, CL_TRUE, 0, img.pixels.size(), img.pixels.data());
    return b;
}

inline cl::Buffer deviceBuffer(ImageSize size) {
    return cl::Buffer(context().context(), CL_MEM_READ_WRITE,
                      std::max<std::size_t>(size.bytes(), 4));
}

inline Rgba8Image download(const cl::Buffer& b, ImageSize size) {
    Rgba8Image img(size.width, size.height);
    context().queue().enqueueReadBuffer(b, CL_TRUE, 0, img.pixels.size(), img.pixels.data());
    return img;
}

// Largest per-channel difference; `where` gets the first worst pixel.
inline int maxDifference(const Rgba8Image& a, const Rgba8Image& b, std::string* where = nullptr) {
    if (a.width != b.width || a.height != b.height) {
        if (where)
            *where = "sizes differ: " + std::to_string(a.width) + "x" + std::to_string(a.height) +
                     " vs " + std::to_string(b.width) + "x" + std::to_string(b.height);
        return 1000;
    }
    int worst = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i) {
        const int d = std::abs(int(a.pixels[i]) - int(b.pixels[i]));
        if (d > worst) {
            worst = d;
            if (where) {
                const std::size_t p = i / 4;
                *where = "pixel (" + std::to_string(p % a.width) + ", " +
                         std::to_string(p / a.width) + ") channel " + std::to_string(i % 4) + ": " +
                         std::to_string(a.pixels[i]) + " vs " + std::to_string(b.pixels[i]);
            }
        }
    }
    return worst;
}

}  // namespace clviz::test
