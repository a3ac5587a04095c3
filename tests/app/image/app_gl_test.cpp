// End to end under Xvfb: the real viewer (runApp, as `clviz` runs it) on the image lab.
//  - `--demo image --set angle=30` shows the default image and its rotation: the screenshot's
//    source pane holds assets/default.png, its result pane the CPU reference rotation, the
//    result's corners the background colour, and the two panes differ;
//  - `--save` writes the result at the expected size (cropped and expanded);
//  - bad --image paths exit non-zero with a clear message.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "app/run_app.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/reference.hpp"
#include "render/image/layout.hpp"
#include "tests/app/rgb_png.hpp"

namespace clviz {
namespace {

namespace fs = std::filesystem;

const fs::path kAssets = fs::path(CLVIZ_TEST_SOURCE_DIR) / "assets";

fs::path scratch(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("clviz-image-e2e-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir / name;
}

bool near(const std::array<int, 3>& a, const std::uint8_t* b, int tolerance) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(a[c] - int(b[c])) > tolerance) return false;
    return true;
}

bool near(const std::array<int, 3>& a, const std::array<int, 3>& b, int tolerance) {
    const std::uint8_t bb[3] = {std::uint8_t(b[0]), std::uint8_t(b[1]), std::uint8_t(b[2])};
    return near(a, bb, tolerance);
}

// Share of sample points inside `pane` whose screen colour is the image's texel under them
// (nearest magnification: one texel per screen pixel; a neighbour is accepted where the pixel
// centre falls on a texel edge).
double matchShare(const test::RgbImage& shot, const ImagePane& pane, float scale,
                  const Rgba8Image& image) {
    int samples = 0, matches = 0;
    for (int sy = 0; sy < 24; ++sy)
        for (int sx = 0; sx < 24; ++sx) {
            const float x = pane.image.x0 + 2 + (pane.image.width() - 4) * (sx + 0.5f) / 24;
            const float y = pane.image.y0 + 2 + (pane.image.height() - 4) * (sy + 0.5f) / 24;
            const int px = int(x), py = int(y);
            const int tx = int((px + 0.5f - pane.image.x0) / scale);
            const int ty = int((py + 0.5f - pane.image.y0) / scale);
            ++samples;
            bool hit = false;
            for (int dy = -1; dy <= 1 && !hit; ++dy)
                for (int dx = -1; dx <= 1 && !hit; ++dx) {
                    const int u = std::clamp(tx + dx, 0, image.width - 1);
                    const int v = std::clamp(ty + dy, 0, image.height - 1);
                    hit = near(shot.at(px, py), image.at(u, v), 3);
                }
            matches += hit;
        }
    return double(matches) / samples;
}

std::string captureStatus(const std::vector<std::string>& args, int& status) {
    testing::internal::CaptureStderr();
    status = runApp(args);
    return testing::internal::GetCapturedStderr();
}

// Each runApp opens and closes its own X connection. Xvfb resets itself when its last client
// leaves, and a connection made during the reset fails ("cannot open display"): one connection
// held for the whole run keeps the server from resetting between runs. (libX11 is loaded at run
// time because only GLFW links it.)
class HoldXConnection : public ::testing::Environment {
  public:
    void SetUp() override {
        lib_ = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
        if (!lib_) return;
        using Open = void* (*)(const char*);
        if (auto open = reinterpret_cast<Open>(dlsym(lib_, "XOpenDisplay")))
            display_ = open(nullptr);
    }
    void TearDown() override {
        using Close = int (*)(void*);
        if (display_)
            if (auto close = reinterpret_cast<Close>(dlsym(lib_, "XCloseDisplay"))) close(display_);
        display_ = nullptr;
    }

  private:
    void* lib_ = nullptr;
    void* display_ = nullptr;
};
const auto* const kHoldX = ::testing::AddGlobalTestEnvironment(new HoldXConnection);

class ImageApp : public ::testing::Test {
  protected:
    void SetUp() override { setenv("CLVIZ_ASSET_DIR", kAssets.c_str(), 1); }
    void TearDown() override { unsetenv("CLVIZ_ASSET_DIR"); }
};

TEST_F(ImageApp, ScreenshotShowsTheDefaultImageAndItsRotation) {
    const fs::path shot = scratch("rotated.png");
    const fs::path saved = scratch("rotated-result.png");
    const int status = runApp({"--demo",       "image",
                               "--width",      "640",
                               "--height",     "480",
                               "--vsync",      "off",
                               "--frames",     "3",
                               "--set",        "app.gui=off",
                               "--set",        "angle=30",
                               "--set",        "rotate-variant=buffer-nearest",
                               "--set",        "background=#ff00ff",
                               "--set",        "magnification=nearest",
                               "--screenshot", shot.string(),
                               "--save",       saved.string()});
    ASSERT_EQ(status, 0);
    const test::RgbImage img = test::loadRgbPng(shot);
    ASSERT_EQ(img.w, 640) << "no screenshot at " << shot;
    ASSERT_EQ(img.h, 480);

    const Rgba8Image source = loadImage((kAssets / "default.png").string());
    RotateParams p;
    p.degrees = 30;
    p.variant = RotateVariant::BufferNearest;
    p.background = {255, 0, 255, 255};
    const Rgba8Image rotated = reference::rotate(source, p);
    // Where the view put the two images (no GUI: the whole window, side by side).
    const ImageLayout l = layoutImages(ImageViewState{}, 640, 480, source.width, source.height,
                                       rotated.width, rotated.height);

    // Not blank: the source pane is full of different colours.
    std::set<int> colours;
    for (int y = int(l.source.image.y0) + 2; y < int(l.source.image.y1) - 2; y += 3)
        for (int x = int(l.source.image.x0) + 2; x < int(l.source.image.x1) - 2; x += 3) {
            const auto c = img.at(x, y);
            colours.insert((c[0] / 8) << 10 | (c[1] / 8) << 5 | (c[2] / 8));
        }
    EXPECT_GT(colours.size(), 100u) << "the source pane is (nearly) blank";

    // The panes show the default image and its rotation, texel for texel.
    EXPECT_GT(matchShare(img, l.source, l.scale, source), 0.97) << "source pane != default.png";
    EXPECT_GT(matchShare(img, l.result, l.scale, rotated), 0.97)
        << "result pane != the reference rotation";

    // The result differs from the source at most places.
    int differ = 0, samples = 0;
    const float dx = l.result.image.x0 - l.source.image.x0;
    for (int y = int(l.source.image.y0) + 2; y < int(l.source.image.y1) - 2; y += 5)
        for (int x = int(l.source.image.x0) + 2; x < int(l.source.image.x1) - 2; x += 5, ++samples)
            differ += !near(img.at(x, y), img.at(x + int(dx), y), 12);
    EXPECT_GT(double(differ) / samples, 0.5) << "the result looks like the source: not rotated";

    // The crop's corners show the background colour; its centre shows the picture.
    const std::array<int, 3> magenta = {255, 0, 255};
    const PixelRect& r = l.result.image;
    for (auto [x, y] : {std::pair{r.x0 + 3, r.y0 + 3}, std::pair{r.x1 - 4, r.y0 + 3},
                        std::pair{r.x0 + 3, r.y1 - 4}, std::pair{r.x1 - 4, r.y1 - 4}})
        EXPECT_TRUE(near(img.at(int(x), int(y)), magenta, 8))
            << "corner (" << x << ", " << y << ") is not the background colour";
    EXPECT_FALSE(near(img.at(int((r.x0 + r.x1) / 2), int((r.y0 + r.y1) / 2)), magenta, 40));

    // Between and around the panes: the window's clear colour, no stray drawing.
    const auto clear = img.at(int(l.source.clip.x1) + 3, int(l.source.image.y0) + 10);
    EXPECT_LT(std::max({clear[0], clear[1], clear[2]}), 30);

    // --save wrote exactly the rotation.
    const Rgba8Image got = loadImage(saved.string());
    EXPECT_EQ(got.size(), rotated.size());
    EXPECT_TRUE(got.pixels == rotated.pixels) << "--save wrote other pixels than the reference";
    fs::remove(shot);
    fs::remove(saved);
}

TEST_F(ImageApp, SaveWritesTheExpandedResult) {
    const fs::path saved = scratch("expanded.png");
    const int status = runApp({"--demo", "image", "--width", "320", "--height", "240", "--frames",
                               "2", "--set", "app.gui=off", "--set", "angle=-45", "--set",
                               "expand=on", "--save", saved.string()});
    ASSERT_EQ(status, 0);
    const Rgba8Image got = loadImage(saved.string());
    EXPECT_EQ(got.size(), rotatedSize({1024, 768}, -45, RotateFit::Expand));
    fs::remove(saved);
}

TEST_F(ImageApp, BadImagePathsExitNonZeroWithAClearMessage) {
    const fs::path garbage = scratch("garbage.png");
    {
        std::FILE* f = std::fopen(garbage.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fputs("this is not a picture", f);
        std::fclose(f);
    }
    const std::vector<std::pair<std::string, std::string>> cases = {
        {scratch("missing.png").string(), "No such file or directory"},
        {garbage.string(), "unsupported or unrecognized format"},
        {scratch("").string(), "it is a directory"},
    };
    for (const auto& [path, fragment] : cases) {
        int status = 0;
        const std::string err = captureStatus({"--demo", "image", "--width", "320", "--height",
                                               "240", "--frames", "2", "--image", path},
                                              status);
        EXPECT_NE(status, 0) << path;
        EXPECT_NE(err.find("cannot load image '" + path + "'"), std::string::npos) << err;
        EXPECT_NE(err.find(fragment), std::string::npos) << err;
    }
    // A bad --save target fails the run too.
    int status = 0;
    const std::string err = captureStatus({"--demo", "image", "--width", "320", "--height", "240",
                                           "--frames", "1", "--save", scratch("x.tiff").string()},
                                          status);
    EXPECT_NE(status, 0);
    EXPECT_NE(err.find("use .png or .jpg"), std::string::npos) << err;
    fs::remove_all(scratch("").parent_path());
}

}  // namespace
}  // namespace clviz
