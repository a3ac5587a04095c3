// Loading and saving: round trips through every writable format, the formats only stb_image
// reads (GIF, PSD, HDR) from hand-made files, and every kind of bad input with its message.
// All files are made here, in a temporary directory.
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <cmath>
#include <fstream>

#include "common/error.hpp"
#include "compute/core/device_info.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/io/tone_map.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

void writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

Rgba8Image opaque(Rgba8Image img) {
    for (std::size_t i = 3; i < img.pixels.size(); i += 4)
        img.pixels[i] = 255;
    return img;
}

// A PNG whose IHDR says width x height (stb does not check chunk CRCs).
std::vector<std::uint8_t> pngClaiming(std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> png = encodePng(randomImage(4, 4, 1));
    // Signature (8), IHDR length (4), "IHDR" (4), then width and height, big-endian.
    for (int i = 0; i < 4; ++i) {
        png[16 + i] = static_cast<std::uint8_t>(width >> (24 - 8 * i));
        png[20 + i] = static_cast<std::uint8_t>(height >> (24 - 8 * i));
    }
    return png;
}

}  // namespace

TEST(ImageIo, PngRoundTripKeepsEveryByte) {
    TempDir dir;
    for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 53}, std::pair{300, 2}}) {
        const Rgba8Image img = randomImage(w, h, w * 1000 + h);
        saveImage(dir.file("a.png"), img);
        const Rgba8Image back = loadImage(dir.file("a.png"));
        ASSERT_EQ(back.width, w);
        ASSERT_EQ(back.height, h);
        EXPECT_EQ(back.pixels, img.pixels) << seedNote();
    }
    // Extensions are case-insensitive.
    const Rgba8Image img = randomImage(5, 5, 3);
    saveImage(dir.file("UPPER.PNG"), img);
    EXPECT_EQ(loadImage(dir.file("UPPER.PNG")).pixels, img.pixels);
}

TEST(ImageIo, JpegRoundTripIsClose) {
    TempDir dir;
    // A smooth picture: JPEG keeps it within a few levels.
    Rgba8Image img(64, 48);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            std::uint8_t* p = img.at(x, y);
            p[0] = static_cast<std::uint8_t>(x * 4), p[1] = static_cast<std::uint8_t>(y * 5);
            p[2] = 128, p[3] = 10;  // alpha is dropped by JPEG
        }
    for (const char* name : {"a.jpg", "b.JPEG"}) {
        saveImage(dir.file(name), img, 95);
        const Rgba8Image back = loadImage(dir.file(name));
        ASSERT_EQ(back.size(), img.size());
        double sum = 0;
        for (std::size_t i = 0; i < img.pixels.size(); ++i) {
            if (i % 4 == 3) {
                ASSERT_EQ(back.pixels[i], 255) << "JPEG loads opaque";
                continue;
            }
            sum += std::abs(int(back.pixels[i]) - int(img.pixels[i]));
        }
        EXPECT_LT(sum / (img.size().pixels() * 3), 3.0);
    }
}

TEST(ImageIo, BmpTgaAndGreyPngLoadAsRgba) {
    TempDir dir;
    const Rgba8Image img = opaque(randomImage(13, 7, 11));
    std::vector<std::uint8_t> rgb;
    for (std::size_t i = 0; i < img.pixels.size(); ++i)
        if (i % 4 != 3) rgb.push_back(img.pixels[i]);
    ASSERT_TRUE(stbi_write_bmp(dir.file("a.bmp").c_str(), 13, 7, 3, rgb.data()));
    ASSERT_TRUE(stbi_write_tga(dir.file("a.tga").c_str(), 13, 7, 3, rgb.data()));
    EXPECT_EQ(loadImage(dir.file("a.bmp")).pixels, img.pixels);
    EXPECT_EQ(loadImage(dir.file("a.tga")).pixels, img.pixels);

    const std::uint8_t greyAlpha[] = {10, 20, 30, 40, 250, 255};  // 3 pixels of grey + alpha
    ASSERT_TRUE(stbi_write_png(dir.file("g.png").c_str(), 3, 1, 2, greyAlpha, 6));
    const Rgba8Image g = loadImage(dir.file("g.png"));
    EXPECT_EQ(g.pixels,
              (std::vector<std::uint8_t>{10, 10, 10, 20, 30, 30, 30, 40, 250, 250, 250, 255}));
}

TEST(ImageIo, GifFirstFrame) {
    // 1 x 1 GIF87a: global palette {red, black}, one pixel of index 0 (LZW: clear, 0, end).
    const std::vector<std::uint8_t> gif = {'G', 'I',  'F', '8', '7', 'a', 1, 0,    1,    0, 0x80, 0,
                                           0,   0xff, 0,   0,   0,   0,   0, ',',  0,    0, 0,    0,
                                           1,   0,    1,   0,   0,   2,   2, 0x44, 0x01, 0, ';'};
    const Rgba8Image img = loadImageFromMemory(gif, "tiny.gif");
    ASSERT_EQ(img.size(), (ImageSize{1, 1}));
    EXPECT_EQ(img.pixels, (std::vector<std::uint8_t>{255, 0, 0, 255}));
}

TEST(ImageIo, PsdComposite) {
    // 2 x 1 RGB PSD, 8 bit, uncompressed planar data.
    std::vector<std::uint8_t> psd = {'8', 'B', 'P', 'S', 0,  1, 0, 0, 0, 0, 0, 0, 0, 3,  // channels
                                     0,   0,   0,   1,                                   // height
                                     0,   0,   0,   2,                                   // width
                                     0,   8,   0,   3,             // depth, RGB mode
                                     0,   0,   0,   0,             // colour mode data
                                     0,   0,   0,   0,             // image resources
                                     0,   0,   0,   0,             // layers and masks
                                     0,   0,                       // raw data
                                     10,  20,  30,  40,  50, 60};  // R plane, G plane, B plane
    const Rgba8Image img = loadImageFromMemory(psd, "tiny.psd");
    ASSERT_EQ(img.size(), (ImageSize{2, 1}));
    EXPECT_EQ(img.pixels, (std::vector<std::uint8_t>{10, 30, 50, 255, 20, 40, 60, 255}));
}

TEST(ImageIo, HdrIsToneMappedSanely) {
    TempDir dir;
    // A horizontal ramp over five decades of radiance, grey.
    const int w = 64, h = 4;
    std::vector<float> rgb(w * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(y * w + x) * 3 + c] = std::pow(10.0f, -2.0f + 5.0f * x / (w - 1));
    ASSERT_TRUE(stbi_write_hdr(dir.file("ramp.hdr").c_str(), w, h, 3, rgb.data()));
    const Rgba8Image img = loadImage(dir.file("ramp.hdr"));
    ASSERT_EQ(img.size(), (ImageSize{w, h}));
    for (int x = 1; x < w; ++x)
        EXPECT_GE(img.at(x, 0)[0], img.at(x - 1, 0)[0]) << "monotonic at " << x;
    EXPECT_LE(img.at(0, 0)[0], 10) << "the darkest end stays dark";
    EXPECT_GE(img.at(w - 1, 0)[0], 250) << "the brightest pixel reaches white";
    EXPECT_GT(img.at(w / 2, 0)[0], 60);
    EXPECT_LT(img.at(w / 2, 0)[0], 230);
    EXPECT_EQ(img.at(5, 2)[3], 255);
    EXPECT_EQ(img.at(5, 2)[0], img.at(5, 2)[2]) << "grey stays grey";

    // A flat image lands on middle grey whatever its radiance, and black stays black.
    for (float v : {0.001f, 1.0f, 5000.0f}) {
        const float flat[12] = {v, v, v, v, v, v, v, v, v, v, v, v};
        const Rgba8Image f = toneMapHdr(flat, 2, 2);
        EXPECT_NEAR(f.pixels[0], 118, 3) << "radiance " << v;
    }
    const float black[6] = {0, 0, 0, 0, 0, 0};
    EXPECT_EQ(toneMapHdr(black, 2, 1).pixels,
              (std::vector<std::uint8_t>{0, 0, 0, 255, 0, 0, 0, 255}));
    // Saturated colours keep their hue; garbage (NaN, negative) becomes black.
    const float odd[6] = {NAN, -3.0f, INFINITY, 2.0f, 0.5f, 0.1f};
    const Rgba8Image o = toneMapHdr(odd, 2, 1);
    EXPECT_EQ(o.pixels[0], 0);
    EXPECT_GT(o.pixels[4], o.pixels[5]);
    EXPECT_GT(o.pixels[5], o.pixels[6]);
}

TEST(ImageIo, MissingUnreadableAndEmptyFilesAreRejected) {
    TempDir dir;
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("nope.png")); }), "No such file");
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("nope.png")); }), "nope.png");
    std::filesystem::create_directory(dir.file("folder.png"));
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("folder.png")); }), "directory");
    writeFile(dir.file("empty.png"), {});
    EXPECT_CONTAINS(errorOf([&] { loadImage(dir.file("empty.png")); }), "empty");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory({}, "dropped"); }), "dropped");
}

TEST(ImageIo, TruncatedAndCorruptFilesAreRejected) {
    const std::vector<std::uint8_t> png = encodePng(randomImage(40, 30, 21));
    for (std::size_t keep : {png.size() / 2, std::size_t(40), std::size_t(9)}) {
        const std::vector<std::uint8_t> cut(png.begin(), png.begin() + keep);
        EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(cut, "cut.png"); }), "cut.png");
    }
    EXPECT_CONTAINS(errorOf([&] {
                        loadImageFromMemory(std::vector<std::uint8_t>(png.begin(), png.end() - 30),
                                            "cut.png");
                    }),
                    "corrupt or truncated");

    std::vector<std::uint8_t> badDepth = png;
    badDepth[24] = 7;  // IHDR bit depth
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(badDepth, "depth.png"); }), "corrupt");

    std::vector<std::uint8_t> garbage = png;
    for (std::size_t i = 40; i < garbage.size(); ++i)
        garbage[i] = static_cast<std::uint8_t>(i * 131);
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(garbage, "garbage.png"); }), "garbage.png");
}

TEST(ImageIo, UnsupportedFormatsAreNamed) {
    const std::string text = "just some text, not a picture";
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    const std::string msg = errorOf([&] { loadImageFromMemory(bytes, "notes.txt"); });
    EXPECT_CONTAINS(msg, "unsupported or unrecognized format");
    EXPECT_CONTAINS(msg, "PNG, JPEG");
    const std::vector<std::uint8_t> webp = {'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P',
                                            'V', 'P', '8', ' ', 0,  0, 0, 0, 0,   0,   0,   0};
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(webp, "a.webp"); }), "unsupported");
}

TEST(ImageIo, ZeroSizeAndHugeHeadersAreRejectedBeforeDecoding) {
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(pngClaiming(0, 5), "zero.png"); }),
                    "zero.png");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(pngClaiming(7, 0), "zero.png"); }),
                    "zero.png");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(pngClaiming(30000, 30000), "huge.png"); }),
                    "30000 x 30000 pixels; clviz loads at most");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(pngClaiming(40000, 2), "wide.png"); }),
                    "40000 x 2 pixels; clviz loads at most 32768");
    ImageLoadLimits small;
    small.maxEdge = 3;
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(encodePng(randomImage(4, 2, 1)), "x", small); }),
        "at most 3 pixels");
}

TEST(ImageIo, SaveErrorsAreClear) {
    TempDir dir;
    const Rgba8Image img = randomImage(3, 3, 5);
    EXPECT_CONTAINS(errorOf([&] { saveImage(dir.file("a.bmp"), img); }), "use .png or .jpg");
    EXPECT_CONTAINS(errorOf([&] { saveImage(dir.file("noext"), img); }), "(none)");
    EXPECT_CONTAINS(errorOf([&] { saveImage(dir.file("missing/dir/a.png"), img); }),
                    "No such file");
    EXPECT_CONTAINS(errorOf([&] { saveImage(dir.file("e.png"), Rgba8Image()); }), "empty");
    Rgba8Image broken = img;
    broken.pixels.pop_back();
    EXPECT_CONTAINS(errorOf([&] { saveImage(dir.file("b.png"), broken); }), "expected");
}

TEST(ImageIo, SizeLimits) {
    EXPECT_FALSE(imageSizeProblem({100, 100}, {glTextureLimit(100)}));
    EXPECT_CONTAINS(*imageSizeProblem({101, 5}, {glTextureLimit(100)}),
                    "wider than GL_MAX_TEXTURE_SIZE (100)");
    EXPECT_CONTAINS(*imageSizeProblem({5, 101}, {glTextureLimit(100)}), "taller than");
    EXPECT_CONTAINS(*imageSizeProblem({0, 5}, {}), "empty");

    DeviceInfo device;
    device.name = "Test GPU";
    device.maxAllocBytes = 1500;
    device.imageSupport = true;
    device.image2dMaxWidth = 64;
    device.image2dMaxHeight = 32;
    const auto limits = deviceImageLimits(device);
    ASSERT_EQ(limits.size(), 1u);
    EXPECT_CONTAINS(*imageSizeProblem({20, 20}, limits), "largest OpenCL buffer Test GPU");
    // Larger than the image2d limit is fine for the lab: only the image-object rotate variants
    // need an image2d, and ImageRotate::available says so (image_rotate_test).
    EXPECT_FALSE(imageSizeProblem({10, 33}, limits));
    EXPECT_FALSE(imageSizeProblem({10, 10}, limits));
    EXPECT_THROW(checkImageSize({20, 20}, limits), Error);
    EXPECT_NO_THROW(checkImageSize({10, 33}, limits));
}

TEST(ImageIo, BinaryPnmScalesMaxvalAndRejectsShortRasters) {
    auto bytes = [](const std::string& header, std::vector<std::uint8_t> raster) {
        std::vector<std::uint8_t> b(header.begin(), header.end());
        b.insert(b.end(), raster.begin(), raster.end());
        return b;
    };
    // 8-bit PPM with a comment in the header.
    const Rgba8Image ppm =
        loadImageFromMemory(bytes("P6\n# made by hand\n2 1\n255\n", {1, 2, 3, 4, 5, 6}), "a.ppm");
    EXPECT_EQ(ppm.pixels, (std::vector<std::uint8_t>{1, 2, 3, 255, 4, 5, 6, 255}));
    // 16-bit PGM with maxval 1023: 0, 512, 1023 -> 0, 128, 255.
    const Rgba8Image pgm =
        loadImageFromMemory(bytes("P5 3 1 1023 ", {0, 0, 2, 0, 3, 255}), "b.pgm");
    EXPECT_EQ(pgm.pixels,
              (std::vector<std::uint8_t>{0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255}));
    // A 16-bit RGB raster: once a heap overflow in stb_image's conversion (tests/fuzz).
    const Rgba8Image rgb16 =
        loadImageFromMemory(bytes("P6 1 1 65535\n", {255, 255, 0, 0, 128, 0}), "c.ppm");
    EXPECT_EQ(rgb16.pixels, (std::vector<std::uint8_t>{255, 0, 128, 255}));

    EXPECT_CONTAINS(errorOf([&] {
                        loadImageFromMemory(bytes("P6 2 2 255\n", {1, 2, 3}), "short.ppm");
                    }),
                    "truncated");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(bytes("P5 0 2 255\n", {}), "zero.pgm"); }),
                    "zero size");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(bytes("P5 2 2 70000\n", {}), "max.pgm"); }),
                    "maxval");
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(bytes("P6 99999 99999 255\n", {}), "big.ppm"); }),
        "clviz loads at most");
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(bytes("P6 2", {}), "cut.ppm"); }), "cut.ppm");
    EXPECT_CONTAINS(
        errorOf([&] { loadImageFromMemory(bytes("P3 1 1 255 1 2 3", {}), "ascii.ppm"); }),
        "PNM P3 (ASCII pixmap) is not read");
}

TEST(ImageIo, JpegWithAnImpossibleHuffmanTableIsRejected) {
    // SOI, then a DHT whose 16 code counts sum to 16 * 255: Debian's stb_image would write past
    // its tables (found by tests/fuzz); the loader refuses it first.
    std::vector<std::uint8_t> jpeg = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x13, 0x00};
    for (int i = 0; i < 16; ++i)
        jpeg.push_back(0xFF);
    jpeg.insert(jpeg.end(), {0xFF, 0xD9});
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(jpeg, "evil.jpg"); }),
                    "Huffman table declares 4080 codes");
    jpeg.insert(jpeg.begin(), {0xFF, 0xFF});  // stb skips fill bytes before SOI too
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(jpeg, "evil.jpg"); }), "Huffman table");
}

TEST(ImageIo, PngChunkLongerThanTheFileIsRejectedBeforeDecoding) {
    // A small PNG whose IDAT declares 1 GiB: Debian's stb_image would allocate 2 GiB for it
    // before noticing the data is missing (found by tests/fuzz); the loader refuses it first.
    std::vector<std::uint8_t> png = encodePng(randomImage(7, 5, 3));
    const std::size_t idat = 8 + 25;  // signature, then the 25-byte IHDR chunk
    ASSERT_EQ(std::string(png.begin() + idat + 4, png.begin() + idat + 8), "IDAT");
    png[idat] = 0x40;  // length 0x40xxxxxx
    EXPECT_CONTAINS(errorOf([&] { loadImageFromMemory(png, "huge.png"); }),
                    "PNG chunk IDAT declares");
}
