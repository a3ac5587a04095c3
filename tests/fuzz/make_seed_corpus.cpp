// Writes a small seed corpus for fuzz_image_load: one tiny valid file per format stb_image reads,
// made here (stb_image_write and hand-written bytes), so the fuzzer starts inside every decoder.
#include <stb/stb_image_write.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

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
    if (!ok) {
        std::fprintf(stderr, "make_seed_corpus: cannot write into %s\n", dir.c_str());
        return 1;
    }
    return 0;
}
