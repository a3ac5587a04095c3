// Hostile and unusual image files (issue 10): every one is refused with a message that says what
// is wrong, or loads correctly; none hangs, none is read unbounded, none shows black regions
// where the file ran out. Each case is the regression input for one reported failure.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>

#include "common/error.hpp"
#include "compute/image/io/format_checks.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/io/tone_map.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

using Bytes = std::vector<std::uint8_t>;

void writeFile(const std::string& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

void appendTo(void* context, void* data, int size) {
    auto* out = static_cast<Bytes*>(context);
    out->insert(out->end(), static_cast<std::uint8_t*>(data),
                static_cast<std::uint8_t*>(data) + size);
}

Bytes bytesOf(const char* text) {
    return Bytes(text, text + std::strlen(text));
}

// A smooth, bright radiance ramp: stb_image_write run-length encodes it (width >= 8).
Bytes hdrFile(int w, int h) {
    std::vector<float> rgb(std::size_t(w) * h * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i)
        rgb[i] = 0.05f * static_cast<float>(i % 37) + 0.01f * static_cast<float>(i / 37);
    Bytes out;
    stbi_write_hdr_to_func(appendTo, &out, w, h, 3, rgb.data());
    return out;
}

Bytes bmpFile(const Rgba8Image& img, int comp) {
    Bytes out;
    stbi_write_bmp_to_func(appendTo, &out, img.width, img.height, comp, img.pixels.data());
    return out;
}

Bytes tgaFile(const Rgba8Image& img, bool rle) {
    stbi_write_tga_with_rle = rle ? 1 : 0;
    Bytes out;
    stbi_write_tga_to_func(appendTo, &out, img.width, img.height, 4, img.pixels.data());
    stbi_write_tga_with_rle = 1;
    return out;
}

Bytes jpegFile(const Rgba8Image& img) {
    Bytes out;
    stbi_write_jpg_to_func(appendTo, &out, img.width, img.height, 4, img.pixels.data(), 90);
    return out;
}

// An 8 x 6 GIF87a with a 4-colour palette. The LZW stream sends a clear code before every pair
// of pixels, so every code stays 3 bits wide (an encoder in ten lines).
Bytes gifFile() {
    const int w = 8, h = 6;
    Bytes out = {'G', 'I', 'F', '8', '7', 'a', w, 0, h, 0, 0x81, 0, 0};
    const std::uint8_t palette[12] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 250, 250, 250};
    out.insert(out.end(), palette, palette + 12);
    out.insert(out.end(), {',', 0, 0, 0, 0, w, 0, h, 0, 0, 2});  // descriptor, LZW size 2
    std::vector<unsigned> codes;
    for (int p = 0; p < w * h; ++p) {
        if (p % 2 == 0) codes.push_back(4);  // clear
        codes.push_back(static_cast<unsigned>((p * 7 + p / w) % 4));
    }
    codes.push_back(5);  // end of information
    Bytes lzw;
    unsigned bits = 0, acc = 0;
    for (unsigned c : codes) {
        acc |= c << bits, bits += 3;
        while (bits >= 8)
            lzw.push_back(static_cast<std::uint8_t>(acc)), acc >>= 8, bits -= 8;
    }
    if (bits) lzw.push_back(static_cast<std::uint8_t>(acc));
    for (std::size_t i = 0; i < lzw.size(); i += 255) {  // data sub-blocks
        const std::size_t n = std::min<std::size_t>(255, lzw.size() - i);
        out.push_back(static_cast<std::uint8_t>(n));
        out.insert(out.end(), lzw.begin() + i, lzw.begin() + i + n);
    }
    out.insert(out.end(), {0, ';'});
    return out;
}

// A 5 x 3 RGB PSD, raw or PackBits compressed (one literal packet per row and channel).
Bytes psdFile(bool rle) {
    const int w = 5, h = 3;
    Bytes out = {'8', 'B', 'P', 'S', 0, 1, 0, 0, 0, 0, 0, 0, 0,
                 3,   0,   0,   0,   h, 0, 0, 0, w, 0, 8, 0, 3};
    out.resize(out.size() + 3 * 4 + 1);  // three empty sections, compression's high byte
    out.push_back(rle ? 1 : 0);
    if (rle)
        for (int i = 0; i < 3 * h; ++i)
            out.insert(out.end(), {0, w + 1});  // row byte counts
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < h; ++y) {
            if (rle) out.push_back(w - 1);  // literal run of w bytes
            for (int x = 0; x < w; ++x)
                out.push_back(static_cast<std::uint8_t>(40 * c + 15 * y + 3 * x + 1));
        }
    return out;
}

// Every proper prefix of `file` must be refused, or decode to exactly the full file's pixels
// (a prefix that only lacks a trailer is complete); what the file had but the prefix lacks must
// never show as black.
void expectEveryCutRefusedOrComplete(const Bytes& file, const char* name) {
    SCOPED_TRACE(name);
    const Rgba8Image full = loadImageFromMemory(file, name);
    for (std::size_t keep = 1; keep < file.size(); ++keep) {
        const Bytes cut(file.begin(), file.begin() + keep);
        try {
            const Rgba8Image img = loadImageFromMemory(cut, name);
            EXPECT_EQ(img.pixels, full.pixels) << "a cut at " << keep << " of " << file.size()
                                               << " bytes loads with different pixels";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

}  // namespace

// Item 1: a run-length Radiance HDR cut short made stb_image loop forever.
TEST(HostileImages, TruncatedRunLengthHdrIsRefusedNotLooping) {
    const Bytes hdr = hdrFile(19, 7);
    const std::size_t header = std::string(hdr.begin(), hdr.end()).find("+X 19\n") + 6;
    ASSERT_EQ(hdr[header], 2) << "stb_image_write run-length encodes the scanlines";
    for (std::size_t keep = header; keep < hdr.size(); ++keep) {
        const Bytes cut(hdr.begin(), hdr.begin() + keep);
        EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(cut, "cut.hdr"); }), "truncated");
    }
    // The smallest reproduction: a scanline header, then nothing (stb read zero counts forever).
    Bytes tiny = bytesOf("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n");
    tiny.insert(tiny.end(), {2, 2, 0, 8});
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(tiny, "tiny.hdr"); }),
                    "the file is truncated: the Radiance HDR data ends in scanline 1 of 1");
    tiny.push_back(0);  // a zero count never advances: refused, not looped on
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(tiny, "zero.hdr"); }), "bad run-length");
}

// clviz's Radiance decoder against stb_image's on valid files: the same linear values exactly.
TEST(HostileImages, HdrDecoderMatchesStbOnValidFiles) {
    for (auto [w, h] : {std::pair{19, 7}, std::pair{5, 3}, std::pair{8, 1}, std::pair{1, 1}}) {
        const Bytes hdr = hdrFile(w, h);
        int sw = 0, sh = 0, sc = 0;
        float* ref =
            stbi_loadf_from_memory(hdr.data(), static_cast<int>(hdr.size()), &sw, &sh, &sc, 3);
        ASSERT_NE(ref, nullptr);
        const Rgba8Image expected = toneMapHdr(ref, sw, sh);
        stbi_image_free(ref);
        EXPECT_EQ(loadImageFromMemory(hdr, "ok.hdr").pixels, expected.pixels) << w << " x " << h;
    }
}

// Item 2: special files and huge files are refused from their type and size, before reading.
TEST(HostileImages, SpecialAndOversizedFilesAreRefusedBeforeReading) {
    TempDir dir;
    const std::string fifo = dir.file("pipe.png");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_CONTAINS(errorOf([&] { loadImage(fifo); }), "it is a FIFO");
    EXPECT_CONTAINS(errorOf([&] { loadImage("/dev/zero"); }), "it is a character device");
    std::filesystem::create_directory(dir.file("folder.png"));
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("folder.png")); }), "it is a directory");
    // 3 GiB of holes: refused from its size, nothing read.
    const std::string sparse = dir.file("sparse.png");
    writeFile(sparse, encodePng(randomImage(4, 4, 1)));
    std::filesystem::resize_file(sparse, 3ull << 30);
    EXPECT_CONTAINS(errorOf([&] { loadImage(sparse); }),
                    "the file is 3221225472 bytes; the limit is 1342177280 bytes");
    ImageLoadLimits tight;
    tight.maxFileBytes = 10;
    writeFile(dir.file("small.png"), encodePng(randomImage(4, 4, 1)));
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("small.png"), tight); }), "limit is 10");
}

// Item 3: a top-down BMP (negative height) is valid and loads the right way up.
TEST(HostileImages, TopDownBmpLoads) {
    const Rgba8Image img = randomImage(13, 7, 5);
    for (int comp : {3, 4}) {
        Bytes bmp = bmpFile(img, comp);
        const Rgba8Image bottomUp = loadImageFromMemory(bmp, "up.bmp");
        // Negate the height and reverse the rows: the same picture stored top row first.
        const std::uint32_t offset = bmp[10] | bmp[11] << 8 | bmp[12] << 16 | bmp[13] << 24;
        const std::size_t stride = (13 * comp * 8 + 31) / 32 * 4;
        Bytes topDown(bmp.begin(), bmp.begin() + offset);
        for (int y = 6; y >= 0; --y)
            topDown.insert(topDown.end(), bmp.begin() + offset + y * stride,
                           bmp.begin() + offset + (y + 1) * stride);
        const std::int32_t negative = -7;
        for (int i = 0; i < 4; ++i)
            topDown[22 + i] =
                static_cast<std::uint8_t>(static_cast<std::uint32_t>(negative) >> (8 * i));
        const Rgba8Image loaded = loadImageFromMemory(topDown, "down.bmp");
        ASSERT_EQ(loaded.size(), (ImageSize{13, 7}));
        EXPECT_EQ(loaded.pixels, bottomUp.pixels) << comp << " channels";
    }
}

// Item 4: truncated files of every format are refused (or, cut only in a trailer, complete).
TEST(HostileImages, EveryCutOfEveryFormatIsRefusedOrComplete) {
    const Rgba8Image img = randomImage(9, 6, 7);
    expectEveryCutRefusedOrComplete(encodePng(img), "cut.png");
    expectEveryCutRefusedOrComplete(jpegFile(img), "cut.jpg");
    expectEveryCutRefusedOrComplete(bmpFile(img, 3), "cut24.bmp");
    expectEveryCutRefusedOrComplete(bmpFile(img, 4), "cut32.bmp");
    expectEveryCutRefusedOrComplete(tgaFile(img, false), "raw.tga");
    expectEveryCutRefusedOrComplete(tgaFile(solidImage(9, 6, {1, 2, 3, 255}), true), "rle.tga");
    expectEveryCutRefusedOrComplete(tgaFile(img, true), "rle2.tga");
    expectEveryCutRefusedOrComplete(gifFile(), "cut.gif");
    expectEveryCutRefusedOrComplete(psdFile(false), "raw.psd");
    expectEveryCutRefusedOrComplete(psdFile(true), "rle.psd");
    expectEveryCutRefusedOrComplete(hdrFile(19, 7), "rle.hdr");
    expectEveryCutRefusedOrComplete(hdrFile(5, 3), "flat.hdr");
}

TEST(HostileImages, TruncationMessagesSayWhatIsMissing) {
    const Rgba8Image img = randomImage(9, 6, 7);
    const Bytes bmp = bmpFile(img, 3);
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(Bytes(bmp.begin(), bmp.end() - 40), "a.bmp"); }),
        "the file is truncated: its BMP pixel data needs");
    const Bytes gif = gifFile();
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(Bytes(gif.begin(), gif.end() - 5), "a.gif"); }),
        "the GIF ends inside the first image's pixel data");
    const Bytes psd = psdFile(true);
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(Bytes(psd.begin(), psd.end() - 3), "a.psd"); }), "PSD");
    const Bytes tga = tgaFile(img, true);
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(Bytes(tga.begin(), tga.end() - 3), "a.tga"); }), "TGA");
    // Item 7: a truncated JPEG used to say "bad png sig", a truncated PNG gave an empty reason.
    const Bytes jpeg = jpegFile(img);
    for (std::size_t keep : {std::size_t(4), std::size_t(30), jpeg.size() / 2}) {
        const std::string msg = errorOf(
            [&] { loadImageFromMemory(Bytes(jpeg.begin(), jpeg.begin() + keep), "a.jpg"); });
        EXPECT_CONTAINS(msg, "JPEG");
        EXPECT_CONTAINS(msg, "truncated");
        EXPECT_EQ(msg.find("png"), std::string::npos) << msg;
    }
    const Bytes png = encodePng(img);
    for (std::size_t keep : {std::size_t(8), std::size_t(33), png.size() - 12, png.size() - 1}) {
        const std::string msg =
            errorOf([&] { loadImageFromMemory(Bytes(png.begin(), png.begin() + keep), "a.png"); });
        EXPECT_CONTAINS(msg, "PNG");
        EXPECT_CONTAINS(msg, "truncated");
        EXPECT_EQ(msg.find("stb_image: )"), std::string::npos) << msg;
    }
}

// Item 5: a picture larger than the caller's limits is refused from its header: the claimed
// 16000 x 16000 PNG holds 4 x 4 pixels of data, so decoding it would fail differently.
TEST(HostileImages, SizeLimitsApplyBeforeDecoding) {
    Bytes png = encodePng(randomImage(4, 4, 1));
    for (int i = 0; i < 4; ++i)
        png[16 + i] = png[20 + i] = static_cast<std::uint8_t>(16000u >> (24 - 8 * i));
    ImageLoadLimits limits;
    limits.maxPixels = 1ull << 28;  // past clviz's own bound, so the caller's limits speak
    ImageSizeLimit device;
    device.maxBytes = 512u << 20;
    device.what = "the largest OpenCL buffer (512 MiB)";
    limits.fit.push_back(device);
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(png, "bomb.png", limits); }),
                    "the image is 16000 x 16000 pixels (976.6 MiB of RGBA8), more than the largest "
                    "OpenCL buffer (512 MiB)");
    limits.fit = {glTextureLimit(8192)};
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(png, "bomb.png", limits); }),
                    "wider than GL_MAX_TEXTURE_SIZE (8192)");
    // With no device limits at all, clviz's own bound refuses it from the header too (it loaded
    // in 117 s and 5 GiB on PoCL when the bound was 2^28 pixels).
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(png, "bomb.png"); }),
                    "the image is 16000 x 16000 pixels; clviz loads at most 32768 pixels a side "
                    "and 134.2 million pixels in all");
}

TEST(HostileImages, FormatsAreRecognisedFromTheirBytes) {
    const Rgba8Image img = randomImage(3, 2, 1);
    EXPECT_EQ(sniffImageFormat(encodePng(img)), ImageFormat::Png);
    EXPECT_EQ(sniffImageFormat(jpegFile(img)), ImageFormat::Jpeg);
    EXPECT_EQ(sniffImageFormat(bmpFile(img, 3)), ImageFormat::Bmp);
    EXPECT_EQ(sniffImageFormat(tgaFile(img, true)), ImageFormat::Tga);
    EXPECT_EQ(sniffImageFormat(gifFile()), ImageFormat::Gif);
    EXPECT_EQ(sniffImageFormat(psdFile(false)), ImageFormat::Psd);
    EXPECT_EQ(sniffImageFormat(hdrFile(3, 2)), ImageFormat::Hdr);
    EXPECT_EQ(sniffImageFormat(bytesOf("P6 1 1 255\n")), ImageFormat::Pnm);
    EXPECT_EQ(sniffImageFormat(bytesOf("hello, world, this is text")), ImageFormat::Unknown);
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(bytesOf("hello, world"), "a.png"); }),
                    "unsupported or unrecognized format");
}

// The regression inputs kept for the fuzzer (tests/fuzz/regressions), each with what the loader
// must say about it: the files reported in issue 10 and the earlier fuzzer finds.
TEST(HostileImages, RegressionFilesGetTheirMessages) {
    const auto dir =
        std::filesystem::path(CLVIZ_TEST_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
    const std::pair<const char*, const char*> expected[] = {
        {"hdr_rle_scanline_cut_loops_stb.hdr", "Radiance HDR data ends in scanline 1 of 1"},
        {"hdr_rle_cut_mid_scanline.hdr", "the file is truncated: the Radiance HDR data ends"},
        {"hdr_flat_cut.hdr", "the file is truncated: the Radiance HDR data ends"},
        {"bmp_cut_rows_missing.bmp", "the file is truncated: its BMP pixel data needs"},
        {"jpeg_cut_in_scan.jpg", "the JPEG ends after 349 bytes without its end-of-image"},
        {"jpeg_cut_before_frame.jpg", "(and before its image data)"},
        {"png_cut_before_iend.png", "the PNG ends after 90 bytes without its IEND chunk"},
        {"gif_cut_in_image_data.gif", "the GIF ends inside the first image's pixel data"},
        {"psd_cut_in_pixels.psd", "the file is truncated: its PSD pixel data needs"},
        {"tga_rle_cut.tga", "TGA run-length"},
        {"tga_raw_cut.tga", "the file is truncated: its TGA pixel data needs"},
        {"jpeg_dht_code_count_overflow.jpg", "Huffman table declares"},
        {"png_idat_length_beyond_file.png", "PNG chunk IDAT declares"},
        // Tripped an assert inside stb, with an undefined table too.
        {"jpeg_scan_uses_undefined_huffman_table.jpg", "Huffman table the file never defines"},
        {"jpeg_inconsistent_huffman_code_trips_stb_assert.jpg",
         "Huffman table the file never defines"},
        // Issue 28: bombs under the size check and messages that named the wrong reason.
        {"png_idat_inflates_past_header_bomb.png", "(a decompression bomb; refused before"},
        {"jpeg_progressive_501_scans.jpg", "the JPEG has more than 500 scans"},
        {"bmp_negative_width.bmp", "its BMP header states a negative width (-2)"},
        {"gif_lzw_code_size_13.gif", "LZW minimum code size of 13"},
        {"pnm_p1_ascii_bitmap.pbm", "PNM P1 (ASCII bitmap) is not read"},
        {"pnm_p7_pam.pam", "PNM P7 (PAM) is not read"},
    };
    for (const auto& [name, message] : expected) {
        const std::string path = (dir / name).string();
        const std::string msg = errorOf([&] { loadImage(path); });
        EXPECT_CONTAINS(msg, name);
        EXPECT_CONTAINS(msg, message);
    }
    // Issue 28's valid files: a 16-bit RLE PSD decodes as its raw twin; a Radiance HDR with a
    // 5,002-character header line or old-style runs as the same picture written flat.
    EXPECT_EQ(loadImage((dir / "psd_16bit_rle_valid.psd").string()).pixels,
              loadImage((dir / "psd_16bit_raw_valid.psd").string()).pixels);
    const Rgba8Image flat = loadImage((dir / "hdr_flat_valid.hdr").string());
    EXPECT_EQ(loadImage((dir / "hdr_header_line_5000_chars_valid.hdr").string()).pixels,
              flat.pixels);
    EXPECT_EQ(loadImage((dir / "hdr_old_style_rle_valid.hdr").string()).pixels, flat.pixels);
    // A valid top-down BMP (issue 10 item 3): red, green, blue over white, black, grey.
    const Rgba8Image bmp = loadImage((dir / "bmp_top_down_valid.bmp").string());
    ASSERT_EQ(bmp.size(), (ImageSize{3, 2}));
    EXPECT_EQ(bmp.pixels, (Bytes{255, 0,   0,   255, 0, 255, 0, 255, 0,   0,   255, 255,
                                 255, 255, 255, 255, 0, 0,   0, 255, 128, 128, 128, 255}));
}
