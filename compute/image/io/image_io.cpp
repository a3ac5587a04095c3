// Loading: every format recognised and checked by clviz, then decoded by stb_image, or by
// clviz itself for PNM and Radiance HDR.
#include "compute/image/io/image_io.hpp"

#include <stb/stb_image.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "compute/image/io/decode_guards.hpp"
#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/pnm.hpp"
#include "compute/image/io/radiance_hdr.hpp"
#include "compute/image/io/tone_map.hpp"

namespace clviz {

namespace {

const auto quoted = quotedName;

std::string unsupportedFormat() {
    return std::string("unsupported or unrecognized format (supported: ") +
           supportedImageFormats() + ")";
}

struct StbFree {
    void operator()(void* p) const { stbi_image_free(p); }
};

}  // namespace

const char* supportedImageFormats() {
    return "PNG, JPEG, BMP, TGA, GIF (first frame), PSD, HDR, PIC, PNM";
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

}  // namespace clviz
