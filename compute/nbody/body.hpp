#pragma once
// One body as the host sees it: the same bytes the device keeps in its two float4 buffers.
#include <cstddef>
#include <vector>

namespace clviz {

// Matches OpenCL's float4 (16 bytes, no padding), so a std::vector<Float4> copies straight into a
// cl::Buffer of float4.
struct Float4 {
    float x = 0, y = 0, z = 0, w = 0;
    bool operator==(const Float4&) const = default;
};
static_assert(sizeof(Float4) == 16);

struct Body {
    Float4 pos;  // x, y, z and mass in w (G = 1 units)
    Float4 vel;  // vx, vy, vz; w is unused and kept 0
    bool operator==(const Body&) const = default;
};
static_assert(sizeof(Body) == 32);

// Largest N any loader or the simulation accepts: 2^26 bodies (2 GiB of state in float).
inline constexpr std::size_t kMaxBodies = std::size_t{1} << 26;

}  // namespace clviz
