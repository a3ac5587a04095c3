#pragma once
// Reads back what GL drew and writes it as PNG (stb_image_write), top row first.
#include <cstdint>
#include <string>
#include <vector>

namespace clviz {

// RGB pixels of the current read framebuffer (the back buffer before the swap), rows top-down.
std::vector<std::uint8_t> readFramebufferRgb(int width, int height);

// Reads the framebuffer and writes `path`; creates no directories. Throws clviz::Error.
void saveFramebufferPng(const std::string& path, int width, int height);

// Writes tightly packed RGB rows (top-down) as PNG. Throws clviz::Error.
void writePngRgb(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                 int height);

// "clviz-20250131-142501.png" in the current directory; adds -2, -3, ... when taken.
std::string timestampedScreenshotName();

}  // namespace clviz
