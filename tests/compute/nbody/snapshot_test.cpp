// Snapshots: the clviz format round trip, rejection of damaged files, and TIPSY files written
// here byte by byte in both byte orders (as the cuda-samples N-body demo reads them).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/snapshot.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::errorOf;

namespace {

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("clviz-nbody-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

void writeBytes(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
}

// A little TIPSY writer, independent of the loader: header then gas, dark, star records.
class TipsyWriter {
  public:
    explicit TipsyWriter(bool bigEndian) : big_(bigEndian) {}
    void u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            out.push_back(static_cast<unsigned char>(v >> (8 * (big_ ? 3 - i : i))));
    }
    void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
    void header(double time, int nsph, int ndark, int nstar) {
        const auto t = std::bit_cast<std::uint64_t>(time);
        for (int i = 0; i < 8; ++i)
            out.push_back(static_cast<unsigned char>(t >> (8 * (big_ ? 7 - i : i))));
        for (int v : {nsph + ndark + nstar, 3, nsph, ndark, nstar, 0})
            u32(static_cast<std::uint32_t>(v));
    }
    // mass, pos, vel, then `extra` more 4-byte fields (gas 5, dark 2, star 4).
    void particle(const Body& b, int extra) {
        for (float v : {b.pos.w, b.pos.x, b.pos.y, b.pos.z, b.vel.x, b.vel.y, b.vel.z})
            f32(v);
        for (int i = 0; i < extra; ++i)
            f32(0.125f * i);
    }
    std::vector<unsigned char> out;

  private:
    bool big_;
};

}  // namespace

TEST(NbodySnapshot, RoundTripIsBitExact) {
    NbodySnapshot s;
    s.bodies = makePreset(NbodyPreset::CollidingGalaxies, 1001, 3);
    s.bodies[5].vel.x = -0.0f;   // signed zero
    s.bodies[6].pos.y = 1e-40f;  // a denormal
    s.bodies[7].vel.w = 0.0f;
    s.time = 12.345678901234;
    s.dt = 0.005f;
    s.softening = 0.05f;
    const auto path = tempPath("roundtrip.nbody");
    saveSnapshot(path, s);
    const auto back = loadSnapshot(path);
    EXPECT_EQ(back.format, "clviz");
    ASSERT_EQ(back.bodies.size(), s.bodies.size());
    EXPECT_EQ(std::memcmp(back.bodies.data(), s.bodies.data(), s.bodies.size() * sizeof(Body)), 0);
    EXPECT_EQ(back.time, s.time);
    EXPECT_EQ(back.dt, s.dt);
    EXPECT_EQ(back.softening, s.softening);
    EXPECT_EQ(std::filesystem::file_size(path), 64u + 32u * 1001u);
    std::filesystem::remove(path);
}

TEST(NbodySnapshot, TruncatedFilesAreRejectedWithTheirSize) {
    NbodySnapshot s;
    s.bodies = makePreset(NbodyPreset::Plummer, 100, 1);
    const auto bytes = serializeClvizSnapshot(s);
    for (std::size_t keep :
         {std::size_t{0}, std::size_t{7}, std::size_t{40}, std::size_t{64}, bytes.size() - 1}) {
        const std::vector<unsigned char> cut(bytes.begin(), bytes.begin() + keep);
        const auto msg = errorOf([&] { parseClvizSnapshot(cut, "cut.nbody"); });
        EXPECT_FALSE(msg.empty()) << keep;
        if (keep >= 8) {
            EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
        }
        EXPECT_NE(msg.find("cut.nbody"), std::string::npos) << msg;
    }
    auto longer = bytes;
    longer.push_back(0);
    EXPECT_NE(errorOf([&] { parseClvizSnapshot(longer, "x"); }).find("unexpected bytes"),
              std::string::npos);
}

TEST(NbodySnapshot, CorruptAndGarbageFilesAreRejected) {
    NbodySnapshot s;
    s.bodies = makePreset(NbodyPreset::Shell, 10, 1);
    const auto good = serializeClvizSnapshot(s);

    auto flipped = good;
    flipped[64 + 13] ^= 0x40;  // one bit of body data
    EXPECT_NE(errorOf([&] { parseClvizSnapshot(flipped, "x"); }).find("checksum"),
              std::string::npos);

    auto absurd = good;
    for (int i = 16; i < 24; ++i)
        absurd[i] = 0xff;  // N = 2^64 - 1
    EXPECT_NE(errorOf([&] { parseClvizSnapshot(absurd, "x"); }).find("bodies"), std::string::npos);

    auto future = good;
    future[8] = 99;
    EXPECT_NE(errorOf([&] { parseClvizSnapshot(future, "x"); }).find("version 99"),
              std::string::npos);

    std::vector<unsigned char> garbage(5000);
    for (std::size_t i = 0; i < garbage.size(); ++i)
        garbage[i] = static_cast<unsigned char>(i * 131 + 7);
    const auto path = tempPath("garbage.bin");
    writeBytes(path, garbage);
    const auto msg = errorOf([&] { loadSnapshot(path); });
    EXPECT_NE(msg.find("neither a clviz snapshot"), std::string::npos) << msg;
    std::filesystem::remove(path);

    writeBytes(path, {});
    EXPECT_NE(errorOf([&] { loadSnapshot(path); }).find("empty"), std::string::npos);
    std::filesystem::remove(path);
    EXPECT_NE(errorOf([&] { loadSnapshot(path); }).find("cannot open"), std::string::npos);
    EXPECT_THROW(saveSnapshot(path, NbodySnapshot{}), Error);  // no bodies
}

TEST(NbodySnapshot, TipsyInBothByteOrders) {
    const auto bodies = makePreset(NbodyPreset::DiskGalaxy, 9, 2);
    for (bool big : {false, true}) {
        TipsyWriter w(big);
        w.header(1.5, 2, 4, 3);
        for (int i = 0; i < 9; ++i)
            w.particle(bodies[i], i < 2 ? 5 : i < 6 ? 2 : 4);
        const auto path = tempPath(big ? "be.tipsy" : "le.tipsy");
        writeBytes(path, w.out);
        const auto s = loadSnapshot(path);
        EXPECT_EQ(s.format, big ? "tipsy-be" : "tipsy-le");
        EXPECT_EQ(s.time, 1.5);
        ASSERT_EQ(s.bodies.size(), 9u);
        for (int i = 0; i < 9; ++i) {
            EXPECT_EQ(s.bodies[i].pos, bodies[i].pos) << i;
            EXPECT_EQ(s.bodies[i].vel.x, bodies[i].vel.x) << i;
            EXPECT_EQ(s.bodies[i].vel.z, bodies[i].vel.z) << i;
            EXPECT_EQ(s.bodies[i].vel.w, 0.0f);
        }
        // Truncated by one particle field.
        auto cut = w.out;
        cut.resize(cut.size() - 4);
        EXPECT_NE(errorOf([&] { parseTipsy(cut, "t"); }).find("truncated"), std::string::npos);
        std::filesystem::remove(path);
    }
}

TEST(NbodySnapshot, TipsyHeaderNonsenseIsRejected) {
    TipsyWriter w(false);
    w.header(0, 1, 1, 1);
    w.out[8] = 7;  // nbodies 7 != 1 + 1 + 1
    EXPECT_NE(errorOf([&] { parseTipsy(w.out, "t"); }).find("inconsistent"), std::string::npos);

    TipsyWriter huge(false);
    huge.header(0, 0, 0x7fffffff, 0);  // 2^31 - 1 dark particles: refused before any allocation
    EXPECT_NE(errorOf([&] { parseTipsy(huge.out, "t"); }).find("clviz accepts"), std::string::npos);

    TipsyWriter notTipsy(false);
    notTipsy.header(0, 0, 1, 0);
    notTipsy.out[12] = 9;  // ndim 9
    EXPECT_NE(errorOf([&] { parseTipsy(notTipsy.out, "t"); }).find("not a TIPSY file"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { parseTipsy({1, 2, 3}, "t"); }).find("truncated"), std::string::npos);
}

// Issue 10, item 7: non-finite or absurd values are blamed on the file at load, not later on dt.
TEST(NbodySnapshot, NonFiniteAndAbsurdValuesAreRefusedAtLoad) {
    NbodySnapshot good;
    good.bodies = makePreset(NbodyPreset::Plummer, 50, 4);
    good.dt = 0.01f;
    EXPECT_NO_THROW(parseClvizSnapshot(serializeClvizSnapshot(good), "ok"));
    auto refused = [&](auto edit, const char* expect) {
        NbodySnapshot s = good;
        edit(s);
        const std::string msg =
            errorOf([&] { parseClvizSnapshot(serializeClvizSnapshot(s), "bad.clviz"); });
        EXPECT_NE(msg.find("snapshot 'bad.clviz' is corrupt: "), std::string::npos) << msg;
        EXPECT_NE(msg.find(expect), std::string::npos) << msg;
    };
    refused([](NbodySnapshot& s) { s.bodies[7].pos.y = NAN; }, "body 7 of 50 has a position");
    refused([](NbodySnapshot& s) { s.bodies[3].vel.z = INFINITY; }, "body 3 of 50");
    refused([](NbodySnapshot& s) { s.bodies[9].pos.x = 3e25f; }, "outside 1e-30 to 1e18");
    refused([](NbodySnapshot& s) { s.bodies[1].pos.w = -2.0f; }, "body 1 of 50 has mass -2");
    refused([](NbodySnapshot& s) { s.dt = NAN; }, "dt");
    refused([](NbodySnapshot& s) { s.time = INFINITY; }, "its time");
    // Issue 28: dt = 1e30 loaded and turned every body NaN. The header's dt and softening are
    // checked with the settings' own rows (param_ranges.hpp), naming the field and the range.
    refused([](NbodySnapshot& s) { s.dt = 1e30f; },
            "its dt is 1e+30; the dt setting accepts 0 < X <= 10");
    refused([](NbodySnapshot& s) { s.dt = -0.5f; }, "its dt is -0.5");
    refused([](NbodySnapshot& s) { s.softening = 1e9f; },
            "its softening is 1e+09; the softening setting accepts 0 <= X <= 100");
    refused([](NbodySnapshot& s) { s.time = 1e300; }, "its time is");
    for (float edge : {10.0f, 1e-6f}) {  // inside the dt row: accepted, as --set dt= accepts it
        NbodySnapshot s = good;
        s.dt = edge;
        EXPECT_NO_THROW(parseClvizSnapshot(serializeClvizSnapshot(s), "ok")) << edge;
    }
    NbodySnapshot unknown = good;  // 0 = not recorded
    unknown.dt = unknown.softening = 0;
    EXPECT_NO_THROW(parseClvizSnapshot(serializeClvizSnapshot(unknown), "ok"));
    refused(
        [](NbodySnapshot& s) {
            for (Body& b : s.bodies)
                b.pos.w = 0;
        },
        "every body has zero mass");
}

TEST(NbodySnapshot, BigEndianHeaderOverLittleEndianDataIsRefused) {
    const auto bodies = makePreset(NbodyPreset::DiskGalaxy, 40, 2);
    TipsyWriter header(true), data(false);
    header.header(0.5, 0, 40, 0);
    for (const Body& b : bodies)
        data.particle(b, 2);
    std::vector<unsigned char> file = header.out;
    file.insert(file.end(), data.out.begin(), data.out.end());
    const std::string msg = errorOf([&] { parseTipsy(file, "mixed.tipsy"); });
    EXPECT_NE(msg.find("is corrupt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("header is big-endian: is the particle data little-endian?"),
              std::string::npos)
        << msg;
}

// Issue 10, item 2: special files are refused before reading, huge ones from their size.
TEST(NbodySnapshot, SpecialAndOversizedFilesAreRefusedBeforeReading) {
    const auto fifo = tempPath("pipe.clviz");
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(errorOf([&] { loadSnapshot(fifo); }).find("it is a FIFO"), std::string::npos);
    std::filesystem::remove(fifo);
    EXPECT_NE(errorOf([&] { loadSnapshot("/dev/zero"); }).find("character device"),
              std::string::npos);
    const auto sparse = tempPath("sparse.clviz");
    writeBytes(sparse, {1, 2, 3});
    std::filesystem::resize_file(sparse, 5ull << 30);
    EXPECT_NE(errorOf([&] { loadSnapshot(sparse); }).find("the limit is"), std::string::npos);
    std::filesystem::remove(sparse);
}

// The regression inputs kept for the fuzzer (tests/fuzz/regressions), with what must be said.
TEST(NbodySnapshot, RegressionFilesGetTheirMessages) {
    const auto dir =
        std::filesystem::path(CLVIZ_TEST_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
    const auto nan = errorOf([&] { loadSnapshot((dir / "snapshot_nan_body.clviz").string()); });
    EXPECT_NE(nan.find("is corrupt: body 1 of 2 has a position or velocity of nan"),
              std::string::npos)
        << nan;
    const auto mixed = errorOf(
        [&] { loadSnapshot((dir / "tipsy_big_endian_header_little_endian_data.tipsy").string()); });
    EXPECT_NE(mixed.find("is corrupt: body 0 of 2"), std::string::npos) << mixed;
    EXPECT_NE(mixed.find("is the particle data little-endian?"), std::string::npos) << mixed;
}
