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
#include "compute/image/io/png_inflate_budget.hpp"
#include "compute/image/io/pnm.hpp"
#include "compute/image/io/psd_rle16.hpp"
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

// stb reads through these, so that a cancel takes effect at its next read: it sees the end of
// its input and fails within the scan, chunk or row it is decoding.
struct CancellableInput {
    std::span<const std::uint8_t> bytes;
    std::size_t at = 0;
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    static int read(void* self, char* data, int size) {
        auto& in = *static_cast<CancellableInput*>(self);
        if (in.cancelled() || size <= 0) return 0;
        const std::size_t n =
            std::min<std::size_t>(static_cast<std::size_t>(size), in.bytes.size() - in.at);
        std::copy_n(in.bytes.begin() + static_cast<std::ptrdiff_t>(in.at), n, data);
        in.at += n;
        return static_cast<int>(n);
    }
    static void skip(void* self, int n) {
        auto& in = *static_cast<CancellableInput*>(self);
        if (n < 0)
            in.at -= std::min<std::size_t>(in.at, static_cast<std::size_t>(-std::int64_t{n}));
        else
            in.at += std::min<std::size_t>(static_cast<std::size_t>(n), in.bytes.size() - in.at);
    }
    static int eof(void* self) {
        auto& in = *static_cast<CancellableInput*>(self);
        return in.cancelled() || in.at >= in.bytes.size();
    }
};

void throwIfCancelled(const ImageLoadLimits& limits, const std::string& prefix) {
    if (limits.cancel && limits.cancel->load()) throw ImageLoadCancelled(prefix + "cancelled");
}

}  // namespace

const char* supportedImageFormats() {
    return "PNG, JPEG, BMP (1/4/8-bit palette, 16-bit 555/565, 24, 32-bit with or without alpha, "
           "top-down; not RLE), TGA (true colour 16/24/32-bit, grey, colour-mapped, raw or RLE, "
           "either vertical origin; not right-to-left or 16-bit with alpha), GIF (first frame, "
           "interlaced, transparency), PSD (RGB, 8/16-bit), HDR (Radiance), PIC (Softimage, raw or "
           "run-length), PNM (binary P5/P6)";
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
    if (format == ImageFormat::Pnm) {
        if (auto bad = unreadPnmVariant(bytes)) throw Error(prefix + *bad);
        return std::move(*decodeBinaryPnm(bytes, prefix, limits));
    }
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
    // A 16-bit RLE PSD goes to stb as the uncompressed PSD it unpacks to (psd_rle16.hpp); its
    // size is checked first, so the unpacked copy is bounded too.
    std::optional<std::vector<std::uint8_t>> unpacked;
    if (format == ImageFormat::Psd) {
        if (const auto psdSize = imageHeaderSize(format, bytes))
            checkHeaderSize(prefix, psdSize->width, psdSize->height, limits);
        try {
            unpacked = unpackPsd16Rle(bytes);
        } catch (const Error& e) {
            throw Error(prefix + e.what());
        }
        if (unpacked) bytes = *unpacked;
    }
    if (auto bad = imageStructureProblem(format, bytes)) throw Error(prefix + *bad);
    const auto size = imageHeaderSize(format, bytes);
    if (!size)
        throw Error(prefix + "the file is truncated or corrupt: its " + imageFormatName(format) +
                    " header is incomplete or states no image size");
    checkHeaderSize(prefix, size->width, size->height, limits);
    if (format == ImageFormat::Png)
        if (auto bomb = pngInflateProblem(bytes)) throw Error(prefix + *bomb);
    throwIfCancelled(limits, prefix);

    const auto w = static_cast<int>(size->width), h = static_cast<int>(size->height);
    int lw = 0, lh = 0, lc = 0;
    CancellableInput input{bytes, 0, limits.cancel};
    const stbi_io_callbacks callbacks{CancellableInput::read, CancellableInput::skip,
                                      CancellableInput::eof};
    std::unique_ptr<stbi_uc, StbFree> pixels(
        stbi_load_from_callbacks(&callbacks, &input, &lw, &lh, &lc, 4));
    throwIfCancelled(limits, prefix);
    if (!pixels) throw Error(prefix + explainStbFailure(format, stbi_failure_reason()));
    if (lw != w || lh != h) throw Error(prefix + "the header and the pixel data disagree");
    Rgba8Image image;
    image.width = lw;
    image.height = lh;
    image.pixels.assign(pixels.get(), pixels.get() + image.size().bytes());
    if (format == ImageFormat::Bmp && bmpFourthByteIsPadding(bytes))
        for (std::size_t i = 3; i < image.pixels.size(); i += 4)
            image.pixels[i] = 255;
    return image;
}

Rgba8Image loadImage(const std::string& path, const ImageLoadLimits& limits) {
    const std::uint64_t maxBytes = std::min<std::uint64_t>(limits.maxFileBytes, INT_MAX);
    return loadImageFromMemory(readRegularFile(path, maxBytes, "cannot load image"), path, limits);
}

}  // namespace clviz
