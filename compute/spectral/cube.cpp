#include "compute/spectral/cube.hpp"

#include <cstring>

#include "common/parse.hpp"

namespace clviz {

namespace {

template <typename T>
T load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
void store(std::uint8_t* p, double v) {
    const T t = static_cast<T>(v);
    std::memcpy(p, &t, sizeof t);
}

}  // namespace

std::size_t bytesPerValue(CubeType type) {
    switch (type) {
        case CubeType::U8:
            return 1;
        case CubeType::I16:
        case CubeType::U16:
            return 2;
        case CubeType::I32:
        case CubeType::U32:
        case CubeType::F32:
            return 4;
        case CubeType::F64:
            return 8;
    }
    return 1;
}

const char* cubeTypeName(CubeType type) {
    switch (type) {
        case CubeType::U8:
            return "u8";
        case CubeType::I16:
            return "i16";
        case CubeType::U16:
            return "u16";
        case CubeType::I32:
            return "i32";
        case CubeType::U32:
            return "u32";
        case CubeType::F32:
            return "f32";
        case CubeType::F64:
            return "f64";
    }
    return "?";
}

bool isIntegerType(CubeType type) {
    return type != CubeType::F32 && type != CubeType::F64;
}

std::string describeShape(const CubeShape& s) {
    return std::to_string(s.samples) + " x " + std::to_string(s.lines) + " x " +
           std::to_string(s.bands);
}

std::optional<CubeShape> parseCubeShape(std::string_view text) {
    const std::vector<std::string> parts = splitList(text, 'x');
    if (parts.size() != 3) return std::nullopt;
    long long v[3];
    for (int i = 0; i < 3; ++i) {
        const auto n = parseInteger(parts[i]);
        if (!n || *n < 1 || *n > 65536) return std::nullopt;
        v[i] = *n;
    }
    return CubeShape{int(v[0]), int(v[1]), int(v[2])};
}

double Cube::value(std::size_t i) const {
    const std::uint8_t* p = data.data() + i * bytesPerValue(type);
    switch (type) {
        case CubeType::U8:
            return *p;
        case CubeType::I16:
            return load<std::int16_t>(p);
        case CubeType::U16:
            return load<std::uint16_t>(p);
        case CubeType::I32:
            return load<std::int32_t>(p);
        case CubeType::U32:
            return load<std::uint32_t>(p);
        case CubeType::F32:
            return load<float>(p);
        case CubeType::F64:
            return load<double>(p);
    }
    return 0;
}

void Cube::setValue(std::size_t i, double v) {
    std::uint8_t* p = data.data() + i * bytesPerValue(type);
    switch (type) {
        case CubeType::U8:
            store<std::uint8_t>(p, v);
            break;
        case CubeType::I16:
            store<std::int16_t>(p, v);
            break;
        case CubeType::U16:
            store<std::uint16_t>(p, v);
            break;
        case CubeType::I32:
            store<std::int32_t>(p, v);
            break;
        case CubeType::U32:
            store<std::uint32_t>(p, v);
            break;
        case CubeType::F32:
            store<float>(p, v);
            break;
        case CubeType::F64:
            store<double>(p, v);
            break;
    }
}

std::vector<double> Cube::toDouble() const {
    std::vector<double> out(shape.values());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = value(i);
    return out;
}

Cube makeCube(const CubeShape& shape, CubeType type) {
    Cube c;
    c.shape = shape;
    c.type = type;
    c.data.assign(shape.values() * bytesPerValue(type), 0);
    return c;
}

}  // namespace clviz
