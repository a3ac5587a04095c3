// libFuzzer target for the N-body snapshot parsers (clviz format and TIPSY, both byte orders):
// any bytes must parse to a state whose every value is finite and sane, or raise clviz::Error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/error.hpp"
#include "compute/nbody/snapshot.hpp"

namespace {

void check(const clviz::NbodySnapshot& s) {
    if (s.bodies.empty() || s.bodies.size() > clviz::kMaxBodies) std::abort();
    for (const clviz::Body& b : s.bodies)
        for (float v : {b.pos.x, b.pos.y, b.pos.z, b.pos.w, b.vel.x, b.vel.y, b.vel.z})
            if (!std::isfinite(v) || std::abs(v) > 1e18f) std::abort();  // the loader's promise
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<unsigned char> bytes(data, data + size);
    try {
        check(clviz::parseClvizSnapshot(bytes, "fuzz input"));
    } catch (const clviz::Error&) {
    }
    try {
        check(clviz::parseTipsy(bytes, "fuzz input"));
    } catch (const clviz::Error&) {
    }
    return 0;
}
