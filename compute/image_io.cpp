#include "compute/image_io.hpp"

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

#include "compute/device_info.hpp"
#include "compute/error.hpp"
#include "compute/text.hpp"

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

// stb's reasons are terse ("bad png sig", "outofdata"); say what they mean for the user.
std::string explainStbFailure(const char* reason) {
    const std::string r = reason ? reason : "unknown reason";
    if (r == "unknown image type")
        return std::string("unsupported or unrecognized format (supported: ") +
               supportedImageFormats() + ")";
    if (r == "too large" || r == "outofmem")
        return "the image is too large to decode (stb_image: " + r + ")";
    return "the file is corrupt or truncated (stb_image: " + r + ")";
}

// Debian's stb_image (2022-09) trusts the code counts of a JPEG Huffman table (DHT): counts
// summing past 256 make stbi__build_huffman write past its arrays (fixed upstream later with an
// "n > 256" check; found here by tests/fuzz). Walk the JPEG's segments the way stb does and refuse
// such tables before stb sees them. Valid files have at most 256 codes per table, so nothing
// legitimate is refused.
std::optional<std::string> badJpegHuffmanTable(std::span<const std::uint8_t> b) {
    // stb accepts fill bytes (0xFF) before the SOI marker too.
    std::size_t i = 0;
    while (i < b.size() && b[i] == 0xFF)
        ++i;
    if (i == 0 || i >= b.size() || b[i] != 0xD8) return std::nullopt;  // not a JPEG
    // Bytes past the end read as 0, as stb reads them.
    auto at = [&](std::size_t k) -> unsigned { return k < b.size() ? b[k] : 0u; };
    ++i;
    while (i + 1 < b.size()) {
        if (b[i] != 0xFF) {  // entropy-coded data (or junk stb skips too): find the next marker
            ++i;
            continue;
        }
        const unsigned m = b[i + 1];
        if (m == 0xFF) {  // fill byte
            ++i;
            continue;
        }
        if (m == 0x00 || m == 0x01 || m == 0xD8 || (m >= 0xD0 && m <= 0xD7)) {
            i += 2;  // stuffed zero, TEM, SOI, restart: no length field
            continue;
        }
        if (m == 0xD9) break;  // EOI
        const std::size_t length = (at(i + 2) << 8) | at(i + 3);
        if (m == 0xC4) {
            // stb's DHT loop, with its own idea of the segment length.
            long remaining = static_cast<long>(length) - 2;
            std::size_t p = i + 4;
            while (remaining > 0) {
                unsigned codes = 0;
                for (int k = 0; k < 16; ++k)
                    codes += at(p + 1 + k);
                if (codes > 256)
                    return "the file is corrupt (a JPEG Huffman table declares " +
                           std::to_string(codes) + " codes; at most 256 are possible)";
                p += 17 + codes;
                remaining -= 17 + static_cast<long>(codes);
            }
        }
        i += 2 + length;
    }
    return std::nullopt;
}

// Debian's stb_image grows its IDAT buffer to the length a PNG chunk declares before reading it,
// so a 700-byte file declaring a 1 GiB chunk makes it allocate 2 GiB (found by tests/fuzz). A
// valid PNG's chunks all fit in the file: walk them up to IEND and refuse one that does not.
std::optional<std::string> badPngChunk(std::span<const std::uint8_t> b) {
    static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (b.size() < 8 || !std::equal(kSignature, kSignature + 8, b.begin())) return std::nullopt;
    std::size_t at = 8;
    while (at + 8 <= b.size()) {
        const std::uint64_t length = (std::uint64_t(b[at]) << 24) |
                                     (std::uint64_t(b[at + 1]) << 16) |
                                     (std::uint64_t(b[at + 2]) << 8) | std::uint64_t(b[at + 3]);
        const std::string type(reinterpret_cast<const char*>(&b[at + 4]), 4);
        if (12 + length > b.size() - at)
            return "the file is corrupt or truncated (PNG chunk " + type + " declares " +
                   std::to_string(length) + " bytes, but only " +
                   std::to_string(b.size() - at - std::min<std::size_t>(b.size() - at, 12)) +
                   " remain)";
        if (type == "IEND") return std::nullopt;
        at += 12 + length;
    }
    return std::nullopt;  // no IEND: stb reports the truncation itself
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
    if (width == 0 || height == 0)
        throw Error(prefix + "the image has zero size (" + std::to_string(width) + " x " +
                    std::to_string(height) + ")");
    if (maxval == 0 || maxval > 65535)
        throw Error(prefix + "the file is corrupt (PNM maxval " + std::to_string(maxval) + ")");
    if (width > static_cast<std::uint64_t>(limits.maxEdge) ||
        height > static_cast<std::uint64_t>(limits.maxEdge) || width * height > limits.maxPixels)
        throw Error(prefix + "the image is " + std::to_string(width) + " x " +
                    std::to_string(height) + " pixels; clviz loads at most " +
                    std::to_string(limits.maxEdge) + " pixels a side and " +
                    std::to_string(limits.maxPixels) + " pixels in all");
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
    if (bytes.size() > static_cast<std::size_t>(INT_MAX))
        throw Error(prefix + "the file is larger than 2 GiB");
    if (auto pnm = decodeBinaryPnm(bytes, prefix, limits)) return std::move(*pnm);
    if (auto bad = badJpegHuffmanTable(bytes)) throw Error(prefix + *bad);
    if (auto bad = badPngChunk(bytes)) throw Error(prefix + *bad);
    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int len = static_cast<int>(bytes.size());

    // The header alone gives the size: refuse absurd images before decoding a single pixel.
    int w = 0, h = 0, channels = 0;
    if (!stbi_info_from_memory(data, len, &w, &h, &channels)) {
        // stbi_info tries every format and reports only "unknown image type"; a load attempt
        // stops in the format's own header checks with the specific reason (stb bounds sizes
        // there too).
        int lw = 0, lh = 0, lc = 0;
        std::unique_ptr<stbi_uc, StbFree> probe(stbi_load_from_memory(data, len, &lw, &lh, &lc, 4));
        if (!probe) throw Error(prefix + explainStbFailure(stbi_failure_reason()));
        w = lw, h = lh;  // decodable after all: check its size below like any other
    }
    if (w <= 0 || h <= 0)
        throw Error(prefix + "the image has zero size (" + std::to_string(w) + " x " +
                    std::to_string(h) + ")");
    if (w > limits.maxEdge || h > limits.maxEdge ||
        static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) > limits.maxPixels)
        throw Error(prefix + "the image is " + std::to_string(w) + " x " + std::to_string(h) +
                    " pixels; clviz loads at most " + std::to_string(limits.maxEdge) +
                    " pixels a side and " + std::to_string(limits.maxPixels) + " pixels in all");

    int lw = 0, lh = 0, lc = 0;
    if (stbi_is_hdr_from_memory(data, len)) {
        std::unique_ptr<float, StbFree> hdr(stbi_loadf_from_memory(data, len, &lw, &lh, &lc, 3));
        if (!hdr) throw Error(prefix + explainStbFailure(stbi_failure_reason()));
        if (lw != w || lh != h) throw Error(prefix + "the header and the pixel data disagree");
        return toneMapHdr(hdr.get(), lw, lh);
    }
    std::unique_ptr<stbi_uc, StbFree> pixels(stbi_load_from_memory(data, len, &lw, &lh, &lc, 4));
    if (!pixels) throw Error(prefix + explainStbFailure(stbi_failure_reason()));
    if (lw != w || lh != h) throw Error(prefix + "the header and the pixel data disagree");
    Rgba8Image image;
    image.width = lw;
    image.height = lh;
    image.pixels.assign(pixels.get(), pixels.get() + image.size().bytes());
    return image;
}

Rgba8Image loadImage(const std::string& path, const ImageLoadLimits& limits) {
    const std::string prefix = "cannot load image " + quoted(path) + ": ";
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error(prefix + "it is a directory");
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) throw Error(prefix + std::strerror(errno));
    std::vector<std::uint8_t> bytes;
    std::uint8_t chunk[1 << 16];
    for (;;) {
        const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
        bytes.insert(bytes.end(), chunk, chunk + got);
        if (got < sizeof chunk) break;
        if (bytes.size() > static_cast<std::size_t>(INT_MAX))
            throw Error(prefix + "the file is larger than 2 GiB");
    }
    if (std::ferror(file.get())) throw Error(prefix + "read error: " + std::strerror(errno));
    return loadImageFromMemory(bytes, path, limits);
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
    if (device.imageSupport && device.image2dMaxWidth > 0 && device.image2dMaxHeight > 0) {
        ImageSizeLimit l;
        l.maxWidth = static_cast<int>(std::min<std::size_t>(device.image2dMaxWidth, INT_MAX));
        l.maxHeight = static_cast<int>(std::min<std::size_t>(device.image2dMaxHeight, INT_MAX));
        l.what = "the OpenCL image2d limit of " + device.name + " (" + std::to_string(l.maxWidth) +
                 " x " + std::to_string(l.maxHeight) + ")";
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
