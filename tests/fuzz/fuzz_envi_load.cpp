// libFuzzer target for the ENVI reader: the input is a header's text, a NUL byte, then the data
// file's bytes. Any input must either decode to a cube of exactly the size its header states or
// raise clviz::Error; a decoded cube must survive the writer and decode again to the same values.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

#include "common/error.hpp"
#include "compute/spectral/io/envi_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
    const std::size_t headerSize = nul ? std::size_t(nul - data) : size;
    const std::string_view text(reinterpret_cast<const char*>(data), headerSize);
    const std::span<const std::uint8_t> file =
        nul ? std::span<const std::uint8_t>(nul + 1, size - headerSize - 1)
            : std::span<const std::uint8_t>();
    // Small limits keep each input fast and memory bounded; the checks are the same.
    clviz::EnviLimits limits;
    limits.maxHeaderBytes = 1u << 16;
    limits.maxEdge = 4096;
    limits.maxBands = 512;
    limits.maxValues = 1u << 20;
    limits.maxDataBytes = 8u << 20;
    try {
        const clviz::EnviHeader h = clviz::parseEnviHeader(text, "fuzz header", limits);
        if (h.shape.values() > limits.maxValues) std::abort();
        const clviz::Cube cube = clviz::decodeEnviData(h, file, "fuzz data");
        if (cube.data.size() != h.shape.values() * clviz::bytesPerValue(h.type)) std::abort();
        const std::vector<std::uint8_t> again = clviz::encodeEnviData(h, cube);
        if (again.size() != h.headerOffset + cube.data.size()) std::abort();
        // The data bytes the header describes come back exactly (the offset is written as zeros).
        if (std::memcmp(again.data() + h.headerOffset, file.data() + h.headerOffset,
                        cube.data.size()) != 0)
            std::abort();
        const std::string text2 = clviz::formatEnviHeader(h);
        const clviz::EnviHeader h2 = clviz::parseEnviHeader(text2, "fuzz rewritten", limits);
        if (!(h2.shape == h.shape) || h2.type != h.type || h2.interleave != h.interleave)
            std::abort();
    } catch (const clviz::Error&) {
        // Refused with a message: the expected outcome for most inputs.
    }
    return 0;
}
