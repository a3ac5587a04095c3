// Writes the image lab's default picture: `clviz-make-default-image [FILE]` (default
// assets/default.png next to this file's directory when run from the repository root).
// The committed assets/default.png is this program's output; image_pattern_test checks they agree.
#include <cstdio>
#include <string>

#include "common/error.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/pattern.hpp"

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "assets/default.png";
    try {
        const auto image =
            clviz::makeTestPattern(clviz::kDefaultImageWidth, clviz::kDefaultImageHeight);
        clviz::saveImage(path, image);
        std::printf("wrote %s (%d x %d)\n", path.c_str(), image.width, image.height);
        return 0;
    } catch (const clviz::Error& e) {
        std::fprintf(stderr, "clviz-make-default-image: %s\n", e.what());
        return 1;
    }
}
