#pragma once
// Loading and saving pictures for the image lab, through stb_image / stb_image_write. Every
// failure (missing, unreadable, truncated, corrupt, unsupported, zero-size, too large) throws
// clviz::Error with a message meant for the user. No OpenCL or GL here: the fuzzer links this
// file alone.
//
// Pixel layout everywhere in the image lab: tightly packed RGBA8 rows, top row first, bytes in
// R, G, B, A order; pixel (x, y) starts at byte 4 * (y * width + x).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace clviz {

struct DeviceInfo;

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

// One size constraint an image must meet to be shown or processed.
struct ImageSizeLimit {
    int maxWidth = 0;  // 0: no limit on this side
    int maxHeight = 0;
    std::uint64_t maxBytes = 0;  // RGBA8 bytes; 0: no limit
    std::string what;            // "GL_MAX_TEXTURE_SIZE (16384)", used in the message
};

// Loading is bounded: the file's type and size are checked before it is read (regular files
// only), the header's dimensions against these limits before any pixel is decoded (a
// decompression bomb costs nothing), and every decoder loop advances through the bytes or fails.
// Peak memory of a load is at most about 3x the RGBA8 size (stb's working buffers).
struct ImageLoadLimits {
    int maxEdge = 32768;                   // pixels, either side
    std::uint64_t maxPixels = 1ull << 28;  // 16384 x 16384 = 1 GiB of RGBA8
    // The largest allowed image uncompressed (1 GiB) plus room for headers and row padding.
    std::uint64_t maxFileBytes = 1280ull << 20;
    std::vector<ImageSizeLimit> fit;  // the caller's own limits (device, GL), checked up front
};

// Formats read: PNG (8/16 bit, palette, grey, alpha), JPEG (baseline and progressive), BMP
// (bottom-up and top-down), TGA, GIF (first frame), PSD (composited), PIC through stb_image;
// HDR (Radiance, tone-mapped to 8-bit sRGB) and binary PNM by clviz itself. Everything is
// converted to RGBA8; opaque formats get alpha 255. A file shorter than its headers say is
// refused as truncated (never shown with black regions): image_format_checks.hpp.
const char* supportedImageFormats();

// Reads and decodes a file. Throws clviz::Error naming the file and the reason; refuses
// directories, FIFOs, devices and files over limits.maxFileBytes before reading them.
Rgba8Image loadImage(const std::string& path, const ImageLoadLimits& limits = {});

// Decodes an in-memory file; `name` is used in messages ("dropped file", a path...).
Rgba8Image loadImageFromMemory(std::span<const std::uint8_t> bytes,
                               const std::string& name = "image data",
                               const ImageLoadLimits& limits = {});

// Tone-maps linear HDR RGB (3 floats per pixel) to RGBA8: extended Reinhard on luminance with
// the white point at the brightest pixel and the exposure keyed to the log-average luminance,
// then sRGB encoding. Exposed for tests; loadImage uses it for .hdr files.
Rgba8Image toneMapHdr(const float* rgb, int width, int height);

// Writes PNG (.png) or JPEG (.jpg, .jpeg; quality 1..100; alpha is dropped) chosen by the
// extension, case-insensitively. Throws clviz::Error for other extensions, empty images or I/O
// failures (with the system's reason).
void saveImage(const std::string& path, const Rgba8Image& image, int jpegQuality = 92);

// PNG file bytes in memory (tests, the fuzzer's seed corpus).
std::vector<std::uint8_t> encodePng(const Rgba8Image& image);

// The limit an OpenCL device puts on the image lab: its largest buffer allocation
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE). CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT is not one: only the
// image-object rotate variants need an image2d, and they say so when an image is too large for
// them (ImageRotate::available); every other filter works on buffers.
std::vector<ImageSizeLimit> deviceImageLimits(const DeviceInfo& device);

// GL_MAX_TEXTURE_SIZE as a limit (the GUI queries the value from GL).
ImageSizeLimit glTextureLimit(int glMaxTextureSize);

// Why an image of `size` breaks one of `limits` ("image is 20000 x 300 pixels, wider than
// GL_MAX_TEXTURE_SIZE (16384)"), or nothing when it fits.
std::optional<std::string> imageSizeProblem(ImageSize size,
                                            const std::vector<ImageSizeLimit>& limits);

// Throws clviz::Error with imageSizeProblem's message when the image does not fit.
void checkImageSize(ImageSize size, const std::vector<ImageSizeLimit>& limits);

}  // namespace clviz
