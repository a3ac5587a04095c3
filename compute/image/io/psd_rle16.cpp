#include "compute/image/io/psd_rle16.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace clviz {

namespace {

using Bytes = std::span<const std::uint8_t>;

std::uint64_t be(Bytes b, std::uint64_t at, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
        v = v << 8 | (at + i < b.size() ? b[at + i] : 0u);
    return v;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> unpackPsd16Rle(Bytes b) {
    if (b.size() < 26 || be(b, 0, 4) != 0x38425053 || be(b, 4, 2) != 1 || be(b, 22, 2) != 16 ||
        be(b, 24, 2) != 3)
        return std::nullopt;
    const std::uint64_t channels = be(b, 12, 2), height = be(b, 14, 4), width = be(b, 18, 4);
    if (channels == 0 || channels > 16 || width == 0 || height == 0) return std::nullopt;
    std::uint64_t p = 26;
    for (int section = 0; section < 3; ++section) {  // colour mode, resources, layers
        if (p + 4 > b.size()) return std::nullopt;   // psdProblem reports the truncation
        p += 4 + be(b, p, 4);
    }
    if (p + 2 > b.size() || be(b, p, 2) != 1) return std::nullopt;
    p += 2 + height * channels * 2;  // the rows' byte counts: the packets say as much
    const std::uint64_t used = std::min<std::uint64_t>(channels, 4);
    const std::uint64_t channelBytes = width * height * 2;
    // The header-size check ran first, so this is at most 2^27 pixels x 4 channels x 2 bytes.
    std::vector<std::uint8_t> raw(b.begin(), b.begin() + 26);
    raw[12] = 0, raw[13] = static_cast<std::uint8_t>(used);
    raw.insert(raw.end(), 12, 0);   // three empty sections
    raw.insert(raw.end(), {0, 0});  // compression 0: raw
    const std::size_t start = raw.size();
    raw.resize(start + used * channelBytes);
    std::uint8_t* out = raw.data() + start;
    for (std::uint64_t c = 0; c < used; ++c) {
        // PackBits over the channel's bytes (rows back to back, as stb reads 8-bit data).
        for (std::uint64_t done = 0; done < channelBytes;) {
            if (p >= b.size())
                throw Error(
                    "the file is truncated: its 16-bit PSD run-length data ends in channel " +
                    std::to_string(c + 1) + " after " + std::to_string(done / 2) + " of " +
                    std::to_string(channelBytes / 2) + " samples");
            const unsigned n = b[p++];
            if (n == 128) continue;  // no-op
            const std::uint64_t count = n < 128 ? n + 1 : 257 - n;
            if (count > channelBytes - done)
                throw Error("the file is corrupt: a 16-bit PSD run-length packet in channel " +
                            std::to_string(c + 1) + " runs past the end of the channel");
            if ((n < 128 ? count : 1) > b.size() - p)
                throw Error(
                    "the file is truncated: its 16-bit PSD run-length data ends inside "
                    "a packet of channel " +
                    std::to_string(c + 1));
            if (n < 128)
                std::copy(b.begin() + p, b.begin() + p + count, out + done);
            else
                std::fill(out + done, out + done + count, b[p]);
            p += n < 128 ? count : 1;
            done += count;
        }
        out += channelBytes;
    }
    return raw;
}

}  // namespace clviz
