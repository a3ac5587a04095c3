// The image lab demo driven directly (hidden GL window, PoCL): the default image or the generated
// pattern when it is missing; every kind of bad input reported while the previous image stays;
// set() keys reaching the chain (result sizes, exact saved pixels against the CPU reference);
// the interop switch falling back to host copy with a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/layout.hpp"
#include "app/image/demo.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/reference.hpp"
#include "tests/app/gui/headless_imgui.hpp"
#include "tests/app/test_frame.hpp"
#include "tests/compute/interop/gl_context.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

namespace clviz {
namespace {

namespace fs = std::filesystem;

const fs::path kAssets = fs::path(CLVIZ_TEST_SOURCE_DIR) / "assets";

fs::path scratch() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("clviz-image-demo-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

struct Notices {
    std::vector<std::string> errors, notes;
    void add(bool isError, const std::string& m) { (isError ? errors : notes).push_back(m); }
    bool anyContains(const std::string& fragment) const {
        for (const auto* list : {&errors, &notes})
            for (const auto& m : *list)
                if (m.find(fragment) != std::string::npos) return true;
        return false;
    }
};

class ImageDemoTest : public test::GlComputeSuite<320, 240> {
  protected:
    static void TearDownTestSuite() {
        GlComputeSuite::TearDownTestSuite();
        fs::remove_all(scratch());
    }
    void SetUp() override {
        GlComputeSuite::SetUp();
        if (HasFatalFailure()) return;
        setenv("CLVIZ_ASSET_DIR", kAssets.c_str(), 1);
    }
    void TearDown() override {
        if (demo_) demo_->shutdown();
        unsetenv("CLVIZ_ASSET_DIR");
    }

    ImageDemo& start(bool offFrame = false) {
        AppServices app;
        app.compute = cc_;
        app.workOffFrame = [offFrame] { return offFrame; };
        app.notify = [this](bool isError, const std::string& m) { notices_.add(isError, m); };
        demo_ = std::make_unique<ImageDemo>();
        demo_->init(app);
        return *demo_;
    }

    void frame(long long index = 0) { test::stepAndDraw(*demo_, index); }

    // What --interop auto gives: no driver here or on the H200 offers gl-sharing; external memory
    // where the device imports it (the H200), else host copy (PoCL).
    InteropPath autoPath() const {
        return cc_->info().hasExtension("cl_khr_external_memory_opaque_fd")
                   ? InteropPath::ExternalMemory
                   : InteropPath::HostCopy;
    }

    // Whether `text` holds one of the '|'-separated fragments.
    static bool containsOneOf(const std::string& text, const std::string& fragments) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t bar = fragments.find('|', start);
            if (text.find(fragments.substr(start, bar - start)) != std::string::npos) return true;
            if (bar == std::string::npos) return false;
            start = bar + 1;
        }
    }

    std::unique_ptr<ImageDemo> demo_;
    Notices notices_;
};

TEST_F(ImageDemoTest, ShowsTheDefaultImage) {
    ImageDemo& demo = start();
    frame();
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_EQ(fs::path(demo.imageLabel()).filename(), "default.png");
    EXPECT_EQ(demo.resultSize(), demo.sourceSize());  // rotate at 0 degrees, cropped
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
    EXPECT_EQ(demo.interopPath(), autoPath());
    // The window title names the picture (issue 27: the title never changed).
    EXPECT_EQ(
        demo.titleStatus().rfind(
            std::to_string(kDefaultImageWidth) + " x " + std::to_string(kDefaultImageHeight), 0),
        0u)
        << demo.titleStatus();
}

TEST_F(ImageDemoTest, AMissingDefaultImageShowsTheGeneratedPatternAndSaysSo) {
    const fs::path empty = scratch() / "no-assets";
    fs::create_directories(empty);
    setenv("CLVIZ_ASSET_DIR", empty.c_str(), 1);
    ImageDemo& demo = start();
    frame();
    EXPECT_EQ(demo.imageLabel(), "generated pattern");
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_TRUE(notices_.anyContains("default.png was not found"));
    EXPECT_TRUE(notices_.anyContains(empty.string()));  // where it looked
}

// Issue 10, item 6: an image wider than the device's image2d limit but within GL's loads and runs
// through the buffer filters; only the image-object rotate variants say they cannot take it.
TEST_F(ImageDemoTest, WiderThanImage2dLoads) {
    if (!cc_->info().imageSupport || cc_->info().image2dMaxWidth == 0 ||
        cc_->info().image2dMaxWidth >= std::size_t(maxGlTextureSize()))
        GTEST_SKIP() << "the image2d limit is not below GL_MAX_TEXTURE_SIZE here";
    ImageDemo& demo = start();
    frame();
    const int wide = int(cc_->info().image2dMaxWidth) + 1;
    const fs::path path = scratch() / "wide.png";
    writeBytes(path, encodePng(makeTestPattern(wide, 3)));
    ASSERT_NO_THROW(demo.set("image", path.string()));
    frame();
    EXPECT_EQ(demo.sourceSize(), (ImageSize{wide, 3}));
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
    ASSERT_NO_THROW(demo.set("rotate-variant", "image"));
    frame();
    ASSERT_FALSE(notices_.errors.empty());
    EXPECT_NE(notices_.errors.back().find("image2d limit"), std::string::npos)
        << notices_.errors.back();
}

TEST_F(ImageDemoTest, BadInputIsReportedAndThePreviousImageStays) {
    ImageDemo& demo = start();
    // The chain runs only on change (issue 27: a failed Open blanked both views this way).
    ASSERT_NO_THROW(demo.set("continuous", "off"));
    frame();
    frame();
    const ImageSize before = demo.sourceSize();
    const ImageSize result = demo.resultSize();
    ASSERT_GT(result.width, 0);
    const std::string label = demo.imageLabel();

    const fs::path dir = scratch();
    const std::vector<std::uint8_t> png = encodePng(makeTestPattern(64, 48));
    writeBytes(dir / "truncated.png", {png.begin(), png.begin() + long(png.size() / 2)});
    writeBytes(dir / "garbage.png", std::vector<std::uint8_t>(500, 0x5a));
    writeBytes(dir / "empty.png", {});
    std::vector<std::uint8_t> corrupt = png;
    for (std::size_t i = 60; i < corrupt.size(); i += 7)
        corrupt[i] ^= 0xff;  // header intact, compressed data scrambled
    writeBytes(dir / "corrupt.png", corrupt);
    writeBytes(dir / "notes.txt", {'h', 'e', 'l', 'l', 'o', '\n'});
    // One pixel wider than a GL texture can be: refused by size, not by decoding. (The OpenCL
    // image2d limit bounds only the image-object rotate variants: WiderThanImage2dLoads.)
    const int tooWide = maxGlTextureSize() + 1;
    writeBytes(dir / "too-wide.png", encodePng(Rgba8Image(tooWide, 1)));

    const std::vector<std::pair<fs::path, std::string>> cases = {
        {dir / "missing.png", "No such file"},
        {dir / "truncated.png", "corrupt or truncated"},
        {dir / "garbage.png", "unsupported"},
        {dir / "empty.png", "empty"},
        {dir / "corrupt.png", "corrupt"},
        {dir / "notes.txt", "unsupported"},
        {dir, "directory"},
        // GL's limit, or clviz's own 32768 a side where GL allows more (NVIDIA: 32768).
        {dir / "too-wide.png", "wider than|pixels a side"},
    };
    for (const auto& [path, fragment] : cases) {
        // The command interface returns the reason (the CLI exits with it)...
        const std::string why = errorOf([&] { demo.set("image", path.string()); });
        EXPECT_TRUE(containsOneOf(why, fragment)) << path << ": '" << why << "'";
        EXPECT_NE(why.find(path.filename().string()), std::string::npos) << why;
        // ...a dropped file decodes on a worker thread (issue 28) and shows the reason as an
        // error notice on the frame after it is done.
        notices_.errors.clear();
        demo.onDrop(path.string());
        for (int i = 0; i < 500 && notices_.errors.empty(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            frame();
        }
        ASSERT_EQ(notices_.errors.size(), 1u) << path;
        EXPECT_TRUE(containsOneOf(notices_.errors[0], fragment)) << notices_.errors[0];
        frame();
        EXPECT_EQ(demo.sourceSize(), before) << path;
        EXPECT_EQ(demo.imageLabel(), label) << path;
        EXPECT_EQ(demo.resultSize(), result) << path << ": the result view went blank";
    }
    // A good file after all that loads, dropped (on the worker) and through the command.
    writeBytes(dir / "good.png", png);
    notices_.errors.clear();
    demo.onDrop((dir / "good.png").string());
    for (int i = 0; i < 500 && demo.imageLabel() != (dir / "good.png").string(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        frame();
    }
    EXPECT_EQ(demo.sourceSize(), (ImageSize{64, 48}));
    EXPECT_TRUE(notices_.errors.empty());
    EXPECT_NO_THROW(demo.set("image", (dir / "good.png").string()));
    frame();
    EXPECT_EQ(demo.sourceSize(), (ImageSize{64, 48}));
}

TEST_F(ImageDemoTest, SettingsReachTheChainAndTheSavedResultMatchesTheReference) {
    ImageDemo& demo = start();
    const fs::path dir = scratch();
    const Rgba8Image source = makeTestPattern(97, 61);  // odd sizes
    writeBytes(dir / "source.png", encodePng(source));
    // --image before the first frame replaces the default.
    ASSERT_NO_THROW(demo.set("image", (dir / "source.png").string()));
    ASSERT_NO_THROW(demo.set("angle", "30"));
    ASSERT_NO_THROW(demo.set("rotate-variant", "buffer-nearest"));
    ASSERT_NO_THROW(demo.set("background", "#ff00ff"));
    frame();
    EXPECT_EQ(demo.resultSize(), (ImageSize{97, 61}));

    RotateParams p;
    p.degrees = 30;
    p.variant = RotateVariant::BufferNearest;
    p.background = {255, 0, 255, 255};
    const Rgba8Image expected = reference::rotate(source, p);
    const fs::path saved = dir / "saved.png";
    ASSERT_NO_THROW(demo.set("save", saved.string()));
    const Rgba8Image got = loadImage(saved.string());
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got.pixels == expected.pixels) << "saved pixels differ from the CPU reference";
    EXPECT_TRUE(notices_.anyContains("saved the result"));

    ASSERT_NO_THROW(demo.set("expand", "on"));
    frame();
    EXPECT_EQ(demo.resultSize(), rotatedSize({97, 61}, 30, RotateFit::Expand));
    ASSERT_NO_THROW(demo.set("filters", "transpose"));
    frame();
    EXPECT_EQ(demo.resultSize(), (ImageSize{61, 97}));
    const fs::path jpeg = dir / "saved.jpg";
    ASSERT_NO_THROW(demo.set("save", jpeg.string()));
    EXPECT_EQ(loadImage(jpeg.string()).size(), (ImageSize{61, 97}));

    EXPECT_NE(errorOf([&] { demo.set("save", (dir / "out.bmp").string()); }).find(".png or .jpg"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { demo.set("save", (dir / "no-such-dir" / "x.png").string()); }), "");
    EXPECT_NE(errorOf([&] { demo.set("angle", "sideways"); }).find("angle in degrees"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { demo.set("nonsense", "1"); }).find("unknown setting"),
              std::string::npos);
}

TEST_F(ImageDemoTest, ForcedGlSharingFallsBackToHostCopyWithAReason) {
    if (cc_->info().hasExtension("cl_khr_gl_sharing")) GTEST_SKIP() << "device has gl sharing";
    ImageDemo& demo = start();
    frame();
    ASSERT_NO_THROW(demo.set("interop", "gl-sharing"));
    frame(1);
    EXPECT_EQ(demo.interopPath(), InteropPath::HostCopy);
    EXPECT_TRUE(notices_.anyContains("cl_khr_gl_sharing")) << "no reason given";
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_EQ(demo.resultSize(), demo.sourceSize());
    ASSERT_NO_THROW(demo.set("interop", "auto"));
    frame(2);
    EXPECT_EQ(demo.interopPath(), autoPath());
}

TEST_F(ImageDemoTest, SpinTurnsTheRotationEveryFrame) {
    ImageDemo& demo = start();
    ASSERT_NO_THROW(demo.set("spin", "60"));
    frame(0);
    const double a0 = findStep(demo.controls().steps, FilterKind::Rotate)->rotate.degrees;
    frame(1);
    const double a1 = findStep(demo.controls().steps, FilterKind::Rotate)->rotate.degrees;
    EXPECT_NEAR(a1 - a0, 1.0, 1e-9);  // 60 deg/s at 1/60 s per frame
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

TEST_F(ImageDemoTest, KeysSteerTheViewAndTheRotation) {
    ImageDemo& demo = start();
    frame();
    auto degrees = [&] {
        return findStep(demo.controls().steps, FilterKind::Rotate)->rotate.degrees;
    };
    EXPECT_TRUE(demo.onKey(GLFW_KEY_M, 0));
    EXPECT_EQ(demo.controls().view.mode, ImageViewMode::Split);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_N, 0));
    EXPECT_EQ(demo.controls().view.magnification, Magnification::Nearest);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_LEFT, 0));
    EXPECT_DOUBLE_EQ(degrees(), 1.0);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_RIGHT, GLFW_MOD_SHIFT));
    EXPECT_DOUBLE_EQ(degrees(), -14.0);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_SPACE, 0));
    EXPECT_NE(demo.controls().spinDegreesPerSecond, 0.0);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_R, 0));
    EXPECT_DOUBLE_EQ(degrees(), 0.0);
    EXPECT_EQ(demo.controls().spinDegreesPerSecond, 0.0);
    PointerEvent scroll;  // zoom in about the cursor
    scroll.type = PointerEvent::Type::Scroll;
    scroll.x = 160;
    scroll.y = 120;
    scroll.dy = 3.0f;
    demo.onPointer(scroll);
    EXPECT_GT(demo.controls().view.zoom, 1.4f);
    EXPECT_TRUE(demo.onKey(GLFW_KEY_0, 0));
    EXPECT_FLOAT_EQ(demo.controls().view.zoom, 1.0f);
    EXPECT_FALSE(demo.onKey(GLFW_KEY_Z, 0));  // not ours: the app may use it
    frame(1);
}

PointerEvent pointer(PointerEvent::Type type, float x, float dx = 0, int button = 0) {
    PointerEvent e;
    e.type = type;
    e.x = x;
    e.y = 120;
    e.dx = dx;
    e.button = button;
    return e;
}

// Issue 11: the lab learns that a drag is over from the release event (it polled GLFW's mouse
// buttons before). A drag that starts on the split divider moves it; after the release, a drag
// elsewhere pans and leaves the divider alone, and moving without a button changes nothing.
TEST_F(ImageDemoTest, ADragEndsOnReleaseAndTheNextOneStartsAfresh) {
    using T = PointerEvent::Type;
    ImageDemo& demo = start();
    ASSERT_NO_THROW(demo.set("view", "split"));
    ASSERT_NO_THROW(demo.set("split", "0.5"));
    frame(0);
    demo.onPointer(pointer(T::Press, 160));  // on the divider (320 px wide, split at half)
    demo.onPointer(pointer(T::Move, 200, 40));
    EXPECT_FLOAT_EQ(demo.controls().view.split, 200.0f / 320.0f);
    EXPECT_FLOAT_EQ(demo.controls().view.panX, 0.0f);
    demo.onPointer(pointer(T::Release, 200));
    frame(1);

    demo.onPointer(pointer(T::Press, 40));  // far from the divider: a pan
    demo.onPointer(pointer(T::Move, 50, 10));
    EXPECT_FLOAT_EQ(demo.controls().view.panX, 10.0f);
    EXPECT_FLOAT_EQ(demo.controls().view.split, 200.0f / 320.0f);
    demo.onPointer(pointer(T::Release, 50));
    demo.onPointer(pointer(T::Move, 90, 40, -1));  // hovering
    EXPECT_FLOAT_EQ(demo.controls().view.panX, 10.0f);
    EXPECT_FLOAT_EQ(demo.controls().view.split, 200.0f / 320.0f);
    frame(2);
}

// Issue 27: with the app's leave the start (the default image decoded, the chain's kernels built
// by a first run) runs off the frame, frames go on with its progress line, and the lab afterwards
// is the one a start inside the frame makes.
class ImageStartTest : public ImageDemoTest {
  protected:
    // One frame as the app runs it (GUI, step, draw); returns the frame's GUI layout.
    std::string guiFrame(long long index) { return test::guiFrame(*demo_, index); }
    // Frames until the start is done; how many showed the progress line.
    int framesUntilStarted(long long* index) {
        int shown = 0;
        for (int i = 0; i < 100000 && !demo_->progressLine().empty(); ++i) {
            if (guiFrame((*index)++).find("##image-progress/text") != std::string::npos) ++shown;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a frame's worth
        }
        return shown;
    }
};

TEST_F(ImageStartTest, TheStartRunsOffTheFrameWithItsProgress) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    ImageDemo& demo = start(true);  // returns before the image is decoded and the chain built
    EXPECT_EQ(demo.progressLine().rfind("Starting the image lab", 0), 0u) << demo.progressLine();
    EXPECT_EQ(demo.sourceSize(), ImageSize{}) << "init loaded the image inside the frame";
    long long index = 0;
    const int shown = framesUntilStarted(&index);
    ASSERT_TRUE(demo.progressLine().empty()) << "the start never finished";
    EXPECT_GE(shown, 1);
    // The frame that saw the job done showed the image and ran the chain, as a first step does.
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_EQ(fs::path(demo.imageLabel()).filename(), "default.png");
    EXPECT_EQ(demo.resultSize(), demo.sourceSize());
    const std::string layout = guiFrame(index++);
    EXPECT_EQ(layout.find("##image-progress"), std::string::npos) << layout;
    EXPECT_NE(layout.find("Histogram/R caption"), std::string::npos) << layout;
    const Demo::ReferenceResult r = demo.checkReference();
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
}

TEST_F(ImageStartTest, AMissingDefaultImageOffTheFrameShowsThePatternAndSaysSo) {
    const fs::path empty = scratch() / "no-assets-off-frame";
    fs::create_directories(empty);
    setenv("CLVIZ_ASSET_DIR", empty.c_str(), 1);
    test::HeadlessImGui imgui(ImVec2(320, 240));
    ImageDemo& demo = start(true);
    ASSERT_FALSE(demo.progressLine().empty());
    long long index = 0;
    framesUntilStarted(&index);
    EXPECT_EQ(demo.imageLabel(), "generated pattern");
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_TRUE(notices_.anyContains("default.png was not found"));
}

TEST_F(ImageStartTest, ASettingDuringTheStartWaitsForIt) {
    ImageDemo& demo = start(true);
    ASSERT_FALSE(demo.progressLine().empty());
    ASSERT_NO_THROW(demo.set("continuous", "off"));
    EXPECT_TRUE(demo.progressLine().empty()) << "the setting did not wait for the start";
    EXPECT_EQ(demo.sourceSize(), (ImageSize{kDefaultImageWidth, kDefaultImageHeight}));
    EXPECT_FALSE(demo.controls().continuous);
    frame();
    EXPECT_EQ(demo.resultSize(), demo.sourceSize());
    EXPECT_TRUE(demo.checkReference().ok);
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
}

TEST_F(ImageStartTest, QuittingMidStartReturnsPromptly) {
    ImageDemo& demo = start(true);
    ASSERT_FALSE(demo.progressLine().empty());
    // As the app's quit does: cancels the job at its next step.
    const double seconds = test::secondsToShutDown(demo);
    demo_.reset();
    EXPECT_LT(seconds, 30) << "the quit waited for the whole start";
}

}  // namespace
}  // namespace clviz
