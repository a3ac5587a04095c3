// The PSD row of before-after.md: how many pixels of a 16-bit RLE PSD differ from its raw twin,
// through stb alone (what 56f6169 did) and through clviz's loadImage. Build from the repository
// root:
//   g++ -std=c++20 -O1 -I. docs/bench/issue28/psd_compare.cpp compute/image/io/*.cpp \
//       common/bounded_file.cpp common/quoted_path.cpp -lstb -o /tmp/psd_compare
//   /tmp/psd_compare /tmp/issue28/psd16_rle.psd /tmp/issue28/psd16_raw.psd
#include <stb/stb_image.h>
#include <cstdio>
#include "compute/image/io/image_io.hpp"
int main(int, char** argv) {
    int w, h, c, w2, h2;
    unsigned char* a = stbi_load(argv[1], &w, &h, &c, 4);    // stb alone: the old path
    unsigned char* b = stbi_load(argv[2], &w2, &h2, &c, 4);  // the raw twin through stb
    long wrong = 0;
    for (long i = 0; i < long(w) * h; ++i)
        for (int k = 0; k < 4; ++k)
            if (a[4 * i + k] != b[4 * i + k]) {
                ++wrong;
                break;
            }
    std::printf("stb alone: %ld of %ld pixels differ from the raw twin\n", wrong, long(w) * h);
    auto x = clviz::loadImage(argv[1]), y = clviz::loadImage(argv[2]);
    wrong = 0;
    for (long i = 0; i < long(w) * h; ++i)
        for (int k = 0; k < 4; ++k)
            if (x.pixels[4 * i + k] != y.pixels[4 * i + k]) {
                ++wrong;
                break;
            }
    std::printf("clviz loadImage: %ld of %ld pixels differ\n", wrong, long(w) * h);
}
