// Writes a small seed corpus for the fuzz targets: one tiny valid file per image format clviz
// reads, made here (stb_image_write and hand-written bytes), so the fuzzer starts inside every
// decoder, N-body snapshots (clviz format, TIPSY in both byte orders) and ENVI cubes.
#include <stb/stb_image_write.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compute/nbody/snapshot.hpp"

namespace {

bool writeBytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const int w = 7, h = 5;
    std::vector<std::uint8_t> rgba(w * h * 4);
    std::vector<float> hdr(w * h * 3);
    for (int i = 0; i < w * h * 4; ++i)
        rgba[i] = static_cast<std::uint8_t>(i * 37 + 11);
    for (int i = 0; i < w * h * 3; ++i)
        hdr[i] = 0.01f * static_cast<float>(i * i);

    bool ok = true;
    ok &= stbi_write_png((dir + "/rgba.png").c_str(), w, h, 4, rgba.data(), w * 4) != 0;
    ok &= stbi_write_png((dir + "/grey.png").c_str(), w, h, 1, rgba.data(), w) != 0;
    ok &= stbi_write_png((dir + "/grey_alpha.png").c_str(), w, h, 2, rgba.data(), w * 2) != 0;
    ok &= stbi_write_bmp((dir + "/rgb.bmp").c_str(), w, h, 3, rgba.data()) != 0;
    ok &= stbi_write_bmp((dir + "/rgba.bmp").c_str(), w, h, 4, rgba.data()) != 0;
    ok &= stbi_write_tga((dir + "/rgba.tga").c_str(), w, h, 4, rgba.data()) != 0;
    stbi_write_tga_with_rle = 0;
    ok &= stbi_write_tga((dir + "/raw.tga").c_str(), w, h, 3, rgba.data()) != 0;
    ok &= stbi_write_jpg((dir + "/rgb.jpg").c_str(), w, h, 3, rgba.data(), 80) != 0;
    ok &= stbi_write_jpg((dir + "/grey.jpg").c_str(), w, h, 1, rgba.data(), 50) != 0;
    ok &= stbi_write_hdr((dir + "/ramp.hdr").c_str(), w, h, 3, hdr.data()) != 0;
    // 1 x 1 GIF87a, palette {red, black}, pixel 0.
    ok &= writeBytes(dir + "/tiny.gif",
                     {'G', 'I', 'F', '8', '7', 'a', 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0,    0, 0,  0,
                      0,   ',', 0,   0,   0,   0,   1, 0, 1, 0, 0,    2, 2, 0x44, 0x01, 0, ';'});
    // 2 x 1 RGB PSD, raw planar data.
    ok &=
        writeBytes(dir + "/tiny.psd", {'8', 'B', 'P', 'S', 0, 1, 0, 0, 0,  0,  0,  0,  0,  3, 0, 0,
                                       0,   1,   0,   0,   0, 2, 0, 8, 0,  3,  0,  0,  0,  0, 0, 0,
                                       0,   0,   0,   0,   0, 0, 0, 0, 10, 20, 30, 40, 50, 60});
    // 2 x 2 binary PGM and PPM.
    ok &= writeBytes(dir + "/tiny.pgm",
                     {'P', '5', '\n', '2', ' ', '2', '\n', '2', '5', '5', '\n', 0, 64, 128, 255});
    ok &= writeBytes(dir + "/tiny.ppm", {'P', '6', '\n', '1', ' ', '2', '\n', '2', '5', '5', '\n',
                                         255, 0, 0, 0, 255, 0});
    // Run-length TGA and HDR (widths from 8 use stb's RLE scanlines), a larger GIF-free set.
    stbi_write_tga_with_rle = 1;
    std::vector<std::uint8_t> wide(19 * 3 * 4);
    std::vector<float> wideHdr(19 * 3 * 3);
    for (std::size_t i = 0; i < wide.size(); ++i)
        wide[i] = static_cast<std::uint8_t>(i / 8);
    for (std::size_t i = 0; i < wideHdr.size(); ++i)
        wideHdr[i] = 0.1f * static_cast<float>(i % 11);
    ok &= stbi_write_tga((dir + "/rle.tga").c_str(), 19, 3, 4, wide.data()) != 0;
    ok &= stbi_write_hdr((dir + "/rle.hdr").c_str(), 19, 3, 3, wideHdr.data()) != 0;
    // Snapshots: 3 bodies in clviz format, and TIPSY (1 gas, 1 dark, 1 star) both byte orders.
    clviz::NbodySnapshot snap;
    snap.dt = 0.01f;
    for (int i = 0; i < 3; ++i) {
        clviz::Body b;
        b.pos = {0.5f * i, -1.0f, 2.0f, 1.0f + i};
        b.vel = {0.1f, 0.2f * i, 0.0f, 0.0f};
        snap.bodies.push_back(b);
    }
    ok &= writeBytes(dir + "/three.clviz", [&] {
        const auto s = clviz::serializeClvizSnapshot(snap);
        return std::vector<std::uint8_t>(s.begin(), s.end());
    }());
    for (bool big : {false, true}) {
        std::vector<std::uint8_t> t;
        auto u32 = [&](std::uint32_t v) {
            for (int i = 0; i < 4; ++i)
                t.push_back(static_cast<std::uint8_t>(v >> (8 * (big ? 3 - i : i))));
        };
        for (int i = 0; i < 8; ++i)
            t.push_back(0);  // time 0
        for (std::uint32_t v : {3u, 3u, 1u, 1u, 1u, 0u})
            u32(v);
        for (int fields : {12, 9, 11})  // gas, dark, star records
            for (int f = 0; f < fields; ++f)
                u32(f < 4 ? 0x3f800000u : 0x3dcccccdu);  // 1.0, then 0.1
        ok &= writeBytes(dir + (big ? "/be.tipsy" : "/le.tipsy"), t);
    }
    // ENVI (fuzz_envi): the header text, a NUL, then the data file's bytes.
    auto envi = [&](const std::string& name, const std::string& header, std::size_t dataBytes) {
        std::vector<std::uint8_t> b(header.begin(), header.end());
        b.push_back(0);
        for (std::size_t i = 0; i < dataBytes; ++i)
            b.push_back(static_cast<std::uint8_t>(i * 37 + 11));
        ok &= writeBytes(dir + "/" + name + ".envi", b);
    };
    envi("u8_bsq", "ENVI\nsamples = 3\nlines = 2\nbands = 4\ndata type = 1\ninterleave = bsq\n",
         24);
    envi("i16_bil_big",
         "ENVI\n; comment\nSamples = 2\nlines = 3\nbands = 2\ndata type = 2\n"
         "interleave = bil\nbyte order = 1\nwavelength = {400,\n 500}\nbbl = {1, 0}\n",
         24);
    envi("f32_bip_offset",
         "ENVI\nsamples = 2\nlines = 2\nbands = 3\ndata type = 4\ninterleave = bip\n"
         "byte order = 0\nheader offset = 5\nband names = {a, b, c}\nfwhm = {1, 2, 3}\n"
         "description = {two\nlines}\ndata ignore value = -1\n",
         5 + 48);
    envi("f64_u16_u32", "ENVI\nsamples = 1\nlines = 1\nbands = 2\ndata type = 5\n", 16);
    envi("u32", "ENVI\nsamples = 2\nlines = 1\nbands = 1\ndata type = 13\nbyte order = 1\n", 8);
    if (!ok) {
        std::fprintf(stderr, "make_seed_corpus: cannot write into %s\n", dir.c_str());
        return 1;
    }
    return 0;
}
