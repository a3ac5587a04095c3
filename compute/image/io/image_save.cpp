// Saving: PNG and JPEG through stb_image_write (declared in image_io.hpp).
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/error.hpp"
#include "common/text.hpp"
#include "compute/image/io/decode_guards.hpp"
#include "compute/image/io/image_io.hpp"

namespace clviz {

namespace {

const auto quoted = quotedName;

void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(context);
    auto* bytes = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

std::string lowerExtension(const std::string& path) {
    return toLower(std::filesystem::path(path).extension().string());
}

void checkSaveable(const std::string& path, const Rgba8Image& image) {
    if (image.empty())
        throw Error("cannot save " + quoted(path) + ": the image is empty (" +
                    std::to_string(image.width) + " x " + std::to_string(image.height) + ")");
    if (image.pixels.size() != image.size().bytes())
        throw Error("cannot save " + quoted(path) + ": the pixel buffer holds " +
                    std::to_string(image.pixels.size()) + " bytes, expected " +
                    std::to_string(image.size().bytes()));
    if (image.width > INT_MAX / 4) throw Error("cannot save " + quoted(path) + ": too wide");
}

}  // namespace

std::vector<std::uint8_t> encodePng(const Rgba8Image& image) {
    checkSaveable("PNG in memory", image);
    std::vector<std::uint8_t> out;
    if (!stbi_write_png_to_func(appendBytes, &out, image.width, image.height, 4,
                                image.pixels.data(), image.width * 4))
        throw Error("PNG encoding failed");
    return out;
}

void saveImage(const std::string& path, const Rgba8Image& image, int jpegQuality) {
    checkSaveable(path, image);
    const std::string ext = lowerExtension(path);
    std::vector<std::uint8_t> encoded;
    if (ext == ".png") {
        encoded = encodePng(image);
    } else if (ext == ".jpg" || ext == ".jpeg") {
        if (!stbi_write_jpg_to_func(appendBytes, &encoded, image.width, image.height, 4,
                                    image.pixels.data(), std::clamp(jpegQuality, 1, 100)))
            throw Error("cannot save " + quoted(path) + ": JPEG encoding failed");
    } else {
        throw Error("cannot save " + quoted(path) + ": unsupported extension " +
                    quoted(ext.empty() ? std::string("(none)") : ext) + "; use .png or .jpg");
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                         &std::fclose);
    if (!file) throw Error("cannot save " + quoted(path) + ": " + std::strerror(errno));
    if (std::fwrite(encoded.data(), 1, encoded.size(), file.get()) != encoded.size() ||
        std::fflush(file.get()) != 0)
        throw Error("cannot save " + quoted(path) + ": write error: " + std::strerror(errno));
    if (std::fclose(file.release()) != 0)
        throw Error("cannot save " + quoted(path) + ": " + std::strerror(errno));
}

}  // namespace clviz
