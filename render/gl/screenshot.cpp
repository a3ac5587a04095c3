#include "render/gl/screenshot.hpp"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

std::vector<std::uint8_t> readFramebufferRgb(int width, int height) {
    if (width <= 0 || height <= 0) throw Error("cannot read a framebuffer of size 0");
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    std::vector<std::uint8_t> pixels(row * static_cast<std::size_t>(height));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    GLint packAlignment = 4;
    glGetIntegerv(GL_PACK_ALIGNMENT, &packAlignment);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    glPixelStorei(GL_PACK_ALIGNMENT, packAlignment);
    // GL's first row is the bottom one; PNG's is the top.
    std::vector<std::uint8_t> tmp(row);
    for (int y = 0; y < height / 2; ++y) {
        std::uint8_t* a = pixels.data() + row * static_cast<std::size_t>(y);
        std::uint8_t* b = pixels.data() + row * static_cast<std::size_t>(height - 1 - y);
        std::memcpy(tmp.data(), a, row);
        std::memcpy(a, b, row);
        std::memcpy(b, tmp.data(), row);
    }
    return pixels;
}

void writePngRgb(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                 int height) {
    errno = 0;
    if (!stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3))
        throw Error("cannot write " + quotedPath(path) +
                    (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

void saveFramebufferPng(const std::string& path, int width, int height) {
    writePngRgb(path, readFramebufferRgb(width, height), width, height);
}

std::string timestampedScreenshotName() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    std::string name = std::string("clviz-") + stamp + ".png";
    for (int i = 2; std::filesystem::exists(name); ++i)
        name = std::string("clviz-") + stamp + "-" + std::to_string(i) + ".png";
    return name;
}

}  // namespace clviz
