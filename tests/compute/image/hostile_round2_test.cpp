// Hostile image files, round 2 (issue 28): decompression and scan bombs under the size check, a
// 16-bit RLE PSD decoded as garbage, and messages that named the wrong reason. Every file is
// generated here (the bombs are a few MB written on the fly, never committed).
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <thread>

#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/io/png_inflate_budget.hpp"

// Debian's libstb.so exports stb_image_write's deflate, which its header keeps private.
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int len, int* outLen,
                                             int quality);

using namespace clviz;

namespace {

using Bytes = std::vector<std::uint8_t>;

// ---- writers -------------------------------------------------------------------------------

// Deflate's bit order: least significant bit first; Huffman codes most significant bit first.
struct DeflateBits {
    Bytes out;
    std::uint64_t acc = 0;
    int n = 0;
    void put(std::uint32_t v, int count) {
        acc |= std::uint64_t{v} << n;
        n += count;
        while (n >= 8)
            out.push_back(static_cast<std::uint8_t>(acc)), acc >>= 8, n -= 8;
    }
    void huff(std::uint32_t code, int count) {
        std::uint32_t r = 0;
        for (int i = 0; i < count; ++i)
            r |= ((code >> i) & 1u) << (count - 1 - i);
        put(r, count);
    }
    Bytes done() {
        if (n) out.push_back(static_cast<std::uint8_t>(acc));
        n = 0;
        return out;
    }
};

// A zlib stream that inflates to about `bytes` zeros: one fixed-Huffman block of a literal
// zero and then (length 258, distance 1) pairs, 13 bits each (a 1:159 bomb; zlib's best is
// about 1:1000, which only makes the file smaller).
Bytes zlibBomb(std::uint64_t bytes) {
    DeflateBits b;
    b.put(1, 1), b.put(1, 2);  // final block, fixed Huffman codes
    b.huff(0x30, 8);           // literal 0
    const std::uint64_t copies = (bytes - 1) / 258;
    for (std::uint64_t i = 0; i < copies; ++i)
        b.huff(0xC5, 8), b.huff(0, 5);  // length code 285 (258), distance code 0 (1)
    b.huff(0, 7);                       // end of block
    Bytes z = {0x78, 0x01};
    const Bytes body = b.done();
    z.insert(z.end(), body.begin(), body.end());
    const std::uint64_t total = 1 + copies * 258;  // Adler-32 of that many zeros
    const std::uint32_t adler = static_cast<std::uint32_t>((total % 65521) << 16 | 1);
    for (int s = 24; s >= 0; s -= 8)
        z.push_back(static_cast<std::uint8_t>(adler >> s));
    return z;
}

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

void putBe32(Bytes& b, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        b.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(Bytes& png, const char* type, const Bytes& data) {
    putBe32(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    putBe32(png, crc32(&png[start], png.size() - start));
}

Bytes pngFile(std::uint32_t w, std::uint32_t h, int depth, int colour, int interlace,
              const Bytes& zlibData) {
    Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    Bytes ihdr;
    putBe32(ihdr, w), putBe32(ihdr, h);
    ihdr.insert(ihdr.end(), {static_cast<std::uint8_t>(depth), static_cast<std::uint8_t>(colour), 0,
                             0, static_cast<std::uint8_t>(interlace)});
    chunk(png, "IHDR", ihdr);
    chunk(png, "IDAT", zlibData);
    chunk(png, "IEND", {});
    return png;
}

Bytes zlibOf(const Bytes& raw) {
    int len = 0;
    unsigned char* z = stbi_zlib_compress(const_cast<unsigned char*>(raw.data()),
                                          static_cast<int>(raw.size()), &len, 8);
    Bytes out(z, z + len);
    std::free(z);
    return out;
}

// A progressive greyscale JPEG of w x h (w/8 * h/8 must be 2^r, r <= 14): a DC scan of zero
// differences, then `acScans` AC scans, each one end-of-band run over every block (EOBr with
// zero extra bits). Every pixel decodes to 128.
Bytes progressiveJpeg(int w, int h, int acScans) {
    const int blocks = (w / 8) * (h / 8);
    int r = 0;
    while ((1 << r) < blocks)
        ++r;
    auto seg = [](Bytes& j, std::uint8_t marker, const Bytes& d) {
        j.insert(j.end(), {0xFF, marker, static_cast<std::uint8_t>((d.size() + 2) >> 8),
                           static_cast<std::uint8_t>(d.size() + 2)});
        j.insert(j.end(), d.begin(), d.end());
    };
    Bytes j = {0xFF, 0xD8};
    Bytes dqt(65, 1);
    dqt[0] = 0;
    seg(j, 0xDB, dqt);
    seg(j, 0xC2,
        {8, static_cast<std::uint8_t>(h >> 8), static_cast<std::uint8_t>(h),
         static_cast<std::uint8_t>(w >> 8), static_cast<std::uint8_t>(w), 1, 1, 0x11, 0});
    Bytes dht(18, 0);
    dht[1] = 1;         // one code of length 1
    seg(j, 0xC4, dht);  // DC table 0: category 0
    dht[0] = 0x10, dht[17] = static_cast<std::uint8_t>(r << 4);
    seg(j, 0xC4, dht);  // AC table 0: EOBr
    seg(j, 0xDA, {1, 1, 0x00, 0, 0, 0});
    j.insert(j.end(), static_cast<std::size_t>((blocks + 7) / 8), 0);  // one 0 bit per block
    for (int s = 0; s < acScans; ++s) {
        seg(j, 0xDA, {1, 1, 0x00, 1, 63, 0});
        j.insert(j.end(), static_cast<std::size_t>((1 + r + 7) / 8), 0);  // code 0, extra 0
    }
    j.insert(j.end(), {0xFF, 0xD9});
    return j;
}

// PackBits (runs of equal bytes, literal stretches otherwise), as Photoshop writes rows.
Bytes packBits(const std::uint8_t* p, std::size_t n) {
    Bytes out;
    for (std::size_t i = 0; i < n;) {
        std::size_t run = 1;
        while (i + run < n && run < 128 && p[i + run] == p[i])
            ++run;
        if (run >= 2) {
            out.push_back(static_cast<std::uint8_t>(257 - run));
            out.push_back(p[i]);
            i += run;
            continue;
        }
        std::size_t lit = 1;
        while (i + lit < n && lit < 128 && !(i + lit + 1 < n && p[i + lit] == p[i + lit + 1]))
            ++lit;
        out.push_back(static_cast<std::uint8_t>(lit - 1));
        out.insert(out.end(), p + i, p + i + lit);
        i += lit;
    }
    return out;
}

// A w x h RGB(A) PSD of 16-bit samples `sample(c, x, y)`, raw or PackBits per row.
Bytes psd16File(int w, int h, int channels, bool rle,
                const std::function<std::uint16_t(int, int, int)>& sample) {
    Bytes out = {'8', 'B', 'P', 'S', 0, 1, 0,
                 0,   0,   0,   0,   0, 0, static_cast<std::uint8_t>(channels)};
    putBe32(out, static_cast<std::uint32_t>(h)), putBe32(out, static_cast<std::uint32_t>(w));
    out.insert(out.end(), {0, 16, 0, 3});
    out.resize(out.size() + 12);  // three empty sections
    out.insert(out.end(), {0, static_cast<std::uint8_t>(rle ? 1 : 0)});
    std::vector<Bytes> rows;
    for (int c = 0; c < channels; ++c)
        for (int y = 0; y < h; ++y) {
            Bytes row;
            for (int x = 0; x < w; ++x) {
                const std::uint16_t v = sample(c, x, y);
                row.insert(row.end(),
                           {static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
            }
            rows.push_back(rle ? packBits(row.data(), row.size()) : row);
        }
    if (rle) {
        for (const Bytes& r : rows)
            out.insert(out.end(), {static_cast<std::uint8_t>(r.size() >> 8),
                                   static_cast<std::uint8_t>(r.size())});
    }
    for (const Bytes& r : rows)
        out.insert(out.end(), r.begin(), r.end());
    return out;
}

std::string refusal(const Bytes& file, const char* name = "x") {
    try {
        loadImageFromMemory(file, name);
    } catch (const Error& e) {
        return e.what();
    }
    return "(loaded)";
}

// Runs `work` in a child process and returns how far its peak resident memory (VmHWM) rose
// above its resident memory before the work, in bytes; -1 when the child failed.
long long childPeakRise(const std::function<void()>& work) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        auto kib = [](const char* field) {
            std::ifstream in("/proc/self/status");
            std::string line;
            while (std::getline(in, line))
                if (line.rfind(field, 0) == 0) return std::stoll(line.substr(std::strlen(field)));
            return -1LL;
        };
        // A forked child inherits its parent's peak; "5" resets it to the current size.
        std::ofstream("/proc/self/clear_refs") << "5";
        const long long before = kib("VmRSS:");
        try {
            work();
        } catch (...) {
        }
        const long long rise = (kib("VmHWM:") - before) * 1024;
        (void)!write(fds[1], &rise, sizeof rise);
        _exit(0);
    }
    close(fds[1]);
    long long rise = -1;
    if (read(fds[0], &rise, sizeof rise) != sizeof rise) rise = -1;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return rise;
}

}  // namespace

// Issue 28, 1: a 64 x 64 PNG whose IDAT inflates to 3 GiB loaded, peaking at 3.18 GB. Now the
// inflate stops at what the header implies (64 rows of 1 + 64 bytes) plus 64 KiB of slack.
TEST(HostileImagesRound2, PngDecompressionBombIsRefusedWithinItsHeadersBudget) {
    const Bytes bomb = pngFile(64, 64, 8, 0, 0, zlibBomb(std::uint64_t{1} << 30));  // 1 GiB
    ASSERT_LT(bomb.size(), 8u << 20);
    EXPECT_EQ(pngInflatedBytes(bomb), 64u * 65u);
    const std::string why = refusal(bomb, "bomb.png");
    EXPECT_NE(why.find("decompression bomb"), std::string::npos) << why;
    EXPECT_NE(why.find("implies 4160"), std::string::npos) << why;
    // image_limits.hpp's promise: peak about 3x the RGBA8 size (16 KiB here) plus the file.
    // Without the budget stb's buffer grows to 1 GiB.
    const long long rise = childPeakRise([&] { loadImageFromMemory(bomb, "bomb.png"); });
    ASSERT_GE(rise, 0);
    EXPECT_LT(rise, 3 * 64 * 64 * 4 + 2 * static_cast<long long>(bomb.size()) + (8 << 20))
        << "peak memory rose by " << rise << " bytes";
}

// image_limits.hpp's promise on valid files: the peak memory a load adds is about 3x the RGBA8
// size plus the file (PNG: stb's inflated rows, its output, clviz's copy). A progressive JPEG
// adds stb's 16-bit coefficients, 2 bytes a pixel per component: within 3x for this greyscale
// one; colour progressive files (not generated here) add 4 bytes a pixel more.
TEST(HostileImagesRound2, PeakMemoryOfValidLoadsIsWhatImageLimitsPromises) {
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer's redzones and quarantine add to every allocation: the resident memory
    // it reports is not the decoder's.
    GTEST_SKIP() << "peak memory is not measurable under AddressSanitizer";
#endif
    const int w = 2048, h = 512;  // 16384 blocks: one EOB14 run a scan
    const long long rgba8 = 4LL * w * h;
    Bytes raw;
    for (int y = 0; y < h; ++y) {
        raw.push_back(0);
        for (int x = 0; x < w * 4; ++x)
            raw.push_back(static_cast<std::uint8_t>((x * 7 + y * 13) ^ (x >> 3)));
    }
    const Bytes png = pngFile(w, h, 8, 6, 0, zlibOf(raw));
    raw = {};
    const long long pngRise = childPeakRise([&] { loadImageFromMemory(png, "big.png"); });
    EXPECT_LT(pngRise, 3 * rgba8 + static_cast<long long>(png.size())) << pngRise;
    const Bytes jpeg = progressiveJpeg(w, h, 10);
    const long long jpegRise = childPeakRise([&] { loadImageFromMemory(jpeg, "big.jpg"); });
    EXPECT_LT(jpegRise, 3 * rgba8 + static_cast<long long>(jpeg.size())) << jpegRise;
    std::printf("peak rise: PNG %.2fx RGBA8, progressive grey JPEG %.2fx RGBA8\n",
                static_cast<double>(pngRise) / rgba8, static_cast<double>(jpegRise) / rgba8);
}

// The budget is the exact size of valid data: every colour type, depth and both interlace
// methods, at awkward sizes, loads through it (the zlib stream here inflates to exactly the
// implied size, counted independently by walking each pixel's Adam7 pass).
TEST(HostileImagesRound2, PngBudgetAdmitsEveryValidLayout) {
    const int colours[][2] = {{0, 1}, {2, 3}, {3, 1}, {4, 2}, {6, 4}};
    for (const auto& [colour, channels] : colours)
        for (int depth : {1, 2, 4, 8, 16}) {
            if ((colour != 0 && colour != 3 && depth < 8) || (colour == 3 && depth == 16)) continue;
            for (auto [w, h] : {std::pair{1, 1}, {3, 5}, {13, 7}, {17, 2}})
                for (int interlace : {0, 1}) {
                    SCOPED_TRACE(::testing::Message()
                                 << "colour " << colour << " depth " << depth << " " << w << "x"
                                 << h << " interlace " << interlace);
                    // Bytes per pass, from the pixels themselves.
                    const int x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
                    const int dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
                    Bytes raw;
                    for (int p = 0; p < (interlace ? 7 : 1); ++p) {
                        int pw = 0, ph = 0;
                        for (int x = 0; x < w; ++x)
                            pw += interlace ? (x % dx[p] == x0[p]) : 1;
                        for (int y = 0; y < h; ++y)
                            ph += interlace ? (y % dy[p] == y0[p]) : 1;
                        if (pw == 0) continue;
                        const std::size_t rowBytes = (std::size_t(pw) * channels * depth + 7) / 8;
                        for (int y = 0; y < ph; ++y) {
                            raw.push_back(0);  // filter: none
                            for (std::size_t k = 0; k < rowBytes; ++k)
                                raw.push_back(colour == 3 ? 0
                                                          : static_cast<std::uint8_t>(k * 37 + y));
                        }
                    }
                    Bytes png = pngFile(w, h, depth, colour, interlace, zlibOf(raw));
                    if (colour == 3) {  // a one-entry palette before IDAT
                        Bytes withPlte(png.begin(), png.begin() + 33);
                        chunk(withPlte, "PLTE", {10, 20, 30});
                        withPlte.insert(withPlte.end(), png.begin() + 33, png.end());
                        png = withPlte;
                    }
                    EXPECT_EQ(pngInflatedBytes(png), raw.size());
                    EXPECT_NO_THROW(loadImageFromMemory(png, "valid.png"));
                }
        }
}

// A flat picture compresses past the 1032:1 bound check, so it is inflated once under the
// budget, and still loads.
TEST(HostileImagesRound2, HighlyCompressedValidPngStillLoads) {
    Bytes raw;
    for (int y = 0; y < 300; ++y) {
        raw.push_back(0);
        raw.insert(raw.end(), 300 * 3, 200);
    }
    const Bytes png = pngFile(300, 300, 8, 2, 0, zlibOf(raw));
    const Rgba8Image img = loadImageFromMemory(png, "flat.png");
    ASSERT_EQ(img.width, 300);
    EXPECT_EQ(img.pixels[0], 200);
    EXPECT_EQ(img.pixels.back(), 255);
}

// Issue 28, 2: 60,000 AC scans of a 16384 x 8192 progressive JPEG took 190 s. Scans are capped
// at kMaxJpegScans; a file at the cap still decodes (every pixel 128).
TEST(HostileImagesRound2, ProgressiveJpegScansAreCapped) {
    const Bytes atCap = progressiveJpeg(64, 32, static_cast<int>(kMaxJpegScans) - 1);
    const Rgba8Image img = loadImageFromMemory(atCap, "ok.jpg");
    ASSERT_EQ(img.width, 64);
    for (std::size_t i = 0; i < img.pixels.size(); i += 4)
        ASSERT_EQ(img.pixels[i], 128) << "pixel " << i / 4;
    const std::string why = refusal(progressiveJpeg(64, 32, 60000), "bomb.jpg");
    EXPECT_NE(why.find("more than 500 scans"), std::string::npos) << why;
}

// stb now reads through callbacks, where its format tests rewind only within its first 128-byte
// buffer:
// a JPEG with 300 fill bytes before its start-of-image marker still loads, as before.
TEST(HostileImagesRound2, JpegWithManyFillBytesBeforeSoiLoads) {
    const Bytes jpeg = progressiveJpeg(64, 32, 3);
    Bytes filled(300, 0xFF);
    filled.insert(filled.end(), jpeg.begin(), jpeg.end());
    EXPECT_EQ(loadImageFromMemory(filled, "filled.jpg").pixels,
              loadImageFromMemory(jpeg, "plain.jpg").pixels);
}

// The image lab's live open runs on a worker thread and can be cancelled: the load stops at
// stb's next read and says so.
TEST(HostileImagesRound2, LoadsCanBeCancelled) {
    std::atomic<bool> cancel{true};
    ImageLoadLimits limits;
    limits.cancel = &cancel;
    Bytes raw(65 * 64, 7);
    EXPECT_THROW(loadImageFromMemory(pngFile(64, 64, 8, 0, 0, zlibOf(raw)), "x.png", limits),
                 ImageLoadCancelled);
    // From another thread, during a long decode (a progressive JPEG at the scan cap): the load
    // stops early, well before the time the whole decode takes.
    const Bytes slow = progressiveJpeg(1024, 1024, static_cast<int>(kMaxJpegScans) - 1);
    auto seconds = [](auto f) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const double whole = seconds([&] { loadImageFromMemory(slow, "slow.jpg"); });
    cancel = false;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(whole / 10));
        cancel = true;
    });
    bool cancelled = false;
    const double stopped = seconds([&] {
        try {
            loadImageFromMemory(slow, "slow.jpg", limits);
        } catch (const ImageLoadCancelled&) {
            cancelled = true;
        }
    });
    canceller.join();
    EXPECT_TRUE(cancelled);
    EXPECT_LT(stopped, whole * 0.8) << "whole decode " << whole << " s";
}

// Issue 28, 3: a 16-bit RLE PSD decoded into garbage without an error. Now the RLE and the raw
// file of one picture decode to the same pixels, and those are the samples' high bytes
// (computed here, independently of any decoder); with alpha, stb's matte removal applies alike.
TEST(HostileImagesRound2, SixteenBitRlePsdMatchesRawAndTheSamples) {
    for (int channels : {3, 4}) {
        auto sample = [&](int c, int x, int y) -> std::uint16_t {
            if (c == 3) return x % 3 ? 65535 : static_cast<std::uint16_t>(40000 + 100 * y);
            if (x % 5 == 0) return 0x4242;  // flat stretches: PackBits runs
            return static_cast<std::uint16_t>((x * 977 + y * 131 * (c + 1)) % 65536);
        };
        const int w = 37, h = 11;
        const Bytes raw = psd16File(w, h, channels, false, sample);
        const Bytes rle = psd16File(w, h, channels, true, sample);
        const Rgba8Image a = loadImageFromMemory(raw, "raw.psd");
        const Rgba8Image b = loadImageFromMemory(rle, "rle.psd");
        EXPECT_EQ(a.pixels, b.pixels) << channels << " channels";
        for (int y = 0; y < h && channels == 3; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c)
                    ASSERT_EQ(b.pixels[4 * (y * w + x) + c], sample(c, x, y) >> 8)
                        << x << "," << y << " channel " << c;
        // A cut anywhere in the run-length data is refused as truncated.
        const Bytes cut(rle.begin(), rle.end() - 3);
        EXPECT_NE(refusal(cut).find("truncated"), std::string::npos) << refusal(cut);
    }
}

// Issue 28, 7: each message names the real reason.
TEST(HostileImagesRound2, MessagesNameTheRealReason) {
    // A PNG missing its last byte said "IEND declares 0 bytes, but only 0 remain".
    Bytes raw(65 * 64, 7);
    Bytes png = pngFile(64, 64, 8, 0, 0, zlibOf(raw));
    png.pop_back();
    EXPECT_NE(refusal(png).find("needs 12, but the file ends 11 bytes"), std::string::npos)
        << refusal(png);
    // A BMP with a negative width said "zero size (0 x 0)".
    Bytes bmp = {'B', 'M', 70, 0,    0,    0,    0,    0, 0, 0, 54, 0, 0, 0,  40,
                 0,   0,   0,  0xFE, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0,  1, 0, 24, 0};
    bmp.resize(70);
    EXPECT_NE(refusal(bmp).find("negative width (-2)"), std::string::npos) << refusal(bmp);
    // A GIF with LZW code size 13 said "no reason given".
    const Bytes gif = {'G', 'I', 'F', '8', '7', 'a', 4, 0, 4, 0, 0x80, 0,  0, 0, 0, 0, 255, 255,
                       255, ',', 0,   0,   0,   0,   4, 0, 4, 0, 0,    13, 2, 0, 0, 0, ';'};
    EXPECT_NE(refusal(gif).find("LZW minimum code size of 13"), std::string::npos) << refusal(gif);
    // P1-P4 and P7 said "unrecognized format (supported: ... PNM)".
    for (const char* pnm : {"P1\n1 1\n0\n", "P2\n1 1\n255\n0\n", "P3\n1 1\n255\n1 2 3\n",
                            "P4\n8 1\nU", "P7\nWIDTH 1\n"}) {
        const std::string why = refusal(Bytes(pnm, pnm + std::strlen(pnm)));
        EXPECT_NE(why.find(std::string("PNM ") + pnm[0] + pnm[1] + " ("), std::string::npos) << why;
        EXPECT_NE(why.find("reads the binary PNM variants P5"), std::string::npos) << why;
    }
}

// PSD variants stb_image does not read are refused by name (they were "corrupt or uses a
// feature stb_image does not read (stb_image: wrong color format)").
TEST(HostileImagesRound2, UnreadPsdVariantsAreRefusedByName) {
    auto sample = [](int, int x, int) { return static_cast<std::uint16_t>(x * 1000); };
    Bytes grey = psd16File(4, 2, 1, false, sample);
    grey[25] = 1;  // colour mode: greyscale
    EXPECT_NE(refusal(grey).find("PSD colour mode greyscale is not read; clviz reads RGB PSDs"),
              std::string::npos)
        << refusal(grey);
    Bytes cmyk = psd16File(4, 2, 4, true, sample);
    cmyk[25] = 4;
    EXPECT_NE(refusal(cmyk).find("PSD colour mode CMYK is not read"), std::string::npos)
        << refusal(cmyk);
    Bytes deep = psd16File(4, 2, 3, false, sample);
    deep[23] = 32;
    EXPECT_NE(refusal(deep).find("PSD with 32-bit channels is not read"), std::string::npos)
        << refusal(deep);
}

// A header line over 4,096 characters (a long comment) and Radiance's original run-length
// scheme were both called "truncated"; both are valid files and now load, equal to the same
// picture written flat.
TEST(HostileImagesRound2, RadianceLongHeaderLinesAndOldRunLengthLoad) {
    auto hdr = [](const std::string& extra, bool oldRle) {
        std::string s = "#?RADIANCE\n" + extra + "FORMAT=32-bit_rle_rgbe\n\n-Y 3 +X 16\n";
        for (int y = 0; y < 3; ++y) {
            const char px[4] = {static_cast<char>(100 + y), 80, 60, static_cast<char>(128)};
            if (oldRle) {
                // one pixel, then runs: 11 and then 4 more (the second run shifts by 8: 4 << 8
                // would be too many, so it is split with a literal pixel between).
                s.append(px, 4);
                s.append({1, 1, 1, 10});
                s.append(px, 4);
                s.append({1, 1, 1, 4});
            } else {
                for (int x = 0; x < 16; ++x)
                    s.append(px, 4);
            }
        }
        return Bytes(s.begin(), s.end());
    };
    const Rgba8Image flat = loadImageFromMemory(hdr("", false), "flat.hdr");
    EXPECT_EQ(
        loadImageFromMemory(hdr("# " + std::string(5000, 'x') + "\n", false), "long.hdr").pixels,
        flat.pixels);
    EXPECT_EQ(loadImageFromMemory(hdr("", true), "old.hdr").pixels, flat.pixels);
}

// A Unix socket said "No such device or address" (open fails before fstat could say why).
TEST(HostileImagesRound2, SocketIsNamedAsASocket) {
    const std::string path = ::testing::TempDir() + "clviz_round2.sock";
    unlink(path.c_str());
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    try {
        loadImage(path);
        ADD_FAILURE() << "a socket loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("it is a socket"), std::string::npos) << e.what();
    }
    close(fd);
    unlink(path.c_str());
}

// Control characters in a file name reach the terminal escaped, never raw.
TEST(HostileImagesRound2, FileNamesAreQuotedWithControlCharactersEscaped) {
    const std::string name = "a\x1b[31mred\x1b[0m\nline\t\x7f\xc2\x9b\xff.png";
    EXPECT_EQ(quotedPath(name), "'a\\x1B[31mred\\x1B[0m\\nline\\t\\x7F\\xC2\\x9B\\xFF.png'");
    EXPECT_EQ(quotedPath("caf\xc3\xa9 \xe2\x82\xac.png"), "'caf\xc3\xa9 \xe2\x82\xac.png'");
    const std::string why = refusal(Bytes{1, 2, 3, 4, 5}, name.c_str());
    for (char c : why)
        EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << why;
}
