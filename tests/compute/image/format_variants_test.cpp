// Every BMP, TGA, GIF and PIC variant the README lists (issue 28): each file is written here from
// known pixels by a small encoder that follows the format's specification (independent of
// stb_image, which reads them), and the decoded RGBA must equal those pixels. Variants stb_image
// decodes wrongly or not at all are refused by name; those refusals are checked too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/image/io/image_io.hpp"

using namespace clviz;

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Px {
    std::uint8_t r, g, b, a;
};

// Awkward sizes: odd widths (BMP row padding, half-byte RLE4 runs), a prime height.
constexpr int W = 13, H = 7;

void put16le(Bytes& b, unsigned v) {
    b.push_back(v & 255), b.push_back((v >> 8) & 255);
}
void put32le(Bytes& b, std::uint32_t v) {
    put16le(b, v & 0xFFFF), put16le(b, v >> 16);
}
void put16be(Bytes& b, unsigned v) {
    b.push_back((v >> 8) & 255), b.push_back(v & 255);
}

// A palette of `n` distinct opaque colours and an index picture using all of them.
std::vector<Px> palette(int n) {
    std::vector<Px> p;
    for (int i = 0; i < n; ++i)
        p.push_back({static_cast<std::uint8_t>(i * 37 + 11),
                     static_cast<std::uint8_t>(255 - i * 13),
                     static_cast<std::uint8_t>((i * 91) ^ 0x5A), 255});
    return p;
}
// Runs of equal indices (so that RLE has runs) and stretches of different ones.
int indexAt(int x, int y, int n) {
    return (x < 5 ? y : x * 3 + y * 7) % n;
}

std::string refusal(const Bytes& file) {
    try {
        loadImageFromMemory(file, "x");
    } catch (const Error& e) {
        return e.what();
    }
    return "(loaded)";
}

// Decoded pixels must be `expect`; `tolerance` only for 5- and 6-bit channels, whose widening
// to 8 bits the formats leave to the reader (v * 255 / 31 rounded either way).
void expectPixels(const Bytes& file, const std::vector<Px>& expect, int tolerance = 0,
                  bool alphaOnlyWhereTransparent = false) {
    Rgba8Image img;
    try {
        img = loadImageFromMemory(file, "variant");
    } catch (const Error& e) {
        FAIL() << e.what();
    }
    ASSERT_EQ(img.width, W);
    ASSERT_EQ(img.height, H);
    int wrong = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const Px e = expect[y * W + x];
            const std::uint8_t* g = img.at(x, y);
            const int ch = alphaOnlyWhereTransparent && e.a == 0 ? 3 : 0;
            for (int c = ch; c < 4; ++c) {
                const int want = c == 0 ? e.r : c == 1 ? e.g : c == 2 ? e.b : e.a;
                if (std::abs(g[c] - want) > tolerance && wrong++ < 5)
                    ADD_FAILURE() << "pixel (" << x << ", " << y << ") channel " << c << ": got "
                                  << int(g[c]) << ", expected " << want;
            }
        }
    EXPECT_EQ(wrong, 0);
}

std::vector<Px> indexed(const std::vector<Px>& pal) {
    std::vector<Px> out;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            out.push_back(pal[indexAt(x, y, static_cast<int>(pal.size()))]);
    return out;
}
std::vector<Px> trueColour(bool alpha) {
    std::vector<Px> out;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            out.push_back({static_cast<std::uint8_t>(x * 19 + 3), static_cast<std::uint8_t>(y * 36),
                           static_cast<std::uint8_t>(255 - x * y * 3),
                           static_cast<std::uint8_t>(alpha ? (x * 20 + y * 9) % 256 : 255)});
    return out;
}
// Channels reduced to `bits` and widened back as v * 255 / (2^bits - 1), to the nearest.
std::uint8_t widen(unsigned v, int bits) {
    return static_cast<std::uint8_t>(std::lround(v * 255.0 / ((1 << bits) - 1)));
}

// ---- BMP (Microsoft's BITMAPINFOHEADER / BITMAPV4HEADER) -----------------------------------
struct BmpSpec {
    int bpp = 24;
    std::uint32_t compression = 0;  // 0 BI_RGB, 1 BI_RLE8, 2 BI_RLE4, 3 BI_BITFIELDS
    int headerSize = 40;
    std::vector<std::uint32_t> masks;  // after a 40-byte header (BI_BITFIELDS) or inside a V4
    bool topDown = false;
};
Bytes bmpFile(const BmpSpec& s, const std::vector<Px>& pal, const Bytes& pixelData) {
    Bytes info;
    put32le(info, s.headerSize), put32le(info, W), put32le(info, s.topDown ? -H : H);
    put16le(info, 1), put16le(info, s.bpp), put32le(info, s.compression);
    put32le(info, static_cast<std::uint32_t>(pixelData.size())), put32le(info, 2835),
        put32le(info, 2835);
    put32le(info, static_cast<std::uint32_t>(pal.size())), put32le(info, 0);
    if (s.headerSize == 108) {
        for (int i = 0; i < 4; ++i)
            put32le(info, i < static_cast<int>(s.masks.size()) ? s.masks[i] : 0);
        put32le(info, 0x73524742);  // LCS_sRGB
        info.resize(108, 0);        // endpoints and gamma, unused for sRGB
    } else {
        for (std::uint32_t m : s.masks)
            put32le(info, m);
    }
    for (const Px& p : pal)
        info.push_back(p.b), info.push_back(p.g), info.push_back(p.r), info.push_back(0);
    Bytes f = {'B', 'M'};
    put32le(f, static_cast<std::uint32_t>(14 + info.size() + pixelData.size()));
    put32le(f, 0), put32le(f, static_cast<std::uint32_t>(14 + info.size()));
    f.insert(f.end(), info.begin(), info.end());
    f.insert(f.end(), pixelData.begin(), pixelData.end());
    return f;
}
// Rows in file order (bottom-up unless top-down), each padded to 4 bytes.
template <class Row>
Bytes bmpRows(bool topDown, Row row) {
    Bytes out;
    for (int i = 0; i < H; ++i) {
        Bytes r = row(topDown ? i : H - 1 - i);
        r.resize((r.size() + 3) / 4 * 4, 0);
        out.insert(out.end(), r.begin(), r.end());
    }
    return out;
}
Bytes bmpPalettedRow(int y, int bpp, int n) {
    Bytes r((W * bpp + 7) / 8, 0);
    for (int x = 0; x < W; ++x) {
        const int bit = x * bpp;
        r[bit / 8] |= static_cast<std::uint8_t>(indexAt(x, y, n) << (8 - bpp - bit % 8));
    }
    return r;
}
// RLE8 / RLE4 (encoded mode for runs, absolute mode otherwise), rows bottom-up.
Bytes bmpRle(int bpp, int n) {
    Bytes out;
    for (int y = H - 1; y >= 0; --y) {
        int x = 0;
        while (x < W) {
            int run = 1;
            while (x + run < W && indexAt(x + run, y, n) == indexAt(x, y, n))
                ++run;
            if (run >= 2 || W - x < 3) {
                out.push_back(static_cast<std::uint8_t>(run));
                const int i = indexAt(x, y, n);
                out.push_back(static_cast<std::uint8_t>(bpp == 8 ? i : i << 4 | i));
                x += run;
                continue;
            }
            int lit = 0;  // absolute mode: at least 3 pixels
            while (x + lit < W && (lit < 3 || indexAt(x + lit, y, n) != indexAt(x + lit - 1, y, n)))
                ++lit;
            out.push_back(0), out.push_back(static_cast<std::uint8_t>(lit));
            Bytes data;
            for (int k = 0; k < lit; ++k) {
                const int i = indexAt(x + k, y, n);
                if (bpp == 8)
                    data.push_back(static_cast<std::uint8_t>(i));
                else if (k % 2 == 0)
                    data.push_back(static_cast<std::uint8_t>(i << 4));
                else
                    data.back() |= static_cast<std::uint8_t>(i);
            }
            if (data.size() % 2) data.push_back(0);  // absolute runs are word aligned
            out.insert(out.end(), data.begin(), data.end());
            x += lit;
        }
        out.push_back(0), out.push_back(0);  // end of line
    }
    out.push_back(0), out.push_back(1);  // end of bitmap
    return out;
}

// ---- TGA (Truevision TGA 2.0) --------------------------------------------------------------
struct TgaSpec {
    int type = 2;  // 1 colour-mapped, 2 true colour, 3 grey; +8 run-length
    int bpp = 24;
    int alphaBits = 0;
    bool topOrigin = false, rightOrigin = false;
};
// `pixel(x, y)` gives one pixel's bytes as stored (index, grey, BGR[A] or 16-bit little endian).
template <class Pixel>
Bytes tgaFile(const TgaSpec& s, const std::vector<Px>& pal, Pixel pixel) {
    Bytes f = {3, static_cast<std::uint8_t>(pal.empty() ? 0 : 1),
               static_cast<std::uint8_t>(s.type)};
    put16le(f, 0), put16le(f, static_cast<unsigned>(pal.size()));
    f.push_back(pal.empty() ? 0 : 24);
    put16le(f, 0), put16le(f, 0), put16le(f, W), put16le(f, H);
    f.push_back(static_cast<std::uint8_t>(s.bpp));
    f.push_back(
        static_cast<std::uint8_t>(s.alphaBits | (s.topOrigin ? 32 : 0) | (s.rightOrigin ? 16 : 0)));
    f.insert(f.end(), {'i', 'd', '!'});  // image ID field
    for (const Px& p : pal)
        f.push_back(p.b), f.push_back(p.g), f.push_back(p.r);
    for (int i = 0; i < H; ++i) {
        const int y = s.topOrigin ? i : H - 1 - i;
        std::vector<Bytes> row;
        for (int j = 0; j < W; ++j)
            row.push_back(pixel(s.rightOrigin ? W - 1 - j : j, y));
        if (s.type < 8) {
            for (const Bytes& p : row)
                f.insert(f.end(), p.begin(), p.end());
            continue;
        }
        // Run-length packets per row (the spec asks packets not to cross rows).
        for (int x = 0; x < W;) {
            int run = 1;
            while (x + run < W && run < 128 && row[x + run] == row[x])
                ++run;
            if (run >= 2) {
                f.push_back(static_cast<std::uint8_t>(128 | (run - 1)));
                f.insert(f.end(), row[x].begin(), row[x].end());
                x += run;
                continue;
            }
            int lit = 1;
            while (x + lit < W && lit < 128 &&
                   !(x + lit + 1 < W && row[x + lit] == row[x + lit + 1]))
                ++lit;
            f.push_back(static_cast<std::uint8_t>(lit - 1));
            for (int k = 0; k < lit; ++k)
                f.insert(f.end(), row[x + k].begin(), row[x + k].end());
            x += lit;
        }
    }
    return f;
}

// ---- GIF (GIF89a) --------------------------------------------------------------------------
// LZW with an 8-bit minimum code size, every index sent as a literal 9-bit code and a clear code
// before the table could widen codes: a valid stream every decoder must read.
Bytes lzwLiterals(const std::vector<int>& indices) {
    Bytes out;
    std::uint32_t acc = 0;
    int n = 0;
    auto code = [&](unsigned c) {
        acc |= c << n, n += 9;
        while (n >= 8)
            out.push_back(acc & 255), acc >>= 8, n -= 8;
    };
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (i % 100 == 0) code(256);
        code(static_cast<unsigned>(indices[i]));
    }
    code(257);
    if (n) out.push_back(acc & 255);
    Bytes blocks = {8};
    for (std::size_t p = 0; p < out.size(); p += 255) {
        const std::size_t len = std::min<std::size_t>(255, out.size() - p);
        blocks.push_back(static_cast<std::uint8_t>(len));
        blocks.insert(blocks.end(), out.begin() + p, out.begin() + p + len);
    }
    blocks.push_back(0);
    return blocks;
}
struct GifFrame {
    std::vector<int> index;  // W * H, row-major
    bool interlaced = false;
    int transparent = -1;
};
Bytes gifFile(const std::vector<Px>& pal, const std::vector<GifFrame>& frames) {
    Bytes f = {'G', 'I', 'F', '8', '9', 'a'};
    put16le(f, W), put16le(f, H);
    f.push_back(0xF0 | 7), f.push_back(0), f.push_back(0);  // global table of 256 entries
    for (int i = 0; i < 256; ++i) {
        const Px p = i < static_cast<int>(pal.size()) ? pal[i] : Px{0, 0, 0, 255};
        f.push_back(p.r), f.push_back(p.g), f.push_back(p.b);
    }
    if (frames.size() > 1) {  // NETSCAPE2.0 looping extension, as animations carry
        f.insert(f.end(), {0x21, 0xFF, 11, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0', 3,
                           1, 0, 0, 0});
    }
    for (const GifFrame& fr : frames) {
        f.insert(f.end(),
                 {0x21, 0xF9, 4, static_cast<std::uint8_t>(fr.transparent >= 0 ? 1 : 0), 10, 0,
                  static_cast<std::uint8_t>(fr.transparent >= 0 ? fr.transparent : 0), 0});
        f.push_back(0x2C), put16le(f, 0), put16le(f, 0), put16le(f, W), put16le(f, H);
        f.push_back(fr.interlaced ? 0x40 : 0);
        std::vector<int> rows;
        if (fr.interlaced) {
            for (auto [start, step] : {std::pair{0, 8}, {4, 8}, {2, 4}, {1, 2}})
                for (int y = start; y < H; y += step)
                    rows.push_back(y);
        } else {
            for (int y = 0; y < H; ++y)
                rows.push_back(y);
        }
        std::vector<int> stream;
        for (int y : rows)
            for (int x = 0; x < W; ++x)
                stream.push_back(fr.index[y * W + x]);
        const Bytes data = lzwLiterals(stream);
        f.insert(f.end(), data.begin(), data.end());
    }
    f.push_back(0x3B);
    return f;
}
std::vector<int> gifIndices(int n, int shift = 0) {
    std::vector<int> idx;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            idx.push_back((indexAt(x, y, n) + shift) % n);
    return idx;
}

// ---- PIC (Softimage) -----------------------------------------------------------------------
// Header, then channel packets (chained, 8 bits, type 0 raw / 2 mixed run-length, channel mask),
// then per row each packet's data.
Bytes picFile(const std::vector<Px>& px, bool alpha, int type) {
    Bytes f = {0x53, 0x80, 0xF6, 0x34, 0x40, 0x33, 0x33, 0x33};  // magic, version 2.8 (float)
    std::string comment = "clviz test";
    comment.resize(80, '\0');
    f.insert(f.end(), comment.begin(), comment.end());
    f.insert(f.end(), {'P', 'I', 'C', 'T'});
    put16be(f, W), put16be(f, H);
    f.insert(f.end(), {0x3F, 0x80, 0, 0});  // pixel ratio 1.0
    put16be(f, 3), put16be(f, 0);           // both fields, padding
    f.insert(f.end(),
             {static_cast<std::uint8_t>(alpha ? 1 : 0), 8, static_cast<std::uint8_t>(type), 0xE0});
    if (alpha) f.insert(f.end(), {0, 8, static_cast<std::uint8_t>(type), 0x10});
    for (int y = 0; y < H; ++y) {
        for (int packet = 0; packet < (alpha ? 2 : 1); ++packet) {
            auto value = [&](int x) {
                const Px p = px[y * W + x];
                return packet == 0 ? Bytes{p.r, p.g, p.b} : Bytes{p.a};
            };
            if (type == 0) {
                for (int x = 0; x < W; ++x) {
                    const Bytes v = value(x);
                    f.insert(f.end(), v.begin(), v.end());
                }
                continue;
            }
            for (int x = 0; x < W;) {  // mixed: runs of 2+ (short and long form), literals
                int run = 1;
                while (x + run < W && value(x + run) == value(x))
                    ++run;
                if (run >= 2) {
                    if (run % 2) {
                        f.push_back(static_cast<std::uint8_t>(127 + run));
                    } else {
                        f.push_back(128), put16be(f, run);
                    }
                    const Bytes v = value(x);
                    f.insert(f.end(), v.begin(), v.end());
                    x += run;
                    continue;
                }
                int lit = 1;
                while (x + lit < W && !(x + lit + 1 < W && value(x + lit) == value(x + lit + 1)))
                    ++lit;
                f.push_back(static_cast<std::uint8_t>(lit - 1));
                for (int k = 0; k < lit; ++k) {
                    const Bytes v = value(x + k);
                    f.insert(f.end(), v.begin(), v.end());
                }
                x += lit;
            }
        }
    }
    return f;
}

}  // namespace

// ---- BMP -----------------------------------------------------------------------------------
TEST(FormatVariants, BmpPalettedOneFourAndEightBit) {
    for (int bpp : {1, 4, 8}) {
        SCOPED_TRACE("bpp " + std::to_string(bpp));
        const int n = bpp == 8 ? 200 : 1 << bpp;
        const auto pal = palette(n);
        for (bool topDown : {false, true}) {
            BmpSpec s{bpp, 0, 40, {}, topDown};
            const Bytes data = bmpRows(topDown, [&](int y) { return bmpPalettedRow(y, bpp, n); });
            expectPixels(bmpFile(s, pal, data), indexed(pal));
        }
    }
}

TEST(FormatVariants, BmpTwentyFourAndThirtyTwoBit) {
    const auto opaque = trueColour(false), alpha = trueColour(true);
    auto rows = [](const std::vector<Px>& px, int bytes, bool topDown, bool storeAlpha) {
        return bmpRows(topDown, [&](int y) {
            Bytes r;
            for (int x = 0; x < W; ++x) {
                const Px p = px[y * W + x];
                r.insert(r.end(), {p.b, p.g, p.r});
                if (bytes == 4) r.push_back(storeAlpha ? p.a : 0);
            }
            return r;
        });
    };
    for (bool topDown : {false, true}) {
        SCOPED_TRACE(topDown ? "top-down" : "bottom-up");
        expectPixels(bmpFile({24, 0, 40, {}, topDown}, {}, rows(opaque, 3, topDown, false)),
                     opaque);
        // BI_RGB 32-bit: the fourth byte is unused, so the picture is opaque whether a writer
        // left it 0 or put something there (stb would read a non-zero one as alpha).
        expectPixels(bmpFile({32, 0, 40, {}, topDown}, {}, rows(opaque, 4, topDown, false)),
                     opaque);
        expectPixels(bmpFile({32, 0, 40, {}, topDown}, {}, rows(alpha, 4, topDown, true)),
                     opaque);
        // BITMAPV4HEADER with an alpha mask.
        const std::vector<std::uint32_t> masks = {0xFF0000, 0xFF00, 0xFF, 0xFF000000u};
        expectPixels(bmpFile({32, 3, 108, masks, topDown}, {}, rows(alpha, 4, topDown, true)),
                     alpha);
    }
}

TEST(FormatVariants, BmpSixteenBit565And555) {
    const auto px = trueColour(false);
    for (bool is565 : {true, false}) {
        SCOPED_TRACE(is565 ? "565 bitfields" : "555");
        std::vector<Px> expect;
        const Bytes data = bmpRows(false, [&](int y) {
            Bytes r;
            for (int x = 0; x < W; ++x) {
                const Px p = px[y * W + x];
                const unsigned r5 = p.r >> 3, b5 = p.b >> 3, g = is565 ? p.g >> 2 : p.g >> 3;
                put16le(r, is565 ? r5 << 11 | g << 5 | b5 : r5 << 10 | g << 5 | b5);
            }
            return r;
        });
        for (const Px& p : px)
            expect.push_back({widen(p.r >> 3, 5), is565 ? widen(p.g >> 2, 6) : widen(p.g >> 3, 5),
                              widen(p.b >> 3, 5), 255});
        const BmpSpec s = is565 ? BmpSpec{16, 3, 40, {0xF800, 0x07E0, 0x001F}, false}
                                : BmpSpec{16, 0, 40, {}, false};
        expectPixels(bmpFile(s, {}, data), expect, 1);
    }
}

// stb_image does not read run-length BMPs; they are refused by name (this test also checks the
// encoder's files are the pictures, so that it can turn into a load test when a reader does).
TEST(FormatVariants, BmpRunLengthIsRefusedByName) {
    for (int bpp : {8, 4}) {
        const int n = bpp == 8 ? 200 : 16;
        const Bytes f = bmpFile({bpp, static_cast<std::uint32_t>(bpp == 8 ? 1 : 2), 40, {}, false},
                                palette(n), bmpRle(bpp, n));
        const std::string why = refusal(f);
        const std::string name =
            bpp == 8 ? "run-length BMP (RLE8) is not read" : "run-length BMP (RLE4) is not read";
        EXPECT_NE(why.find(name), std::string::npos) << why;
    }
}

// ---- TGA -----------------------------------------------------------------------------------
TEST(FormatVariants, TgaTrueColourGreyAndColourMappedRawAndRle) {
    const auto opaque = trueColour(false), alpha = trueColour(true);
    const auto pal = palette(40);
    for (bool rle : {false, true})
        for (bool top : {false, true}) {
            SCOPED_TRACE(std::string(rle ? "RLE" : "raw") +
                         (top ? ", top origin" : ", bottom origin"));
            const int k = rle ? 8 : 0;
            expectPixels(tgaFile({2 + k, 24, 0, top}, {},
                                 [&](int x, int y) {
                                     const Px p = opaque[y * W + x];
                                     return Bytes{p.b, p.g, p.r};
                                 }),
                         opaque);
            expectPixels(tgaFile({2 + k, 32, 8, top}, {},
                                 [&](int x, int y) {
                                     const Px p = alpha[y * W + x];
                                     return Bytes{p.b, p.g, p.r, p.a};
                                 }),
                         alpha);
            std::vector<Px> grey;
            for (const Px& p : opaque)
                grey.push_back({p.g, p.g, p.g, 255});
            expectPixels(tgaFile({3 + k, 8, 0, top}, {},
                                 [&](int x, int y) { return Bytes{opaque[y * W + x].g}; }),
                         grey);
            expectPixels(tgaFile({1 + k, 8, 0, top}, pal,
                                 [&](int x, int y) {
                                     return Bytes{static_cast<std::uint8_t>(indexAt(x, y, 40))};
                                 }),
                         indexed(pal));
            // 16-bit, no attribute bit: X RRRRR GGGGG BBBBB.
            std::vector<Px> expect;
            for (const Px& p : opaque)
                expect.push_back({widen(p.r >> 3, 5), widen(p.g >> 3, 5), widen(p.b >> 3, 5), 255});
            expectPixels(tgaFile({2 + k, 16, 0, top}, {},
                                 [&](int x, int y) {
                                     const Px p = opaque[y * W + x];
                                     Bytes b;
                                     put16le(b, (p.r >> 3) << 10 | (p.g >> 3) << 5 | p.b >> 3);
                                     return b;
                                 }),
                         expect, 1);
        }
}

// Variants stb_image reads wrongly: right-to-left rows (it ignores the bit and mirrors the
// picture) and 16-bit pixels with an alpha bit (it drops the bit and shows every pixel opaque).
TEST(FormatVariants, TgaRightToLeftAndSixteenBitAlphaAreRefusedByName) {
    const auto px = trueColour(false);
    TgaSpec mirrored{2, 24, 0, false, true};
    const std::string why = refusal(tgaFile(mirrored, {}, [&](int x, int y) {
        const Px p = px[y * W + x];
        return Bytes{p.b, p.g, p.r};
    }));
    EXPECT_NE(why.find("TGA with right-to-left rows is not read"), std::string::npos) << why;
    TgaSpec alphaBit{2, 16, 1, false};
    const std::string why16 = refusal(tgaFile(alphaBit, {}, [&](int x, int) {
        Bytes b;
        put16le(b, (x % 2 ? 0x8000u : 0u) | 0x1234u);
        return b;
    }));
    EXPECT_NE(why16.find("16-bit TGA with an alpha bit is not read"), std::string::npos) << why16;
}

// ---- GIF -----------------------------------------------------------------------------------
TEST(FormatVariants, GifPlainInterlacedTransparentAndFirstFrame) {
    const auto pal = palette(37);
    for (bool interlaced : {false, true}) {
        SCOPED_TRACE(interlaced ? "interlaced" : "sequential");
        expectPixels(gifFile(pal, {{gifIndices(37), interlaced, -1}}), indexed(pal));
        // Index 5 transparent: alpha 0 there (its colour is not compared), the rest opaque.
        std::vector<Px> expect = indexed(pal);
        const auto idx = gifIndices(37);
        for (int i = 0; i < W * H; ++i)
            if (idx[i] == 5) expect[i].a = 0;
        expectPixels(gifFile(pal, {{idx, interlaced, 5}}), expect, 0, true);
    }
    // An animation: the first frame is shown, not the last.
    expectPixels(gifFile(pal, {{gifIndices(37), false, -1},
                               {gifIndices(37, 11), false, -1},
                               {gifIndices(37, 3), true, -1}}),
                 indexed(pal));
}

// ---- PIC -----------------------------------------------------------------------------------
TEST(FormatVariants, SoftimagePicRawAndMixedRunLength) {
    const auto opaque = trueColour(false), alpha = trueColour(true);
    // Runs for the run-length packets: the left third of each row repeats one colour.
    auto withRuns = [](std::vector<Px> px) {
        for (int y = 0; y < H; ++y)
            for (int x = 1; x < 5; ++x)
                px[y * W + x] = px[y * W];
        return px;
    };
    for (int type : {0, 2}) {
        SCOPED_TRACE(type == 0 ? "uncompressed" : "mixed run-length");
        expectPixels(picFile(withRuns(opaque), false, type), withRuns(opaque));
        expectPixels(picFile(withRuns(alpha), true, type), withRuns(alpha));
    }
}
