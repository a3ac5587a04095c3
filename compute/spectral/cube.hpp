#pragma once
// The spectral lab's cube: samples x lines pixels, each with `bands` values, held in memory band
// after band (BSQ) in the host's byte order. BSQ makes the cube a bands x pixels matrix (row b is
// band b's image, pixels in line order), the shape the covariances and the device take.
// Value (line l, sample s, band b) is element (b * lines + l) * samples + s.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clviz {

// The ENVI "data type" codes clviz reads and writes. Complex types (6, 9) and 64-bit integers
// (14, 15) are refused: MNF needs real values, and 64-bit integers do not fit a double exactly.
enum class CubeType : int { U8 = 1, I16 = 2, I32 = 3, F32 = 4, F64 = 5, U16 = 12, U32 = 13 };

std::size_t bytesPerValue(CubeType type);
const char* cubeTypeName(CubeType type);  // "u8", "i16", ... "f64"
bool isIntegerType(CubeType type);

struct CubeShape {
    int samples = 0;  // columns
    int lines = 0;    // rows
    int bands = 0;
    std::size_t pixels() const { return std::size_t(samples) * std::size_t(lines); }
    std::size_t values() const { return pixels() * std::size_t(bands); }
    friend bool operator==(const CubeShape&, const CubeShape&) = default;
};

// "614 x 1087 x 224" (samples x lines x bands).
std::string describeShape(const CubeShape& shape);
// "614x1087x224" (samples x lines x bands, each 1..65536), or nothing.
std::optional<CubeShape> parseCubeShape(std::string_view text);

struct Cube {
    CubeShape shape;
    CubeType type = CubeType::F32;
    std::vector<std::uint8_t> data;  // shape.values() * bytesPerValue(type) bytes, BSQ, host order

    std::size_t index(int line, int sample, int band) const {
        return (std::size_t(band) * shape.lines + line) * shape.samples + sample;
    }
    // Value `i` (BSQ element index) as a double, whatever the stored type (exact for all seven).
    double value(std::size_t i) const;
    double at(int line, int sample, int band) const { return value(index(line, sample, band)); }
    void setValue(std::size_t i, double v);  // converted to the stored type (C++ conversion)
    // Every value as double, BSQ: the bands x pixels matrix of the references.
    std::vector<double> toDouble() const;
};

// A cube of `shape` and `type` with every value zero.
Cube makeCube(const CubeShape& shape, CubeType type);

}  // namespace clviz
