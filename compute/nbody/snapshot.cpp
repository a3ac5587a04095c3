#include "compute/nbody/snapshot.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "compute/nbody/param_ranges.hpp"

namespace clviz {

namespace {

// ---- clviz format (docs/snapshot-format.md) -----------------------------------------------
constexpr unsigned char kMagic[8] = {'c', 'l', 'v', 'i', 'z', 'N', 'B', 0x1a};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kHeaderBytes = 64;
constexpr std::uint32_t kFieldPosMass = 1, kFieldVelocity = 2;
constexpr std::uint64_t kBodyBytes = 32;

std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

// Little-endian writers and readers, independent of the host's byte order.
void putU32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}
void putU64(std::vector<unsigned char>& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}
void putF32(std::vector<unsigned char>& out, float v) {
    putU32(out, std::bit_cast<std::uint32_t>(v));
}

std::uint32_t getU32(const unsigned char* p, bool bigEndian = false) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= std::uint32_t{p[bigEndian ? 3 - i : i]} << (8 * i);
    return v;
}
std::uint64_t getU64(const unsigned char* p, bool bigEndian = false) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= std::uint64_t{p[bigEndian ? 7 - i : i]} << (8 * i);
    return v;
}
float getF32(const unsigned char* p, bool bigEndian = false) {
    return std::bit_cast<float>(getU32(p, bigEndian));
}

std::vector<unsigned char> readFile(const std::string& path) {
    // The largest valid file: kMaxBodies gas particles (the biggest TIPSY record) plus a header.
    // Regular files only, refused from their size before reading (bounded_file.hpp).
    const auto bytes =
        readRegularFile(path, 64 + std::uint64_t{kMaxBodies} * 48, "cannot open snapshot");
    return std::vector<unsigned char>(bytes.begin(), bytes.end());
}

std::string count(std::uint64_t v) {
    return std::to_string(v);
}

// Values no simulation state can hold: the force kernels square distances and multiply masses in
// float (max 3.4e38), so beyond 1e18 the first step overflows; below 1e-30 (denormals included)
// a non-zero value is meaningless next to the softening. Byte-swapped or random data lands there
// (or on NaN, or a negative mass) almost surely; a valid state never does. The lower bound only
// applies to TIPSY, whose byte order is guessed: the clviz format is fixed little-endian with a
// checksum and round-trips any state clviz saved exactly, denormals included.
constexpr double kAbsurdlyLarge = 1e18, kAbsurdlySmall = 1e-30;

// Throws when a body or the header holds a non-finite or absurd value, naming the first one, so
// the file is blamed at load instead of the simulation blowing up later ("reduce dt").
void checkValues(const NbodySnapshot& s, const std::string& where, const std::string& hint,
                 bool guessedByteOrder) {
    auto bad = [&](const std::string& what) {
        return Error(where + " is corrupt: " + what + hint);
    };
    const double smallest = guessedByteOrder ? kAbsurdlySmall : 0;
    auto sane = [&](double v) {
        return v == 0 ||
               (std::isfinite(v) && std::abs(v) <= kAbsurdlyLarge && std::abs(v) >= smallest);
    };
    if (!std::isfinite(s.time) || std::abs(s.time) > kAbsurdlyLarge)
        throw bad("its time is " + std::to_string(s.time) +
                  " (not finite, or beyond 1e18 in magnitude)");
    // The header's dt and softening replace the running ones, so they are checked with the very
    // rows the settings use (param_ranges.hpp); 0 means "not recorded".
    for (const auto& [value, range] : {std::pair{s.dt, kDtRange}, {s.softening, kSofteningRange}})
        if (value != 0)
            if (auto problem = range.problem(value)) throw bad("its " + *problem);
    bool anyMass = false;
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const Body& b = s.bodies[i];
        const std::string body =
            "body " + std::to_string(i) + " of " + std::to_string(s.bodies.size()) + " has ";
        for (float v : {b.pos.x, b.pos.y, b.pos.z, b.vel.x, b.vel.y, b.vel.z, b.vel.w})
            if (!sane(v))
                throw bad(body + "a position or velocity of " + std::to_string(v) +
                          " (not finite, or outside 1e-30 to 1e18 in magnitude)");
        if (!sane(b.pos.w) || b.pos.w < 0)
            throw bad(body + "mass " + std::to_string(b.pos.w) +
                      " (masses are 0, or 1e-30 to 1e18)");
        anyMass = anyMass || b.pos.w > 0;
    }
    if (!anyMass) throw bad("every body has zero mass");
}

// ---- TIPSY --------------------------------------------------------------------------------
// Header: double time; int nbodies, ndim, nsph, ndark, nstar; int pad (32 bytes with the
// padding the cuda-samples reader gets from sizeof). Then gas, dark and star particles, all
// 4-byte fields: gas = mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi (48 bytes);
// dark = mass, pos[3], vel[3], eps, phi (36); star = mass, pos[3], vel[3], metals, tform, eps,
// phi (44). Only mass, position and velocity are kept.
constexpr std::size_t kTipsyHeader = 32;
constexpr std::size_t kGasBytes = 48, kDarkBytes = 36, kStarBytes = 44;

}  // namespace

std::vector<unsigned char> serializeClvizSnapshot(const NbodySnapshot& s) {
    if (s.bodies.empty()) throw Error("cannot save a snapshot with no bodies");
    if (s.bodies.size() > kMaxBodies)
        throw Error("cannot save " + count(s.bodies.size()) + " bodies (at most " +
                    count(kMaxBodies) + ")");
    std::vector<unsigned char> payload;
    payload.reserve(s.bodies.size() * kBodyBytes);
    for (const Body& b : s.bodies)
        for (float v : {b.pos.x, b.pos.y, b.pos.z, b.pos.w, b.vel.x, b.vel.y, b.vel.z, b.vel.w})
            putF32(payload, v);
    std::vector<unsigned char> out(kMagic, kMagic + 8);
    out.reserve(kHeaderBytes + payload.size());
    putU32(out, kVersion);
    putU32(out, kHeaderBytes);
    putU64(out, s.bodies.size());
    putU64(out, std::bit_cast<std::uint64_t>(s.time));
    putF32(out, s.dt);
    putF32(out, s.softening);
    putU32(out, kFieldPosMass | kFieldVelocity);
    putU32(out, 0);  // flags
    putU64(out, payload.size());
    putU64(out, fnv1a(payload.data(), payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

NbodySnapshot parseClvizSnapshot(const std::vector<unsigned char>& bytes, const std::string& name) {
    const std::string where = "snapshot " + quotedPath(name);
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0)
        throw Error(where + " is not a clviz N-body snapshot (wrong magic bytes)");
    if (bytes.size() < kHeaderBytes)
        throw Error(where + " is truncated: " + count(bytes.size()) +
                    " bytes, shorter than the 64-byte header");
    const unsigned char* h = bytes.data();
    const std::uint32_t version = getU32(h + 8);
    if (version == 0 || version > kVersion)
        throw Error(where + " has format version " + count(version) + "; this clviz reads up to " +
                    count(kVersion));
    const std::uint32_t headerBytes = getU32(h + 12);
    if (headerBytes < kHeaderBytes || headerBytes > bytes.size())
        throw Error(where + " has a corrupt header (header size " + count(headerBytes) + ")");
    const std::uint64_t n = getU64(h + 16);
    if (n == 0 || n > kMaxBodies)
        throw Error(where + " claims " + count(n) + " bodies; clviz accepts 1 to " +
                    count(kMaxBodies));
    const std::uint32_t fields = getU32(h + 40);
    if (fields != (kFieldPosMass | kFieldVelocity))
        throw Error(where + " has field set " + count(fields) +
                    "; expected positions+masses and velocities (3)");
    const std::uint64_t payloadBytes = getU64(h + 48);
    if (payloadBytes != n * kBodyBytes)
        throw Error(where + " has a corrupt header: payload size " + count(payloadBytes) +
                    " does not match " + count(n) + " bodies of 32 bytes");
    const std::uint64_t expected = headerBytes + payloadBytes;
    if (bytes.size() < expected)
        throw Error(where + " is truncated: " + count(bytes.size()) + " bytes, expected " +
                    count(expected) + " for " + count(n) + " bodies");
    if (bytes.size() > expected)
        throw Error(where + " has " + count(bytes.size() - expected) +
                    " unexpected bytes after its " + count(n) + " bodies");
    const unsigned char* p = bytes.data() + headerBytes;
    if (fnv1a(p, payloadBytes) != getU64(h + 56))
        throw Error(where + " is corrupt: the checksum of its body data does not match");

    NbodySnapshot s;
    s.format = "clviz";
    s.time = std::bit_cast<double>(getU64(h + 24));
    s.dt = getF32(h + 32);
    s.softening = getF32(h + 36);
    s.bodies.resize(n);
    for (Body& b : s.bodies) {
        float* f[8] = {&b.pos.x, &b.pos.y, &b.pos.z, &b.pos.w,
                       &b.vel.x, &b.vel.y, &b.vel.z, &b.vel.w};
        for (float* v : f) {
            *v = getF32(p);
            p += 4;
        }
    }
    checkValues(s, where, "", false);
    return s;
}

NbodySnapshot parseTipsy(const std::vector<unsigned char>& bytes, const std::string& name) {
    const std::string where = "TIPSY file " + quotedPath(name);
    if (bytes.size() < kTipsyHeader)
        throw Error(where + " is truncated: " + count(bytes.size()) +
                    " bytes, shorter than the 32-byte header");
    const unsigned char* h = bytes.data();
    // ndim is 3 (or 2) in every valid file; which byte order makes it so tells the endianness.
    bool big = false;
    const std::uint32_t ndimLe = getU32(h + 12), ndimBe = getU32(h + 12, true);
    if (ndimLe == 3 || ndimLe == 2)
        big = false;
    else if (ndimBe == 3 || ndimBe == 2)
        big = true;
    else
        throw Error(where + " is not a TIPSY file: ndim is neither 2 nor 3 in either byte order");
    const auto i32 = [&](std::size_t off) {
        return static_cast<std::int32_t>(getU32(h + off, big));
    };
    const std::int64_t nbodies = i32(8), nsph = i32(16), ndark = i32(20), nstar = i32(24);
    if (nsph < 0 || ndark < 0 || nstar < 0 || nbodies != nsph + ndark + nstar)
        throw Error(where + " has an inconsistent header: nbodies " + std::to_string(nbodies) +
                    " != gas " + std::to_string(nsph) + " + dark " + std::to_string(ndark) +
                    " + star " + std::to_string(nstar));
    if (nbodies < 1 || static_cast<std::uint64_t>(nbodies) > kMaxBodies)
        throw Error(where + " claims " + std::to_string(nbodies) + " bodies; clviz accepts 1 to " +
                    count(kMaxBodies));
    const std::uint64_t expected =
        kTipsyHeader + nsph * kGasBytes + ndark * kDarkBytes + nstar * kStarBytes;
    if (bytes.size() < expected)
        throw Error(where + " is truncated: " + count(bytes.size()) + " bytes, expected " +
                    count(expected) + " for " + std::to_string(nbodies) + " particles");
    if (bytes.size() > expected)
        throw Error(where + " has " + count(bytes.size() - expected) +
                    " unexpected bytes after its particles");

    NbodySnapshot s;
    s.format = big ? "tipsy-be" : "tipsy-le";
    s.time = std::bit_cast<double>(getU64(h, big));
    s.bodies.reserve(static_cast<std::size_t>(nbodies));
    const unsigned char* p = bytes.data() + kTipsyHeader;
    auto take = [&](std::int64_t count, std::size_t recordBytes) {
        for (std::int64_t i = 0; i < count; ++i, p += recordBytes) {
            Body b;
            b.pos = {getF32(p + 4, big), getF32(p + 8, big), getF32(p + 12, big), getF32(p, big)};
            b.vel = {getF32(p + 16, big), getF32(p + 20, big), getF32(p + 24, big), 0.0f};
            s.bodies.push_back(b);
        }
    };
    take(nsph, kGasBytes);
    take(ndark, kDarkBytes);
    take(nstar, kStarBytes);
    // A header in one byte order over particles in the other passes every size check.
    checkValues(s, where,
                big ? " (its header is big-endian: is the particle data little-endian?)" : "",
                true);
    return s;
}

void saveSnapshot(const std::string& path, const NbodySnapshot& snapshot) {
    const auto bytes = serializeClvizSnapshot(snapshot);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot open " + quotedPath(path) + " for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw Error("writing snapshot " + quotedPath(path) + " failed (disk full?)");
}

NbodySnapshot loadClvizSnapshot(const std::string& path) {
    return parseClvizSnapshot(readFile(path), path);
}

NbodySnapshot loadTipsy(const std::string& path) {
    return parseTipsy(readFile(path), path);
}

NbodySnapshot loadSnapshot(const std::string& path) {
    auto bytes = readFile(path);
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), kMagic, 8) == 0)
        return parseClvizSnapshot(bytes, path);
    if (bytes.empty()) throw Error("snapshot " + quotedPath(path) + " is empty");
    try {
        return parseTipsy(bytes, path);
    } catch (const Error& e) {
        throw Error(
            quotedPath(path) +
            " is neither a clviz snapshot (no magic bytes) nor a valid TIPSY file: " + e.what());
    }
}

}  // namespace clviz
