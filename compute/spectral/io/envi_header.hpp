#pragma once
// The ENVI header (.hdr): an ASCII file that starts with "ENVI" and holds `key = value` lines;
// `{...}` values may run over several lines, a line starting with ';' is a comment, keys are
// matched in any case. The raw data lives in a separate file (io/envi_file.hpp finds it).
// Parsing is bounded: the header's size, the cube's dimensions, value count and byte count are
// checked against EnviLimits before anything is allocated, so a hostile header costs nothing.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compute/spectral/cube.hpp"

namespace clviz {

enum class Interleave { Bsq, Bil, Bip };
enum class ByteOrder { Little, Big };

const char* interleaveName(Interleave interleave);  // "bsq", "bil", "bip"

struct EnviLimits {
    std::uint64_t maxHeaderBytes = 1u << 20;  // a real header is a few KiB, band names included
    int maxEdge = 65536;                      // samples or lines
    int maxBands = 4096;                      // AVIRIS has 224, the widest sensors about 1000
    // 2^31 values: an AVIRIS flight line (614 x 1087 x 224) is 1.5e8; larger cubes are refused
    // from the header rather than after gigabytes of reading.
    std::uint64_t maxValues = 1ull << 31;
    std::uint64_t maxDataBytes = 4ull << 30;
    std::uint64_t maxHeaderOffset = 1ull << 30;
};

struct EnviHeader {
    CubeShape shape;
    CubeType type = CubeType::F32;
    Interleave interleave = Interleave::Bsq;
    ByteOrder byteOrder = ByteOrder::Little;
    std::uint64_t headerOffset = 0;  // bytes before the first value in the data file
    std::vector<double> wavelength;  // empty or one per band
    std::string wavelengthUnits;
    std::vector<double> fwhm;  // empty or one per band
    std::vector<int> bbl;      // bad band list: empty or one 0/1 per band (1 = good)
    std::vector<std::string> bandNames;
    std::optional<double> dataIgnoreValue;
    std::string description;
    // What the reader assumed because the header did not say (shown to the user), e.g.
    // "byte order missing: assumed 0 (little-endian)".
    std::vector<std::string> assumptions;
};

// Parses the header text. `name` starts every message ("ENVI header 'x.hdr': ..."). When the
// header has no `interleave`, `fallbackInterleave` is used (the reader passes the one the data
// file's extension names, as GDAL does, else BSQ) and an assumption is recorded. Throws
// clviz::Error naming the key and the problem.
EnviHeader parseEnviHeader(std::string_view text, const std::string& name,
                           const EnviLimits& limits = {},
                           std::optional<Interleave> fallbackInterleave = std::nullopt);

// The header text for `header` (every key it has; byte order always written).
std::string formatEnviHeader(const EnviHeader& header);

// The number of data bytes the header describes (not counting the header offset).
std::uint64_t enviDataBytes(const EnviHeader& header);

// The cube from a data file's bytes (`file` starts at the file's first byte, header offset
// included). Reorders to BSQ and swaps to host byte order. Throws when `file` is shorter than
// the header says, naming the bytes present, needed and missing and the first incomplete line.
Cube decodeEnviData(const EnviHeader& header, std::span<const std::uint8_t> file,
                    const std::string& name);

// The data file's bytes (header offset of zeros included) for `cube` in the header's
// interleave and byte order.
std::vector<std::uint8_t> encodeEnviData(const EnviHeader& header, const Cube& cube);

}  // namespace clviz
