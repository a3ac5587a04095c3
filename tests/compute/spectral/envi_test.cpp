// ENVI reading and writing: every type x interleave x byte order round-trips through the writer;
// hand-made files (bytes laid out here, not by the writer) read to the right values; every
// refusal the issue names comes with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>

#include "common/error.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "tests/compute/spectral/test_support.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::errorOf;
using spectral_test::TempDir;
using spectral_test::writeBytes;
using spectral_test::writeText;

namespace {

const CubeType kTypes[] = {CubeType::U8,  CubeType::I16, CubeType::I32, CubeType::F32,
                           CubeType::F64, CubeType::U16, CubeType::U32};
const Interleave kInterleaves[] = {Interleave::Bsq, Interleave::Bil, Interleave::Bip};

// A cube whose every value says where it is, within the type's range (negative where signed).
Cube labelledCube(CubeShape shape, CubeType type) {
    Cube c = makeCube(shape, type);
    for (int b = 0; b < shape.bands; ++b)
        for (int l = 0; l < shape.lines; ++l)
            for (int s = 0; s < shape.samples; ++s) {
                double v = b * 100 + l * 10 + s;
                if (type == CubeType::I16 || type == CubeType::I32) v -= 250;
                if (type == CubeType::F32 || type == CubeType::F64) v = v * 0.37 - 11.125;
                if (type == CubeType::U32) v += 3e9;  // above INT32_MAX
                c.setValue(c.index(l, s, b), type == CubeType::U8 ? std::fmod(v, 256) : v);
            }
    return c;
}

std::string hdr(const std::string& body) {
    return "ENVI\n" + body;
}

}  // namespace

TEST(Envi, EveryTypeInterleaveAndByteOrderRoundTrips) {
    TempDir dir;
    const CubeShape shape{5, 3, 7};  // primes: no interleave can pass by symmetry
    int count = 0;
    for (CubeType type : kTypes)
        for (Interleave il : kInterleaves)
            for (ByteOrder order : {ByteOrder::Little, ByteOrder::Big})
                for (std::uint64_t offset : {0, 13}) {
                    SCOPED_TRACE(std::string(cubeTypeName(type)) + " " + interleaveName(il) +
                                 (order == ByteOrder::Big ? " big" : " little") + " offset " +
                                 std::to_string(offset));
                    const Cube cube = labelledCube(shape, type);
                    EnviHeader h;
                    h.interleave = il;
                    h.byteOrder = order;
                    h.headerOffset = offset;
                    h.wavelength = {400.5, 410, 420, 430, 440, 450, 460.125};
                    h.fwhm = {10, 10, 10, 10, 10, 10, 11};
                    h.bbl = {1, 1, 0, 1, 1, 1, 1};
                    h.bandNames = {"a", "b", "c", "d", "e", "f", "g"};
                    h.wavelengthUnits = "Nanometers";
                    h.dataIgnoreValue = -9999;
                    h.description = "round trip\nover two lines";
                    const std::string path = dir.file("c" + std::to_string(count++) + ".hdr");
                    const std::string data = writeEnvi(path, cube, h);
                    EXPECT_EQ(std::filesystem::file_size(data),
                              offset + shape.values() * bytesPerValue(type));
                    const EnviCube back = readEnvi(path);
                    EXPECT_EQ(back.dataPath, data);
                    EXPECT_EQ(back.cube.type, type);
                    EXPECT_EQ(back.cube.shape, shape);
                    EXPECT_EQ(back.cube.data, cube.data);
                    EXPECT_EQ(back.header.interleave, il);
                    EXPECT_EQ(back.header.byteOrder, order);
                    EXPECT_EQ(back.header.headerOffset, offset);
                    EXPECT_EQ(back.header.wavelength, h.wavelength);
                    EXPECT_EQ(back.header.fwhm, h.fwhm);
                    EXPECT_EQ(back.header.bbl, h.bbl);
                    EXPECT_EQ(back.header.bandNames, h.bandNames);
                    EXPECT_EQ(back.header.wavelengthUnits, "Nanometers");
                    EXPECT_EQ(back.header.dataIgnoreValue, -9999);
                    EXPECT_EQ(back.header.description, h.description);
                    EXPECT_TRUE(back.header.assumptions.empty());
                }
    EXPECT_EQ(count, 7 * 3 * 2 * 2);
}

// The writer and reader could agree on a wrong layout; these bytes are laid out by hand from the
// element-index formulas of the ENVI format.
TEST(Envi, HandMadeFilesReadToTheRightValues) {
    TempDir dir;
    const int S = 3, L = 2, B = 2;
    auto expected = [](int l, int s, int b) { return 1000 * b + 100 * l + s - 500; };
    for (Interleave il : kInterleaves)
        for (bool big : {false, true}) {
            std::vector<unsigned char> bytes(2 * S * L * B);
            for (int l = 0; l < L; ++l)
                for (int s = 0; s < S; ++s)
                    for (int b = 0; b < B; ++b) {
                        const int i = il == Interleave::Bsq   ? (b * L + l) * S + s
                                      : il == Interleave::Bil ? (l * B + b) * S + s
                                                              : (l * S + s) * B + b;
                        const auto v = static_cast<std::uint16_t>(std::int16_t(expected(l, s, b)));
                        bytes[2 * i + (big ? 1 : 0)] = v & 0xff;
                        bytes[2 * i + (big ? 0 : 1)] = v >> 8;
                    }
            const std::string base = dir.file(std::string(interleaveName(il)) + (big ? "b" : "l"));
            writeBytes(base + ".dat", bytes);
            writeText(base + ".hdr", hdr("samples = 3\nlines = 2\nbands = 2\ndata type = 2\n"
                                         "interleave = " +
                                         std::string(interleaveName(il)) +
                                         "\nbyte order = " + (big ? "1" : "0") + "\n"));
            const EnviCube c = readEnvi(base + ".hdr");
            for (int l = 0; l < L; ++l)
                for (int s = 0; s < S; ++s)
                    for (int b = 0; b < B; ++b)
                        EXPECT_EQ(c.cube.at(l, s, b), expected(l, s, b))
                            << interleaveName(il) << (big ? " big" : " little");
        }
}

TEST(Envi, HeaderSyntaxBracesCommentsAndCase) {
    const EnviHeader h = parseEnviHeader(hdr("; a comment line\n"
                                             "  SAMPLES =  4 \r\n"
                                             "Lines=2\n"
                                             "BANDS = 3\n"
                                             "Data   Type = 4\n"
                                             "Interleave = BIP\n"
                                             "wavelength = {\n 400,\n 500 , 600\n}\n"
                                             "band names = { red, green,\n blue }\n"
                                             "description = {a; b = c}\n"
                                             "byte order = 1\n"),
                                         "t");
    EXPECT_EQ(h.shape, (CubeShape{4, 2, 3}));
    EXPECT_EQ(h.type, CubeType::F32);
    EXPECT_EQ(h.interleave, Interleave::Bip);
    EXPECT_EQ(h.byteOrder, ByteOrder::Big);
    EXPECT_EQ(h.wavelength, (std::vector<double>{400, 500, 600}));
    EXPECT_EQ(h.bandNames, (std::vector<std::string>{"red", "green", "blue"}));
    EXPECT_EQ(h.description, "a; b = c");
}

TEST(Envi, MissingByteOrderAndInterleaveAreAssumedAndSaid) {
    const EnviHeader h = parseEnviHeader(hdr("samples = 1\nlines = 1\nbands = 1\ndata type = 2\n"),
                                         "t", {}, Interleave::Bil);
    EXPECT_EQ(h.byteOrder, ByteOrder::Little);
    EXPECT_EQ(h.interleave, Interleave::Bil);
    ASSERT_EQ(h.assumptions.size(), 2u);
    EXPECT_NE(h.assumptions[0].find("assumed bil (from the data file's extension)"),
              std::string::npos);
    EXPECT_NE(h.assumptions[1].find("byte order missing: assumed 0 (little-endian)"),
              std::string::npos);
}

TEST(Envi, InterleaveFallsBackToTheDataFileExtension) {
    TempDir dir;
    Cube c = labelledCube({3, 2, 2}, CubeType::U8);
    EnviHeader h;
    h.interleave = Interleave::Bip;
    writeEnvi(dir.file("x.hdr"), c, h, ".bip");
    writeText(dir.file("x.hdr"), hdr("samples = 3\nlines = 2\nbands = 2\ndata type = 1\n"));
    const EnviCube back = readEnvi(dir.file("x.hdr"));
    EXPECT_EQ(back.header.interleave, Interleave::Bip);
    EXPECT_EQ(back.cube.data, c.data);
}

TEST(Envi, DataFileIsFoundBesideTheHeader) {
    TempDir dir;
    const std::string header = hdr("samples = 2\nlines = 1\nbands = 1\ndata type = 1\n");
    for (const char* name : {"a", "a.img", "a.dat", "a.raw", "a.IMG"}) {
        SCOPED_TRACE(name);
        std::filesystem::remove_all(dir.file(""));
        std::filesystem::create_directories(dir.file(""));
        writeText(dir.file("a.hdr"), header);
        writeBytes(dir.file(name), {7, 9});
        EXPECT_EQ(readEnvi(dir.file("a.hdr")).dataPath, dir.file(name));
    }
    std::filesystem::remove(dir.file("a.IMG"));
    const std::string msg = errorOf([&] { readEnvi(dir.file("a.hdr")); });
    EXPECT_NE(msg.find("no data file beside it"), std::string::npos) << msg;
    EXPECT_NE(msg.find("a.img"), std::string::npos) << msg;
}

TEST(Envi, TruncatedDataIsRefusedSayingWhatIsMissing) {
    TempDir dir;
    writeText(dir.file("t.hdr"), hdr("samples = 10\nlines = 4\nbands = 3\ndata type = 2\n"
                                     "interleave = bil\nbyte order = 0\nheader offset = 6\n"));
    writeBytes(dir.file("t.img"), std::vector<unsigned char>(6 + 2 * 10 * 3 * 2 + 5));
    const std::string msg = errorOf([&] { readEnvi(dir.file("t.hdr")); });
    EXPECT_NE(msg.find("truncated: 131 bytes, the header needs 246"), std::string::npos) << msg;
    EXPECT_NE(msg.find("115 bytes missing, from line 2"), std::string::npos) << msg;
}

TEST(Envi, RefusalsComeFromTheHeader) {
    struct Case {
        const char* body;
        const char* message;
    };
    const std::string dims = "samples = 4\nlines = 4\nbands = 2\n";
    const Case cases[] = {
        {"data type = 6\n", "complex: not supported"},
        {"data type = 9\n", "complex: not supported"},
        {"data type = 14\n", "64-bit integer: not supported"},
        {"data type = 15\n", "64-bit integer: not supported"},
        {"data type = 7\n", "not an ENVI type"},
        {"data type = x\n", "not a whole number"},
        {"data type = 1\ninterleave = bsx\n", "not bsq, bil or bip"},
        {"data type = 1\nbyte order = 2\n", "'byte order' is 2, outside 0 to 1"},
        {"data type = 1\nwavelength = {1, 2, 3}\n", "'wavelength' lists 3 values for 2 bands"},
        {"data type = 1\nfwhm = {1, x}\n", "not a number"},
        {"data type = 1\nbbl = {1, 2}\n", "other than 0 and 1"},
        {"data type = 1\nwavelength = {1, 2\n", "never closes it"},
        {"data type = 1\nmajor frame offsets = {0, 4}\n", "padded frames"},
        {"data type = 1\nnonsense line\n", "has no '='"},
        {"data type = 1\nheader offset = -1\n", "outside 0"},
    };
    for (const Case& c : cases) {
        const std::string msg = errorOf([&] { parseEnviHeader(hdr(dims + c.body), "t"); });
        EXPECT_NE(msg.find(c.message), std::string::npos) << c.body << " -> " << msg;
    }
    EXPECT_NE(errorOf([] { parseEnviHeader("samples = 1\n", "t"); }).find("not 'ENVI'"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  parseEnviHeader(hdr("lines = 1\nbands = 1\ndata type = 1\n"), "t");
              }).find("no 'samples'"),
              std::string::npos);
    // Absurd dimensions: refused before anything is allocated.
    EXPECT_NE(errorOf([] {
                  parseEnviHeader(hdr("samples = 99999999\nlines = 1\nbands = 1\ndata type = 1\n"),
                                  "t");
              }).find("'samples' is 99999999, outside 1 to 65536"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  parseEnviHeader(
                      hdr("samples = 65536\nlines = 65536\nbands = 4096\ndata type = 1\n"), "t");
              }).find("more than the limit"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  parseEnviHeader(hdr("samples = 30000\nlines = 30000\nbands = 2\ndata type = 5\n"),
                                  "t");
              }).find("bytes of data, more than the limit"),
              std::string::npos);
}

TEST(Envi, HeaderBombIsRefusedFromItsSize) {
    TempDir dir;
    std::string big = hdr("samples = 1\nlines = 1\nbands = 1\ndata type = 1\ndescription = {");
    big += std::string(3u << 20, 'x');
    big += "}\n";
    writeText(dir.file("b.hdr"), big);
    writeBytes(dir.file("b.img"), {1});
    const std::string msg = errorOf([&] { readEnvi(dir.file("b.hdr")); });
    EXPECT_NE(msg.find("the limit is 1048576 bytes"), std::string::npos) << msg;
}

TEST(Envi, LongerDataFilesAreReadUpToTheHeadersSizeAndDirectoriesSkipped) {
    TempDir dir;
    writeText(dir.file("d.hdr"), hdr("samples = 2\nlines = 1\nbands = 1\ndata type = 1\n"));
    std::filesystem::create_directories(dir.file("d.img"));  // skipped: a directory
    writeBytes(dir.file("d.dat"), {1, 2, 3, 4, 5});          // trailing bytes are ignored
    const EnviCube c = readEnvi(dir.file("d.hdr"));
    EXPECT_EQ(c.dataPath, dir.file("d.dat"));
    EXPECT_EQ(c.cube.data, (std::vector<std::uint8_t>{1, 2}));
}

// Data files that are not regular files are refused before reading: a FIFO would block, a
// device like /dev/zero never ends.
TEST(Envi, DataFileThatIsNotARegularFileIsRefused) {
    TempDir dir;
    writeText(dir.file("f.hdr"), hdr("samples = 2\nlines = 1\nbands = 1\ndata type = 1\n"));
    ASSERT_EQ(::mkfifo(dir.file("f.img").c_str(), 0600), 0);
    std::string msg = errorOf([&] { readEnvi(dir.file("f.hdr")); });
    EXPECT_NE(msg.find("FIFO"), std::string::npos) << msg;
    writeText(dir.file("z.hdr"), hdr("samples = 2\nlines = 1\nbands = 1\ndata type = 1\n"));
    std::filesystem::create_symlink("/dev/zero", dir.file("z.img"));
    msg = errorOf([&] { readEnvi(dir.file("z.hdr")); });
    EXPECT_NE(msg.find("character device"), std::string::npos) << msg;
    // The header itself, too.
    ASSERT_EQ(::mkfifo(dir.file("p.hdr").c_str(), 0600), 0);
    msg = errorOf([&] { readEnvi(dir.file("p.hdr")); });
    EXPECT_NE(msg.find("FIFO"), std::string::npos) << msg;
}
