#include "compute/image/io/image_io.hpp"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "compute/core/device_info.hpp"
#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/radiance_hdr.hpp"

namespace clviz {

namespace {

std::string quoted(const std::string& name) {
    return "'" + name + "'";
}

// "512 B", "1.5 MiB" (device_info.cpp has formatBytes, but the fuzzer links this file alone).
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

// stb's reasons are terse ("outofdata", sometimes empty); say what they mean for the user.
std::string explainStbFailure(ImageFormat format, const char* reason) {
    const std::string r = reason && *reason ? reason : "no reason given";
    if (r == "too large" || r == "outofmem")
        return "the image is too large to decode (stb_image: " + r + ")";
    return std::string("the ") + imageFormatName(format) +
           " file is corrupt or uses a feature stb_image does not read (stb_image: " + r + ")";
}

std::string unsupportedFormat() {
    return std::string("unsupported or unrecognized format (supported: ") +
           supportedImageFormats() + ")";
}

// The header's size against clviz's own bounds and the caller's (device, GL): checked before a
// single pixel is decoded, so a decompression bomb costs nothing.
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
                    std::to_string(limits.maxPixels) + " pixels in all");
    const ImageSize size{static_cast<int>(width), static_cast<int>(height)};
    if (auto problem = imageSizeProblem(size, limits.fit)) throw Error(prefix + *problem);
}

// Binary PGM / PPM (P5, P6), decoded here rather than by stb_image: Debian's copy (2022-09)
// overflows its output converting 16-bit PNM to RGBA (found by tests/fuzz), leaves pixels
// uninitialised when the raster is short, and ignores maxval. Values are scaled from
// 0..maxval to 0..255 with rounding. Returns nothing when the bytes are not P5/P6.
std::optional<Rgba8Image> decodeBinaryPnm(std::span<const std::uint8_t> b,
                                          const std::string& prefix,
                                          const ImageLoadLimits& limits) {
    if (b.size() < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return std::nullopt;
    const int channels = b[1] == '6' ? 3 : 1;
    std::size_t i = 2;
    auto isSpace = [](unsigned c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    // Whitespace and '#' comments, then a decimal number.
    auto number = [&](const char* what) -> std::uint64_t {
        for (;;) {
            while (i < b.size() && isSpace(b[i]))
                ++i;
            if (i < b.size() && b[i] == '#') {
                while (i < b.size() && b[i] != '\n' && b[i] != '\r')
                    ++i;
                continue;
            }
            break;
        }
        if (i >= b.size() || b[i] < '0' || b[i] > '9')
            throw Error(prefix + "the file is corrupt or truncated (PNM header: no " + what + ")");
        std::uint64_t v = 0;
        while (i < b.size() && b[i] >= '0' && b[i] <= '9') {
            v = v * 10 + (b[i++] - '0');
            if (v > (1u << 30))
                throw Error(prefix + "the file is corrupt (PNM " + what + " is absurd)");
        }
        return v;
    };
    const std::uint64_t width = number("width"), height = number("height"),
                        maxval = number("maxval");
    if (i >= b.size() || !isSpace(b[i]))
        throw Error(prefix + "the file is corrupt or truncated (PNM header)");
    ++i;  // exactly one whitespace character before the raster
    if (maxval == 0 || maxval > 65535)
        throw Error(prefix + "the file is corrupt (PNM maxval " + std::to_string(maxval) + ")");
    checkHeaderSize(prefix, width, height, limits);
    const std::size_t bytesPerSample = maxval > 255 ? 2 : 1;
    const std::size_t samples = static_cast<std::size_t>(width * height) * channels;
    if (b.size() - i < samples * bytesPerSample)
        throw Error(prefix + "the file is truncated (the PNM raster needs " +
                    std::to_string(samples * bytesPerSample) + " bytes, " +
                    std::to_string(b.size() - i) + " are there)");
    Rgba8Image img(static_cast<int>(width), static_cast<int>(height));
    const std::uint8_t* raster = b.data() + i;
    auto sample = [&](std::size_t k) -> std::uint8_t {
        const std::uint32_t v =
            bytesPerSample == 2 ? (raster[2 * k] << 8) | raster[2 * k + 1] : raster[k];
        return static_cast<std::uint8_t>((std::min<std::uint64_t>(v, maxval) * 255 + maxval / 2) /
                                         maxval);
    };
    for (std::size_t p = 0; p < img.size().pixels(); ++p) {
        std::uint8_t* o = img.pixels.data() + 4 * p;
        if (channels == 3) {
            o[0] = sample(3 * p), o[1] = sample(3 * p + 1), o[2] = sample(3 * p + 2);
        } else {
            o[0] = o[1] = o[2] = sample(p);
        }
        o[3] = 255;
    }
    return img;
}

struct StbFree {
    void operator()(void* p) const { stbi_image_free(p); }
};

// Linear [0, 1] to an sRGB byte; anything else (NaN included) is clamped.
std::uint8_t srgbByte(double linear) {
    if (!(linear > 0)) return 0;
    if (linear >= 1) return 255;
    const double v =
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1 / 2.4) - 0.055;
    return static_cast<std::uint8_t>(std::lround(255.0 * v));
}

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

const char* supportedImageFormats() {
    return "PNG, JPEG, BMP, TGA, GIF (first frame), PSD, HDR, PIC, PNM";
}

Rgba8Image toneMapHdr(const float* rgb, int width, int height) {
    Rgba8Image out(width, height);
    const std::size_t n = out.size().pixels();
    auto luminance = [](float r, float g, float b) {
        return 0.2126f * r + 0.7152f * g + 0.0722f * b;
    };
    auto clean = [](float v) { return std::isfinite(v) && v > 0 ? v : 0.0f; };

    // Exposure: scale so the log-average luminance of the lit pixels lands on middle grey
    // (0.18). Black pixels are left out: they would drag the average down without bound.
    double logSum = 0;
    std::size_t lit = 0;
    float maxL = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float l = luminance(clean(rgb[3 * i]), clean(rgb[3 * i + 1]), clean(rgb[3 * i + 2]));
        if (l > 0 && std::isfinite(l)) {
            logSum += std::log(static_cast<double>(l));
            ++lit;
            maxL = std::max(maxL, l);
        }
    }
    const double logAverage = lit ? std::exp(logSum / static_cast<double>(lit)) : 1.0;
    // Doubles from here: the scaled values can exceed float range for extreme files.
    const double scale = 0.18 / logAverage;
    // White point: the brightest pixel maps to 1, but never stretch a low-contrast image.
    const double white = std::max(maxL * scale, 1.0);
    const double white2 = white * white;

    for (std::size_t i = 0; i < n; ++i) {
        const float r = clean(rgb[3 * i]), g = clean(rgb[3 * i + 1]), b = clean(rgb[3 * i + 2]);
        const double l = luminance(r, g, b);
        std::uint8_t* p = out.pixels.data() + 4 * i;
        p[3] = 255;
        if (!(l > 0) || !std::isfinite(l)) {
            p[0] = p[1] = p[2] = l > 0 ? 255 : 0;  // black, or overflowing radiance: white
            continue;
        }
        const double ls = l * scale;
        const double ld = ls * (1.0 + ls / white2) / (1.0 + ls);  // extended Reinhard
        const double k = ld / l;                                  // same factor keeps the hue
        p[0] = srgbByte(r * k);
        p[1] = srgbByte(g * k);
        p[2] = srgbByte(b * k);
    }
    return out;
}

Rgba8Image loadImageFromMemory(std::span<const std::uint8_t> bytes, const std::string& name,
                               const ImageLoadLimits& limits) {
    const std::string prefix = "cannot load image " + quoted(name) + ": ";
    if (bytes.empty()) throw Error(prefix + "the file is empty (0 bytes)");
    if (bytes.size() > std::min<std::uint64_t>(limits.maxFileBytes, INT_MAX))  // stb takes int
        throw Error(
            prefix + "the file is " + std::to_string(bytes.size()) + " bytes; the limit is " +
            std::to_string(std::min<std::uint64_t>(limits.maxFileBytes, INT_MAX)) + " bytes");
    // Every format is recognised here, checked here, and only then decoded: stb_image never sees
    // bytes clviz cannot name, and never a file shorter than its headers say.
    const ImageFormat format = sniffImageFormat(bytes);
    if (format == ImageFormat::Unknown) throw Error(prefix + unsupportedFormat());
    if (format == ImageFormat::Pnm) return std::move(*decodeBinaryPnm(bytes, prefix, limits));
    if (format == ImageFormat::Hdr) {
        try {
            const RadianceHeader header = parseRadianceHeader(bytes);
            checkHeaderSize(prefix, header.width, header.height, limits);
            return toneMapHdr(decodeRadiancePixels(bytes, header).data(), header.width,
                              header.height);
        } catch (const Error& e) {
            const std::string what = e.what();
            throw Error(what.rfind(prefix, 0) == 0 ? what : prefix + what);
        }
    }
    // Both checks read headers and walk the file's bytes once, decoding nothing: a known stb bug
    // or a truncation first, then the header's size, so absurd images are refused before a
    // single pixel is decoded.
    if (auto bad = imageStructureProblem(format, bytes)) throw Error(prefix + *bad);
    const auto size = imageHeaderSize(format, bytes);
    if (!size)
        throw Error(prefix + "the file is truncated or corrupt: its " + imageFormatName(format) +
                    " header is incomplete or states no image size");
    checkHeaderSize(prefix, size->width, size->height, limits);

    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int len = static_cast<int>(bytes.size());
    const auto w = static_cast<int>(size->width), h = static_cast<int>(size->height);
    int lw = 0, lh = 0, lc = 0;
    std::unique_ptr<stbi_uc, StbFree> pixels(stbi_load_from_memory(data, len, &lw, &lh, &lc, 4));
    if (!pixels) throw Error(prefix + explainStbFailure(format, stbi_failure_reason()));
    if (lw != w || lh != h) throw Error(prefix + "the header and the pixel data disagree");
    Rgba8Image image;
    image.width = lw;
    image.height = lh;
    image.pixels.assign(pixels.get(), pixels.get() + image.size().bytes());
    return image;
}

Rgba8Image loadImage(const std::string& path, const ImageLoadLimits& limits) {
    const std::uint64_t maxBytes = std::min<std::uint64_t>(limits.maxFileBytes, INT_MAX);
    return loadImageFromMemory(readRegularFile(path, maxBytes, "cannot load image"), path, limits);
}

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
