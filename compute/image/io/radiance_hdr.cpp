#include "compute/image/io/radiance_hdr.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

// One header line without its '\n'; false at the end of the bytes. Lines may be of any length
// (comments, long commands); only the first 4,096 characters are kept, which is more than any
// line clviz reads (FORMAT=, the size line) can hold.
bool nextLine(std::span<const std::uint8_t> b, std::size_t& at, std::string& line) {
    if (at >= b.size()) return false;
    line.clear();
    for (; at < b.size() && b[at] != '\n'; ++at)
        if (line.size() < 4096) line.push_back(static_cast<char>(b[at]));
    if (at >= b.size() || b[at] != '\n') return false;  // no newline: header cut short
    ++at;
    return true;
}

// A positive decimal, at most 8 digits (any valid size has fewer).
bool parseSize(const std::string& s, std::size_t& at, int& out) {
    std::size_t digits = 0;
    long v = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9' && digits < 9)
        v = v * 10 + (s[at++] - '0'), ++digits;
    if (digits == 0 || digits > 8 || v == 0) return false;
    out = static_cast<int>(v);
    return true;
}

void rgbeToFloat(const std::uint8_t* rgbe, float* out) {
    if (rgbe[3] == 0) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    const float f = std::ldexp(1.0f, int{rgbe[3]} - (128 + 8));
    out[0] = rgbe[0] * f, out[1] = rgbe[1] * f, out[2] = rgbe[2] * f;
}

}  // namespace

RadianceHeader parseRadianceHeader(std::span<const std::uint8_t> b) {
    std::size_t at = 0;
    std::string line;
    if (!nextLine(b, at, line) || (line != "#?RADIANCE" && line != "#?RGBE"))
        throw Error("not a Radiance HDR file (no #?RADIANCE line)");
    bool rgbe = false;
    for (;;) {
        if (!nextLine(b, at, line))
            throw Error("the file is truncated: the Radiance HDR header has no end");
        if (line.empty()) break;
        if (line == "FORMAT=32-bit_rle_rgbe") rgbe = true;
    }
    if (!rgbe) throw Error("unsupported Radiance HDR format (only FORMAT=32-bit_rle_rgbe is read)");
    if (!nextLine(b, at, line))
        throw Error("the file is truncated: the Radiance HDR file ends before its size line");
    RadianceHeader h;
    std::size_t p = 3;
    if (line.compare(0, 3, "-Y ") != 0 || !parseSize(line, p, h.height) ||
        line.compare(p, 4, " +X ") != 0 || !parseSize(line, p += 4, h.width) || p != line.size())
        throw Error("unsupported or corrupt Radiance HDR size line " +
                    quotedPath(line.substr(0, 40)) + " (clviz reads '-Y height +X width')");
    h.dataOffset = at;
    return h;
}

std::vector<float> decodeRadiancePixels(std::span<const std::uint8_t> b, const RadianceHeader& h) {
    const std::size_t w = static_cast<std::size_t>(h.width);
    std::vector<float> rgb(w * static_cast<std::size_t>(h.height) * 3);
    std::vector<std::uint8_t> scanline(w * 4);
    std::size_t at = h.dataOffset;
    auto cut = [&](int row) {
        return Error("the file is truncated: the Radiance HDR data ends in scanline " +
                     std::to_string(row + 1) + " of " + std::to_string(h.height));
    };
    for (int y = 0; y < h.height; ++y) {
        const bool rle = w >= 8 && w < 32768 && b.size() - at >= 4 && b[at] == 2 &&
                         b[at + 1] == 2 && (b[at + 2] & 0x80) == 0;
        if (!rle) {
            // Flat RGBE pixels, with Radiance's original run-length scheme: a pixel (1, 1, 1, n)
            // repeats the one before it n times, shifted left 8 bits more for each run that
            // directly follows another (Radiance's oldreadcolrs).
            int shift = 0;
            for (std::size_t x = 0; x < w;) {
                if (b.size() - at < 4) throw cut(y);
                const std::uint8_t* px = &b[at];
                at += 4;
                if (px[0] == 1 && px[1] == 1 && px[2] == 1) {
                    const std::uint64_t count = std::uint64_t{px[3]} << shift;
                    if (x == 0 || shift > 24 || count > w - x)
                        throw Error(
                            "the file is corrupt: an old-style run in Radiance HDR "
                            "scanline " +
                            std::to_string(y + 1) +
                            (x == 0 ? " has no pixel before it to repeat"
                                    : " runs past the end of the scanline"));
                    for (std::uint64_t k = 0; k < count; ++k, ++x)
                        std::copy_n(&scanline[4 * (x - 1)], 4, &scanline[4 * x]);
                    shift += 8;
                } else {
                    std::copy_n(px, 4, &scanline[4 * x]);
                    ++x;
                    shift = 0;
                }
            }
        } else {
            if (((std::size_t{b[at + 2]} << 8) | b[at + 3]) != w)
                throw Error("the file is corrupt: Radiance HDR scanline " + std::to_string(y + 1) +
                            " has the wrong length");
            at += 4;
            // Each component separately: runs (count > 128) and literal dumps (1..128).
            for (std::size_t c = 0; c < 4; ++c) {
                for (std::size_t x = 0; x < w;) {
                    if (at >= b.size()) throw cut(y);
                    unsigned count = b[at++];
                    const bool run = count > 128;
                    if (run) count -= 128;
                    if (count == 0 || count > w - x)
                        throw Error(
                            "the file is corrupt: bad run-length data in Radiance HDR "
                            "scanline " +
                            std::to_string(y + 1));
                    if (b.size() - at < (run ? 1 : count)) throw cut(y);
                    for (unsigned k = 0; k < count; ++k, ++x)
                        scanline[4 * x + c] = run ? b[at] : b[at + k];
                    at += run ? 1 : count;
                }
            }
        }
        for (std::size_t x = 0; x < w; ++x)
            rgbeToFloat(&scanline[4 * x], &rgb[3 * (y * w + x)]);
    }
    return rgb;
}

}  // namespace clviz
