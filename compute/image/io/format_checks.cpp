#include "compute/image/io/format_checks.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

namespace clviz {

namespace {

using Bytes = std::span<const std::uint8_t>;

// Readers that see bytes past the end as 0, as stb_image does.
unsigned u8(Bytes b, std::uint64_t at) {
    return at < b.size() ? b[at] : 0u;
}
std::uint32_t u16le(Bytes b, std::uint64_t at) {
    return u8(b, at) | (u8(b, at + 1) << 8);
}
std::uint32_t u32le(Bytes b, std::uint64_t at) {
    return u16le(b, at) | (u16le(b, at + 2) << 16);
}
std::uint32_t u16be(Bytes b, std::uint64_t at) {
    return (u8(b, at) << 8) | u8(b, at + 1);
}
std::uint32_t u32be(Bytes b, std::uint64_t at) {
    return (u16be(b, at) << 16) | u16be(b, at + 2);
}

bool startsWith(Bytes b, const char* magic) {
    const std::size_t n = std::strlen(magic);
    return b.size() >= n && std::memcmp(b.data(), magic, n) == 0;
}

std::string truncated(const char* format, std::uint64_t needed, std::size_t present,
                      const std::string& what) {
    return std::string("the file is truncated: its ") + format + " " + what + " needs " +
           std::to_string(needed) + " bytes, the file has " + std::to_string(present);
}

// stb_image's TGA test, so that only what stb would take for a TGA is called one.
bool looksLikeTga(Bytes b) {
    if (b.size() < 18) return false;
    const unsigned colorMap = b[1], type = b[2];
    if (colorMap > 1) return false;
    if (colorMap == 1) {
        if (type != 1 && type != 9) return false;
        const unsigned palBits = b[7];
        if (palBits != 8 && palBits != 15 && palBits != 16 && palBits != 24 && palBits != 32)
            return false;
    } else if (type != 2 && type != 3 && type != 10 && type != 11) {
        return false;
    }
    if (u16le(b, 12) < 1 || u16le(b, 14) < 1) return false;
    const unsigned bpp = b[16];
    if (colorMap == 1 && bpp != 8 && bpp != 16) return false;
    return bpp == 8 || bpp == 15 || bpp == 16 || bpp == 24 || bpp == 32;
}

// ---- PNG: every chunk fits in the file, and IEND is there --------------------------------
// Debian's stb_image grows its IDAT buffer to the length a chunk declares before reading it, so
// a 700-byte file declaring a 1 GiB chunk makes it allocate 2 GiB (found by tests/fuzz).
std::optional<std::string> pngProblem(Bytes b) {
    std::size_t at = 8;
    while (at + 8 <= b.size()) {
        const std::uint64_t length = u32be(b, at);
        const std::string type(reinterpret_cast<const char*>(&b[at + 4]), 4);
        if (12 + length > b.size() - at)
            return "the file is corrupt or truncated (PNG chunk " + type + " declares " +
                   std::to_string(length) + " data bytes: with its length, type and CRC it needs " +
                   std::to_string(12 + length) + ", but the file ends " +
                   std::to_string(b.size() - at) + " bytes after the chunk's start)";
        if (type == "IEND") return std::nullopt;
        at += 12 + length;
    }
    return std::string("the file is truncated: the PNG ends after ") + std::to_string(b.size()) +
           " bytes without its IEND chunk";
}

// ---- JPEG: sane Huffman tables, and an end-of-image marker after the scans ---------------
// Debian's stb_image trusts the code counts of a Huffman table (DHT): counts summing past 256
// make stbi__build_huffman write past its arrays (fixed upstream later; found by tests/fuzz).
// A scan that uses a Huffman table no DHT defined makes stb's decoder index past its tables
// (stbi__jpeg_huff_decode reads values[2275]: found by tests/fuzz; fixed upstream later).
// The segments are walked the way stb walks them. A file cut anywhere loses its EOI marker
// (0xFFD9); stb would decode the missing part as grey.
std::optional<std::string> jpegProblem(Bytes b) {
    bool defined[2][4] = {};  // [DC, AC][table]
    bool progressive = false;
    // The tables a scan (SOS at i) decodes with must exist; which ones depends on the scan kind.
    auto scanTablesProblem = [&](std::size_t i) -> std::optional<std::string> {
        const unsigned components = u8(b, i + 4);
        const std::size_t after = i + 5 + 2 * components;  // Ss, Se, Ah/Al
        const bool dcScan = !progressive || u8(b, after) == 0;
        const bool usesDc = dcScan && (!progressive || (u8(b, after + 2) >> 4) == 0);
        const bool usesAc = !progressive || !dcScan;
        for (unsigned c = 0; c < components; ++c) {
            const unsigned tables = u8(b, i + 6 + 2 * c);
            if ((usesDc && (tables >> 4) < 4 && !defined[0][tables >> 4]) ||
                (usesAc && (tables & 15) < 4 && !defined[1][tables & 15]))
                return std::string(
                    "the file is corrupt: a JPEG scan uses a Huffman table the "
                    "file never defines");
        }
        return std::nullopt;
    };
    std::size_t i = 0;
    while (i < b.size() && b[i] == 0xFF)  // stb accepts fill bytes before SOI
        ++i;
    ++i;  // SOI (sniffImageFormat checked it)
    bool sawScan = false;
    std::uint64_t scans = 0;
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
        if (m == 0xD9) {
            if (sawScan) return std::nullopt;
            return std::string("the file is corrupt: the JPEG ends before any image data");
        }
        const std::size_t length = u16be(b, i + 2);
        if (m == 0xC2) progressive = true;
        if (m == 0xDA) {
            sawScan = true;
            if (auto bad = scanTablesProblem(i)) return bad;
            if (++scans > kMaxJpegScans)
                return "the JPEG has more than " + std::to_string(kMaxJpegScans) +
                       " scans (a scan bomb: stb decodes every scan over the whole image; "
                       "real progressive files have about 10)";
        }
        if (m == 0xC4) {
            // stb's DHT loop, with its own idea of the segment length.
            long remaining = static_cast<long>(length) - 2;
            std::size_t p = i + 4;
            while (remaining > 0) {
                const unsigned kind = u8(b, p) >> 4, table = u8(b, p) & 15;
                if (kind < 2 && table < 4) defined[kind][table] = true;
                unsigned codes = 0;
                for (int k = 0; k < 16; ++k)
                    codes += u8(b, p + 1 + k);
                if (codes > 256)
                    return "the file is corrupt (a JPEG Huffman table declares " +
                           std::to_string(codes) + " codes; at most 256 are possible)";
                p += 17 + codes;
                remaining -= 17 + static_cast<long>(codes);
            }
        }
        i += 2 + length;
    }
    return std::string("the file is truncated: the JPEG ends after ") + std::to_string(b.size()) +
           " bytes without its end-of-image marker" +
           (sawScan ? "" : " (and before its image data)");
}

// ---- GIF: the blocks up to and including the first image's data ---------------------------
std::optional<std::string> gifProblem(Bytes b) {
    if (b.size() < 13) return truncated("GIF", 13, b.size(), "header");
    auto colorTable = [](unsigned flags) -> std::uint64_t {
        return flags & 0x80 ? 3u << ((flags & 7) + 1) : 0;
    };
    std::uint64_t p = 13 + colorTable(b[10]);
    // Data sub-blocks: a length byte and that many bytes, until a zero length.
    auto skipSubBlocks = [&](const char* what) -> std::optional<std::string> {
        for (;;) {
            if (p >= b.size())
                return std::string("the file is truncated: the GIF ends inside ") + what;
            const unsigned n = b[p];
            p += 1 + n;
            if (n == 0) return std::nullopt;
        }
    };
    for (;;) {
        if (p >= b.size())
            return std::string("the file is truncated: the GIF ends before its image");
        const unsigned tag = b[p];
        if (tag == 0x21) {  // extension: label, then sub-blocks
            p += 2;
            if (auto bad = skipSubBlocks("an extension block")) return bad;
        } else if (tag == 0x2C) {  // image descriptor, local colour table, LZW code size, data
            if (p + 10 > b.size()) return truncated("GIF", p + 10, b.size(), "image descriptor");
            p += 10 + colorTable(b[p + 9]);
            if (p >= b.size())
                return std::string(
                    "the file is truncated: the GIF ends before its first image's "
                    "LZW code size");
            // stb gives up on a code size over 12 without a reason (codes are 12 bits at most).
            if (b[p] > 12)
                return "the file is corrupt: the GIF's first image has an LZW minimum code size "
                       "of " +
                       std::to_string(b[p]) + " (GIF allows 2 to 8; codes never exceed 12 bits)";
            p += 1;
            return skipSubBlocks("the first image's pixel data");
        } else {
            return std::nullopt;  // trailer or junk: stb says what is wrong
        }
    }
}

// ---- BMP: uncompressed rows after the pixel-data offset ------------------------------------
std::optional<std::string> bmpProblem(Bytes b) {
    if (b.size() < 30) return truncated("BMP", 30, b.size(), "header");
    const std::uint64_t headerSize = u32le(b, 14);
    std::uint64_t width = 0, height = 0, bpp = 0, compression = 0;
    if (headerSize == 12) {
        width = u16le(b, 18), height = u16le(b, 20), bpp = u16le(b, 24);
    } else if (headerSize == 40 || headerSize == 56 || headerSize == 108 || headerSize == 124) {
        const auto h = static_cast<std::int32_t>(u32le(b, 22));
        const auto w = static_cast<std::int32_t>(u32le(b, 18));
        if (w < 0)  // only the height's sign means something (top-down rows)
            return "the file is corrupt: its BMP header states a negative width (" +
                   std::to_string(w) + "); BMP widths are positive";
        width = w > 0 ? u32le(b, 18) : 0;
        height = h == INT32_MIN ? 0 : static_cast<std::uint64_t>(h < 0 ? -std::int64_t{h} : h);
        bpp = u16le(b, 28), compression = u32le(b, 30);
        // Valid variants stb_image does not read, refused by name rather than as "corrupt".
        if (compression == 1 || compression == 2)
            return std::string("run-length BMP (") + (compression == 1 ? "RLE8" : "RLE4") +
                   ") is not read; clviz reads uncompressed and bitfield BMPs";
        if (compression == 4 || compression == 5)
            return std::string("BMP holding a ") + (compression == 4 ? "JPEG" : "PNG") +
                   " is not read; clviz reads uncompressed and bitfield BMPs";
    } else {
        return std::nullopt;  // stb refuses it with its own reason
    }
    if (width == 0 || height == 0 || bpp == 0 || (compression != 0 && compression != 3))
        return std::nullopt;  // zero size or RLE: refused later or by stb
    const std::uint64_t start = std::max<std::uint64_t>(u32le(b, 10), 14 + headerSize);
    // Rows are padded to 4 bytes; the last row's padding may be missing.
    const std::uint64_t row = (width * bpp + 7) / 8, stride = (width * bpp + 31) / 32 * 4;
    const std::uint64_t needed = start + stride * (height - 1) + row;
    if (needed > b.size()) return truncated("BMP", needed, b.size(), "pixel data");
    return std::nullopt;
}

// ---- TGA: colour map, then raw pixels or run-length packets --------------------------------
std::optional<std::string> tgaProblem(Bytes b) {
    const std::uint64_t width = u16le(b, 12), height = u16le(b, 14), pixels = width * height;
    const std::uint64_t pixelBytes = (b[16] + 7u) / 8;
    // Valid variants stb_image decodes wrongly, refused by name: it ignores the right-to-left
    // bit (the picture comes out mirrored) and a 16-bit pixel's alpha bit (all shown opaque).
    if (b[17] & 16)
        return "TGA with right-to-left rows is not read; clviz reads left-to-right TGAs";
    if ((b[2] & 7) == 2 && (b[16] == 15 || b[16] == 16) && (b[17] & 15))
        return "16-bit TGA with an alpha bit is not read; clviz reads 16-bit TGAs without alpha";
    std::uint64_t p = 18 + b[0];
    if (b[1]) p += u16le(b, 3) + u16le(b, 5) * ((b[7] + 7u) / 8);  // stb skips "first entry"
    if (b[2] < 8) {
        const std::uint64_t needed = p + pixels * pixelBytes;
        if (needed > b.size()) return truncated("TGA", needed, b.size(), "pixel data");
        return std::nullopt;
    }
    // Every packet takes at least one byte, so this walk ends within the file.
    for (std::uint64_t done = 0; done < pixels;) {
        if (p >= b.size())
            return "the file is truncated: its TGA run-length data ends after " +
                   std::to_string(done) + " of " + std::to_string(pixels) + " pixels";
        const unsigned packet = b[p++];
        const std::uint64_t count = 1 + (packet & 127);
        p += (packet & 128 ? 1 : count) * pixelBytes;
        done += count;
        if (p > b.size()) return truncated("TGA", p, b.size(), "run-length packet");
    }
    return std::nullopt;
}

// ---- PSD: three length-prefixed sections, then raw or PackBits channel data ---------------
std::optional<std::string> psdProblem(Bytes b) {
    if (b.size() < 26) return truncated("PSD", 26, b.size(), "header");
    const std::uint64_t channels = u16be(b, 12), height = u32be(b, 14), width = u32be(b, 18),
                        depth = u16be(b, 22), mode = u16be(b, 24);
    // Variants stb_image does not read, refused by name rather than as "corrupt".
    if (depth != 8 && depth != 16)
        return "PSD with " + std::to_string(depth) +
               "-bit channels is not read; clviz reads 8- and 16-bit PSDs";
    if (mode != 3) {
        const char* names[] = {"bitmap", "greyscale", "indexed",      "RGB",     "CMYK",
                               nullptr,  nullptr,     "multichannel", "duotone", "Lab"};
        const std::string name = mode < 10 && names[mode] ? names[mode] : std::to_string(mode);
        return "PSD colour mode " + name + " is not read; clviz reads RGB PSDs";
    }
    if (channels == 0 || channels > 16 || height == 0 || width == 0 ||
        (depth != 8 && depth != 16) || height > (1u << 24) || width > (1u << 24))
        return std::nullopt;  // stb refuses these itself
    std::uint64_t p = 26;
    for (int section = 0; section < 3; ++section) {  // colour mode, resources, layers
        if (p + 4 > b.size()) return truncated("PSD", p + 4, b.size(), "section lengths");
        p += 4 + u32be(b, p);
    }
    if (p + 2 > b.size()) return truncated("PSD", p + 2, b.size(), "compression field");
    const unsigned compression = u16be(b, p);
    p += 2;
    const std::uint64_t pixels = width * height, used = std::min<std::uint64_t>(channels, 4);
    if (compression == 0) {
        const std::uint64_t needed = p + used * pixels * (depth / 8);
        if (needed > b.size()) return truncated("PSD", needed, b.size(), "pixel data");
        return std::nullopt;
    }
    if (compression != 1) return std::nullopt;  // stb refuses it
    p += height * channels * 2;                 // per-row byte counts, which stb skips
    for (std::uint64_t c = 0; c < used; ++c) {
        // Every packet takes at least one byte, so this walk ends within the file.
        for (std::uint64_t done = 0; done < pixels;) {
            if (p >= b.size())
                return "the file is truncated: its PSD run-length data ends in channel " +
                       std::to_string(c + 1) + " after " + std::to_string(done) + " of " +
                       std::to_string(pixels) + " pixels";
            const unsigned n = b[p++];
            if (n == 128) continue;  // no-op
            const std::uint64_t count = n < 128 ? n + 1 : 257 - n;
            if (count > pixels - done) return std::nullopt;  // stb: "corrupt"
            p += n < 128 ? count : 1;
            done += count;
            if (p > b.size()) return truncated("PSD", p, b.size(), "run-length packet");
        }
    }
    return std::nullopt;
}

}  // namespace

ImageFormat sniffImageFormat(Bytes b) {
    if (startsWith(b, "\x89PNG\r\n\x1a\n")) return ImageFormat::Png;
    std::size_t i = 0;
    while (i < b.size() && b[i] == 0xFF)
        ++i;
    if (i > 0 && i < b.size() && b[i] == 0xD8) return ImageFormat::Jpeg;
    if (startsWith(b, "GIF87a") || startsWith(b, "GIF89a")) return ImageFormat::Gif;
    if (startsWith(b, "BM")) return ImageFormat::Bmp;
    if (startsWith(b, "8BPS")) return ImageFormat::Psd;
    if (startsWith(b, "#?RADIANCE\n") || startsWith(b, "#?RGBE\n")) return ImageFormat::Hdr;
    // Every PNM variant is recognised, so that those clviz does not read are refused by name.
    if (startsWith(b, "P5") || startsWith(b, "P6")) return ImageFormat::Pnm;
    if (b.size() >= 3 && b[0] == 'P' && std::strchr("12347", b[1]) && b[1] != 0 &&
        std::strchr(" \t\r\n#", b[2]) && b[2] != 0)
        return ImageFormat::Pnm;
    if (startsWith(b, "\x53\x80\xF6\x34") && b.size() >= 92 && std::memcmp(&b[88], "PICT", 4) == 0)
        return ImageFormat::Pic;
    if (looksLikeTga(b)) return ImageFormat::Tga;
    return ImageFormat::Unknown;
}

const char* imageFormatName(ImageFormat format) {
    switch (format) {
        case ImageFormat::Png:
            return "PNG";
        case ImageFormat::Jpeg:
            return "JPEG";
        case ImageFormat::Gif:
            return "GIF";
        case ImageFormat::Bmp:
            return "BMP";
        case ImageFormat::Tga:
            return "TGA";
        case ImageFormat::Psd:
            return "PSD";
        case ImageFormat::Hdr:
            return "Radiance HDR";
        case ImageFormat::Pnm:
            return "PNM";
        case ImageFormat::Pic:
            return "Softimage PIC";
        case ImageFormat::Unknown:
            break;
    }
    return "unknown";
}

namespace {

// Width and height from a JPEG's first frame header (SOF0..SOF15 but DHT, JPG, DAC).
std::optional<HeaderSize> jpegSize(Bytes b) {
    std::size_t i = 0;
    while (i < b.size() && b[i] == 0xFF)
        ++i;
    ++i;
    while (i + 1 < b.size()) {
        if (b[i] != 0xFF || b[i + 1] == 0xFF) {
            ++i;
            continue;
        }
        const unsigned m = b[i + 1];
        if (m == 0x00 || m == 0x01 || m == 0xD8 || (m >= 0xD0 && m <= 0xD7)) {
            i += 2;
            continue;
        }
        if (m == 0xD9 || m == 0xDA) return std::nullopt;  // no frame header before the scan
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (i + 9 > b.size()) return std::nullopt;
            return HeaderSize{u16be(b, i + 7), u16be(b, i + 5)};
        }
        i += 2 + u16be(b, i + 2);
    }
    return std::nullopt;
}

std::optional<HeaderSize> bmpSize(Bytes b) {
    if (b.size() < 26) return std::nullopt;
    const std::uint32_t headerSize = u32le(b, 14);
    if (headerSize == 12) return HeaderSize{u16le(b, 18), u16le(b, 20)};
    const auto w = static_cast<std::int32_t>(u32le(b, 18));
    const auto h = static_cast<std::int32_t>(u32le(b, 22));
    if (w <= 0 || h == 0 || h == INT32_MIN) return HeaderSize{0, 0};
    return HeaderSize{static_cast<std::uint64_t>(w),
                      static_cast<std::uint64_t>(h < 0 ? -std::int64_t{h} : h)};
}

}  // namespace

std::optional<HeaderSize> imageHeaderSize(ImageFormat format, Bytes b) {
    switch (format) {
        case ImageFormat::Png:
            if (b.size() < 24) return std::nullopt;
            return HeaderSize{u32be(b, 16), u32be(b, 20)};
        case ImageFormat::Jpeg:
            return jpegSize(b);
        case ImageFormat::Gif:
            if (b.size() < 10) return std::nullopt;
            return HeaderSize{u16le(b, 6), u16le(b, 8)};
        case ImageFormat::Bmp:
            return bmpSize(b);
        case ImageFormat::Tga:
            return HeaderSize{u16le(b, 12), u16le(b, 14)};
        case ImageFormat::Psd:
            if (b.size() < 22) return std::nullopt;
            return HeaderSize{u32be(b, 18), u32be(b, 14)};
        case ImageFormat::Pic:
            if (b.size() < 96) return std::nullopt;
            return HeaderSize{u16be(b, 92), u16be(b, 94)};
        default:
            return std::nullopt;
    }
}

std::optional<std::string> imageStructureProblem(ImageFormat format, Bytes bytes) {
    switch (format) {
        case ImageFormat::Png:
            return pngProblem(bytes);
        case ImageFormat::Jpeg:
            return jpegProblem(bytes);
        case ImageFormat::Gif:
            return gifProblem(bytes);
        case ImageFormat::Bmp:
            return bmpProblem(bytes);
        case ImageFormat::Tga:
            return tgaProblem(bytes);
        case ImageFormat::Psd:
            return psdProblem(bytes);
        default:
            return std::nullopt;
    }
}

// A BI_RGB 32-bit BMP's fourth byte is unused by the format (writers leave anything there);
// stb_image takes it for alpha when any pixel's is non-zero, so the caller makes it opaque.
bool bmpFourthByteIsPadding(Bytes b) {
    if (b.size() < 34) return false;
    const std::uint64_t headerSize = u32le(b, 14);
    return headerSize >= 40 && headerSize != 64 && u16le(b, 28) == 32 && u32le(b, 30) == 0;
}

}  // namespace clviz
