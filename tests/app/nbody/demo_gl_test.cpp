// NbodyDemo driven directly (the test hook): every set() key refuses bad values with a reason,
// pause and single steps advance exactly, forced interop paths fall back with a notice, all
// colour modes draw, the panels run, and snapshots round-trip through save/load.
#include "app/nbody/demo.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/layout.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/snapshot.hpp"
#include "tests/app/gui/headless_imgui.hpp"
#include "tests/app/test_frame.hpp"
#include "tests/compute/interop/gl_context.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

namespace clviz {
namespace {

namespace fs = std::filesystem;

struct Notices {
    std::vector<std::string> errors, notices;
};

class NbodyDemoTest : public test::GlComputeSuite<320, 240> {
  protected:
    void SetUp() override {
        GlComputeSuite::SetUp();
        if (HasFatalFailure()) return;
        AppServices app;
        app.compute = cc_;
        platforms_ = queryPlatforms();
        app.platforms = &platforms_;
        app.drawingDevice = cc_->choice();
        app.notify = [this](bool isError, const std::string& m) {
            (isError ? notices_.errors : notices_.notices).push_back(m);
        };
        app.workOffFrame = [this] { return offFrame_; };
        app_ = app;
        demo_ = std::make_unique<NbodyDemo>();
        demo_->init(app);
        ASSERT_NO_THROW(demo_->set("diagnostics", "0"));
    }
    void TearDown() override {
        if (demo_) demo_->shutdown();
        demo_.reset();
    }

    FrameInfo frame(long long index) { return test::testFrame(index); }
    void runFrame(long long index) {
        FrameInfo f = frame(index);
        demo_->step(f);
        glViewport(0, 0, 320, 240);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        demo_->draw(f);
        demo_->beforePresent(f);  // as the app does before the swap
        demo_->frameEnd(f);       // and after it
    }
    double savedTime() {
        const fs::path p = fs::temp_directory_path() / "clviz-nbody-demo-test.clviz";
        EXPECT_NO_THROW(demo_->set("save", p.string()));
        const double t = loadSnapshot(p.string()).time;
        fs::remove(p);
        return t;
    }
    std::vector<Body> savedBodies() {
        const fs::path p = fs::temp_directory_path() / "clviz-nbody-demo-test-bodies.clviz";
        EXPECT_NO_THROW(demo_->set("save", p.string()));
        std::vector<Body> bodies = loadSnapshot(p.string()).bodies;
        fs::remove(p);
        return bodies;
    }
    // Share of lit pixels in the back buffer.
    double litShare() {
        std::vector<unsigned char> px(320 * 240 * 4);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, 320, 240, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        long lit = 0;
        for (std::size_t i = 0; i < px.size(); i += 4)
            lit += std::max({px[i], px[i + 1], px[i + 2]}) > 30;
        return double(lit) / (320.0 * 240.0);
    }

    Notices notices_;
    bool offFrame_ = false;  // AppServices::workOffFrame: the tests of work off the frame set it
    AppServices app_;
    std::unique_ptr<NbodyDemo> demo_;
    std::vector<PlatformInfo> platforms_;
};

TEST_F(NbodyDemoTest, BadValuesAreRefusedWithAReason) {
    const struct {
        const char* key;
        const char* value;
        const char* expect;
    } cases[] = {
        {"n", "0", "n must be in 1"},
        {"n", "12abc", "integer"},
        {"n", "", "integer"},
        {"n", "99999999999", "n must be in"},
        {"preset", "galaxy", "galaxy"},
        {"seed", "-1", "seed must be in"},
        {"variant", "fastest", "fastest"},
        {"wg", "-4", "wg must be in"},
        {"wg", "48", ""},  // not a power of two: the engine says so (any message)
        {"integrator", "euler", "euler"},
        {"precision", "half", "float or double"},
        {"interop", "zero-copy", "host-copy"},
        {"dt", "0", "dt must be in (0"},
        {"dt", "nan", "number"},
        {"dt", "1e-3x", "number"},
        {"softening", "-0.1", "softening must be in"},
        {"damping", "0", "damping must be in (0"},
        {"damping", "1.5", "damping must be in"},
        {"steps", "0", "steps must be in 1"},
        {"pause", "maybe", "on or off"},
        {"step", "0", "step must be in 1"},
        {"colour", "pink", "speed, mass or fixed"},
        {"colourmap", "jet", "inferno"},
        {"particles", "dots", "auto, splat or sprites"},
        {"size", "0", "size must be in (0"},
        {"latency", "2", "latency must be in 0"},
        {"camera", "spin", "reset"},
        {"record", "/proc/clviz-cannot-create/here", "cannot create"},
        {"load", "/nonexistent/clviz.snap", "nonexistent"},
        {"warp-speed", "9", "unknown N-body setting"},
    };
    for (const auto& c : cases) {
        const std::string why = errorOf([&] { demo_->set(c.key, c.value); });
        EXPECT_FALSE(why.empty()) << c.key << "=" << c.value << " was accepted";
        EXPECT_NE(why.find(c.expect), std::string::npos)
            << c.key << "=" << c.value << " said: " << why;
    }
    // Good values are taken.
    for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{{"n", "100"},
                                                                        {"preset", "plummer"},
                                                                        {"variant", "tiled"},
                                                                        {"wg", "32"},
                                                                        {"integrator", "taylor"},
                                                                        {"dt", "0.001"},
                                                                        {"softening", "0.1"},
                                                                        {"damping", "0.999"},
                                                                        {"steps", "3"},
                                                                        {"colour", "mass"},
                                                                        {"colourmap", "viridis"},
                                                                        {"camera", "reset"},
                                                                        {"interop", "host-copy"}})
        EXPECT_NO_THROW(demo_->set(k, v)) << k << "=" << v;
}

// Every row of the settings table with a good value; a key added without one here fails.
TEST_F(NbodyDemoTest, EverySettingInTheTableApplies) {
    const fs::path snap = fs::temp_directory_path() / "clviz-nbody-every-setting.clviz";
    const std::vector<std::pair<std::string, std::string>> good = {
        {"n", "64"},
        {"preset", "plummer"},
        {"seed", "3"},
        {"variant", "tiled"},
        {"wg", "32"},
        {"unroll", "2"},
        {"bpi", "2"},
        {"split", "2"},
        {"integrator", "taylor"},
        {"precision", "float"},
        {"dt", "0.001"},
        {"theta", "0.7"},
        {"theta-far", "0.3"},
        {"softening", "0.1"},
        {"damping", "0.999"},
        {"steps", "2"},
        {"pause", "on"},
        {"step", "1"},
        {"reset", "1"},
        {"colour", "mass"},
        {"colourmap", "ice"},
        {"particles", "splat"},
        {"size", "2"},
        {"brightness", "2"},
        {"diagnostics", "5"},
        {"diagnostics-panel", "on"},
        {"latency", "1"},
        {"take-turns", "off"},
        {"take-turns-at", "present"},
        {"tree-integrate", "owners"},
        {"tree-build", "split"},
        {"record", "off"},
        {"save", snap.string()},
        {"load", snap.string()},
        {"camera", "reset"},
        {"autotune", "0.01"},
        {"interop", "host-copy"},
        {"interop-panel", "open"},
        {"assume-gl-sharing", "off"},
        {"assume-external-memory", "off"},
        {"compare", "run"},
        {"devices", ""},  // the drawing device alone; DevicesSettingRestartsKeepingTheBodies splits
    };
    for (const SettingDoc& d : NbodyDemo::settings().docs()) {
        const auto it = std::find_if(good.begin(), good.end(),
                                     [&](const auto& kv) { return kv.first == d.key; });
        ASSERT_NE(it, good.end()) << "no good value for " << d.key << " in this test";
    }
    for (const auto& [key, value] : good)
        EXPECT_NO_THROW(demo_->set(key, value)) << key << "=" << value;
    EXPECT_NO_THROW(demo_->set("color", "speed"));  // the aliases
    EXPECT_NO_THROW(demo_->set("colormap", "inferno"));
    fs::remove(snap);
    const std::string why = errorOf([&] { demo_->set("warp-speed", "9"); });
    for (const SettingDoc& d : NbodyDemo::settings().docs())
        EXPECT_NE(why.find(d.key), std::string::npos) << d.key << " missing from: " << why;
}

// The devices setting (--devices) restarts the system on every device of the set, keeping the
// bodies as they were, N and the other settings; a set with a missing device is refused with the
// reason and the previous set runs on.
TEST_F(NbodyDemoTest, DevicesSettingRestartsKeepingTheBodies) {
    std::size_t deviceCount = 0;
    for (const PlatformInfo& p : platforms_)
        deviceCount += p.devices.size();
    ASSERT_NO_THROW(demo_->set("preset", "cube"));
    ASSERT_NO_THROW(demo_->set("n", "67"));
    ASSERT_NO_THROW(demo_->set("dt", "0.01"));
    runFrame(0);
    runFrame(1);
    EXPECT_TRUE(demo_->extraDevices().empty());
    ASSERT_TRUE(demo_->deviceSetSection());
    EXPECT_EQ(demo_->deviceSetSection()->devices.size(), 1u);
    const std::vector<Body> before = savedBodies();

    ASSERT_NO_THROW(demo_->set("devices", "all"));
    EXPECT_EQ(demo_->extraDevices().size(), deviceCount - 1);
    EXPECT_EQ(demo_->deviceSetSection()->devices.size(), deviceCount);
    EXPECT_EQ(demo_->deviceSetSection()->settingKey, "devices");
    const std::vector<Body> after = savedBodies();
    ASSERT_EQ(after.size(), 67u) << "N was not kept";
    for (std::size_t i = 0; i < after.size(); ++i)
        ASSERT_EQ(after[i].pos.x, before[i].pos.x) << "the restart lost body " << i;
    const double t0 = savedTime();
    runFrame(2);
    EXPECT_NEAR(savedTime() - t0, 0.01, 1e-6) << "dt was not kept";

    const std::string why = errorOf([&] { demo_->set("devices", "0.99"); });
    EXPECT_NE(why.find("0.99"), std::string::npos) << why;
    EXPECT_EQ(demo_->extraDevices().size(), deviceCount - 1) << "the previous set did not stay";
    EXPECT_EQ(savedBodies().size(), 67u);
    const double t1 = savedTime();
    runFrame(3);
    EXPECT_NEAR(savedTime() - t1, 0.01, 1e-6);
}

TEST_F(NbodyDemoTest, PauseAndSingleStepsAdvanceExactly) {
    ASSERT_NO_THROW(demo_->set("preset", "cube"));
    ASSERT_NO_THROW(demo_->set("n", "64"));
    ASSERT_NO_THROW(demo_->set("dt", "0.01"));
    runFrame(0);
    runFrame(1);
    EXPECT_NEAR(savedTime(), 0.02, 1e-6);
    ASSERT_NO_THROW(demo_->set("pause", "on"));
    runFrame(2);
    runFrame(3);
    EXPECT_NEAR(savedTime(), 0.02, 1e-6) << "paused but the state moved";
    ASSERT_NO_THROW(demo_->set("step", "3"));
    runFrame(4);
    runFrame(5);
    EXPECT_NEAR(savedTime(), 0.05, 1e-6);
    ASSERT_NO_THROW(demo_->set("pause", "off"));
    ASSERT_NO_THROW(demo_->set("steps", "4"));
    runFrame(6);
    EXPECT_NEAR(savedTime(), 0.09, 1e-6);
    // Parameters and kernels change without a reset; a new N rebuilds.
    ASSERT_NO_THROW(demo_->set("variant", "naive"));
    ASSERT_NO_THROW(demo_->set("dt", "0.02"));
    runFrame(7);
    EXPECT_NEAR(savedTime(), 0.17, 1e-6);
    ASSERT_NO_THROW(demo_->set("n", "65"));
    EXPECT_NEAR(savedTime(), 0.0, 1e-9);
}

TEST_F(NbodyDemoTest, ForcedUnavailablePathsFallBackWithANotice) {
    if (cc_->info().hasExtension("cl_khr_gl_sharing")) GTEST_SKIP() << "device can share";
    ASSERT_NO_THROW(demo_->set("n", "128"));
    notices_.errors.clear();
    EXPECT_NO_THROW(demo_->set("interop", "gl-sharing"));
    ASSERT_FALSE(notices_.errors.empty());
    EXPECT_NE(notices_.errors.back().find("cl_khr_gl_sharing"), std::string::npos)
        << notices_.errors.back();
    runFrame(0);
    runFrame(1);
    EXPECT_GT(litShare(), 0.0);
    notices_.errors.clear();
    EXPECT_NO_THROW(demo_->set("interop", "external-memory"));
    if (!cc_->info().hasExtension("cl_khr_external_memory_opaque_fd")) {
        ASSERT_FALSE(notices_.errors.empty());
        EXPECT_NE(notices_.errors.back().find("cl_khr_external_memory_opaque_fd"),
                  std::string::npos)
            << notices_.errors.back();
    }
    runFrame(2);
    EXPECT_GT(litShare(), 0.0);
}

// External memory that the caps claim but that cannot be set up (PoCL imports no fd) falls back
// to host copy at run time, says why, keeps drawing, and survives N changes and switches back.
TEST_F(NbodyDemoTest, RunTimeFailureOfExternalMemoryFallsBackToHostCopy) {
    if (cc_->info().hasExtension("cl_khr_external_memory_opaque_fd"))
        GTEST_SKIP() << "device has external memory";
    ASSERT_NO_THROW(demo_->set("n", "128"));
    ASSERT_NO_THROW(demo_->set("assume-external-memory", "on"));
    notices_.errors.clear();
    EXPECT_NO_THROW(demo_->set("interop", "external-memory"));
    ASSERT_FALSE(notices_.errors.empty());
    EXPECT_NE(notices_.errors.back().find("external-memory failed"), std::string::npos)
        << notices_.errors.back();
    runFrame(0);
    runFrame(1);
    EXPECT_GT(litShare(), 0.0);
    ASSERT_NO_THROW(demo_->set("n", "131"));
    runFrame(2);
    EXPECT_GT(litShare(), 0.0);
    ASSERT_NO_THROW(demo_->set("assume-external-memory", "off"));
    EXPECT_NO_THROW(demo_->set("interop", "auto"));
    runFrame(3);
    EXPECT_GT(litShare(), 0.0);
}

// A path that the chooser allows but that fails when it is set up (here: the caps claim sharing,
// the bridge finds the device cannot) falls back to host copy and says why.
TEST_F(NbodyDemoTest, RunTimeFailureOfGlSharingFallsBackToHostCopy) {
    if (cc_->info().hasExtension("cl_khr_gl_sharing")) GTEST_SKIP() << "device can share";
    ASSERT_NO_THROW(demo_->set("n", "128"));
    ASSERT_NO_THROW(demo_->set("assume-gl-sharing", "on"));
    notices_.errors.clear();
    EXPECT_NO_THROW(demo_->set("interop", "gl-sharing"));
    ASSERT_FALSE(notices_.errors.empty()) << "no notice for the fallback";
    EXPECT_NE(notices_.errors.back().find("gl-sharing failed"), std::string::npos)
        << notices_.errors.back();
    EXPECT_NE(notices_.errors.back().find("host copy"), std::string::npos);
    runFrame(0);
    runFrame(1);
    EXPECT_GT(litShare(), 0.0);
    EXPECT_NEAR(savedTime(), 2 * 0.005, 1e-6);  // collision preset dt; nothing was reset
}

// GL and CL take turns where the path orders them on the GPU (external memory with exported
// semaphores: the H200), never elsewhere (PoCL), and take-turns=off turns it off; every frame
// draws, and single steps still advance exactly, either way.
TEST_F(NbodyDemoTest, TakeTurnsOnlyWhereThePathOrdersOnTheGpu) {
    ASSERT_NO_THROW(demo_->set("n", "300"));
    runFrame(0);
    runFrame(1);
    const bool semaphores = cc_->info().hasExtension("cl_khr_external_semaphore_opaque_fd") &&
                            demo_->interopPath() == InteropPath::ExternalMemory;
    EXPECT_EQ(demo_->takesTurns(), semaphores);
    EXPECT_GT(litShare(), 0.0);
    ASSERT_NO_THROW(demo_->set("take-turns", "off"));
    EXPECT_FALSE(demo_->takesTurns());
    runFrame(2);
    EXPECT_GT(litShare(), 0.0);
    ASSERT_NO_THROW(demo_->set("take-turns", "on"));
    EXPECT_EQ(demo_->takesTurns(), semaphores);
    ASSERT_NO_THROW(demo_->set("step", "3"));  // pauses, then three steps
    const double before = savedTime();
    runFrame(3);
    EXPECT_NEAR(savedTime(), before + 3 * 0.005, 1e-6);
    EXPECT_GT(litShare(), 0.0);
    // Enqueued after the swap instead of before it: the same steps, each exactly once.
    ASSERT_NO_THROW(demo_->set("take-turns-at", "present"));
    EXPECT_EQ(demo_->takesTurns(), semaphores);
    ASSERT_NO_THROW(demo_->set("step", "2"));
    runFrame(4);
    EXPECT_NEAR(savedTime(), before + 5 * 0.005, 1e-6);
    EXPECT_GT(litShare(), 0.0);
    const std::string why = errorOf([&] { demo_->set("take-turns-at", "later"); });
    EXPECT_NE(why.find("take-turns-at"), std::string::npos) << why;
    EXPECT_NE(why.find("drawn"), std::string::npos) << why;
}

TEST_F(NbodyDemoTest, EveryColourModeDrawsAndThePanelsRun) {
    ASSERT_NO_THROW(demo_->set("preset", "plummer"));
    ASSERT_NO_THROW(demo_->set("n", "500"));
    ASSERT_NO_THROW(demo_->set("diagnostics", "1"));
    test::HeadlessImGui imgui(ImVec2(320, 240));
    ImGuiIO& io = ImGui::GetIO();
    long long index = 0;
    for (const char* colour : {"speed", "mass", "fixed"}) {
        ASSERT_NO_THROW(demo_->set("colour", colour));
        for (int i = 0; i < 3; ++i) {
            runFrame(index);
            io.DeltaTime = 1.0f / 60;
            ImGui::NewFrame();
            demo_->gui(frame(index));
            ImGui::Render();
            ++index;
        }
        EXPECT_GT(litShare(), 0.003) << "colour " << colour << " drew nothing";
    }
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
}

TEST_F(NbodyDemoTest, SnapshotsRoundTripAndGarbageIsRefused) {
    ASSERT_NO_THROW(demo_->set("preset", "disk"));
    ASSERT_NO_THROW(demo_->set("n", "77"));
    runFrame(0);
    const fs::path p = fs::temp_directory_path() / "clviz-nbody-roundtrip.clviz";
    ASSERT_NO_THROW(demo_->set("save", p.string()));
    const NbodySnapshot saved = loadSnapshot(p.string());
    ASSERT_NO_THROW(demo_->set("n", "10"));
    EXPECT_EQ(demo_->sceneLabel(), "disk");
    ASSERT_NO_THROW(demo_->set("load", p.string()));
    // The preset box names the file, its format and N (issue 10), until a preset is picked.
    EXPECT_EQ(demo_->sceneLabel(), "clviz-nbody-roundtrip.clviz (clviz, N = 77)");
    const fs::path q = fs::temp_directory_path() / "clviz-nbody-roundtrip2.clviz";
    ASSERT_NO_THROW(demo_->set("save", q.string()));
    EXPECT_EQ(loadSnapshot(q.string()).bodies, saved.bodies);
    {
        std::ofstream garbage(p, std::ios::binary | std::ios::trunc);
        garbage << "this is not a snapshot";
    }
    EXPECT_FALSE(errorOf([&] { demo_->set("load", p.string()); }).empty());
    fs::remove(p);
    fs::remove(q);
}

// Issue 10: Diagnostics opened on top of a tall Timings panel. It must open clear of Timings,
// inside the window, on a tall and a short window (rectangles the demo reports, so this holds for
// any font or device name).
TEST_F(NbodyDemoTest, DiagnosticsOpensClearOfTimings) {
    ASSERT_NO_THROW(demo_->set("n", "300"));
    ASSERT_NO_THROW(demo_->set("diagnostics", "1"));
    long long index = 0;
    for (const float height : {800.0f, 600.0f}) {
        test::HeadlessImGui imgui(ImVec2(1280, height));
        ImGuiIO& io = ImGui::GetIO();
        auto guiFrames = [&](int count) {
            for (int i = 0; i < count; ++i, ++index) {
                FrameInfo f = frame(index);
                f.framebufferWidth = 1280;
                f.framebufferHeight = static_cast<int>(height);
                demo_->step(f);
                io.DeltaTime = 1.0f / 60;
                ImGui::NewFrame();
                demo_->gui(f);
                ImGui::Render();
                demo_->frameEnd(f);
            }
        };
        ASSERT_NO_THROW(demo_->set("diagnostics-panel", "off"));
        guiFrames(4);  // Timings reaches its height
        ASSERT_GT(demo_->timingsRect().h, 100.0f) << "Timings was not drawn";
        ASSERT_NO_THROW(demo_->set("diagnostics-panel", "on"));
        guiFrames(4);
        const auto t = demo_->timingsRect(), d = demo_->diagnosticsRect();
        const bool apart =
            d.y >= t.y + t.h || d.y + d.h <= t.y || d.x >= t.x + t.w || d.x + d.w <= t.x;
        EXPECT_TRUE(apart) << "window height " << height << ": Diagnostics (" << d.x << ", " << d.y
                           << ", " << d.w << " x " << d.h << ") overlaps Timings (" << t.x << ", "
                           << t.y << ", " << t.w << " x " << t.h << ")";
        EXPECT_GE(d.x, 0.0f);
        EXPECT_LE(d.y + 100, height) << "Diagnostics opened off screen";
    }
}

// Issue 31: diagnostics never stall the view. With all pairs one measurement is spread over
// frames (a frame's step only reads events and enqueues the next slice); with the tree it comes
// from the walk's potential, the frame after it began. Both draw their figures in the panel.
TEST_F(NbodyDemoTest, DiagnosticsArriveOverFramesWithoutWaiting) {
    ASSERT_NO_THROW(demo_->set("n", "3001"));
    ASSERT_NO_THROW(demo_->set("variant", "tiled"));
    ASSERT_NO_THROW(demo_->set("diagnostics", "1"));
    long long index = 0;
    auto framesUntilDiagnostics = [&] {
        for (int i = 0; i < 200 && !demo_->haveDiagnostics(); ++i)
            runFrame(index++);
        return demo_->haveDiagnostics();
    };
    ASSERT_TRUE(framesUntilDiagnostics()) << "no diagnostics in 200 frames";
    const NbodyDiagnostics sliced = demo_->lastDiagnostics();
    EXPECT_TRUE(sliced.finite());
    EXPECT_GT(sliced.slices, 1) << sliced.method;
    EXPECT_NE(sliced.method.find("all pairs in"), std::string::npos) << sliced.method;
    // One slice a frame: the figures came a frame after the last slice was enqueued.
    EXPECT_GE(demo_->diagnosticsFramesTaken(), sliced.slices);

    ASSERT_NO_THROW(demo_->set("variant", "tree"));
    for (int i = 0; i < 200 && demo_->lastDiagnostics().method.find("tree") == std::string::npos;
         ++i)
        runFrame(index++);
    const NbodyDiagnostics tree = demo_->lastDiagnostics();
    EXPECT_NE(tree.method.find("tree"), std::string::npos) << tree.method;
    EXPECT_EQ(tree.slices, 1);
    EXPECT_EQ(demo_->diagnosticsFramesTaken(), 1);
    EXPECT_NEAR(tree.total, sliced.total, 1e-2 * std::fabs(sliced.total));

    test::HeadlessImGui imgui(ImVec2(1280, 800));
    ASSERT_NO_THROW(demo_->set("diagnostics-panel", "on"));
    for (int i = 0; i < 3; ++i, ++index) {  // the panel draws the method and the cost
        FrameInfo f = frame(index);
        demo_->step(f);
        ImGui::GetIO().DeltaTime = 1.0f / 60;
        ImGui::NewFrame();
        demo_->gui(f);
        ImGui::Render();
        demo_->frameEnd(f);
    }
    EXPECT_GT(demo_->diagnosticsRect().h, 0.0f);
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// NVIDIA's nbody sample keys (issue 27): ] and [ cycle the scenes, D toggles fp64 where it can.
TEST_F(NbodyDemoTest, BracketsCycleTheScenesAndDTogglesFp64) {
    ASSERT_NO_THROW(demo_->set("n", "257"));
    ASSERT_NO_THROW(demo_->set("preset", allNbodyPresets().front().name));
    runFrame(0);
    const std::string first = demo_->sceneLabel();
    EXPECT_TRUE(demo_->onKey(GLFW_KEY_RIGHT_BRACKET, 0));
    runFrame(1);
    EXPECT_EQ(demo_->sceneLabel(), allNbodyPresets()[1].name);
    EXPECT_TRUE(demo_->onKey(GLFW_KEY_LEFT_BRACKET, 0));
    EXPECT_TRUE(demo_->onKey(GLFW_KEY_LEFT_BRACKET, 0));  // wraps to the last
    runFrame(2);
    EXPECT_EQ(demo_->sceneLabel(), allNbodyPresets().back().name);
    EXPECT_NE(demo_->sceneLabel(), first);

    ASSERT_NO_THROW(demo_->set("variant", "tiled"));
    notices_.errors.clear();
    EXPECT_TRUE(demo_->onKey(GLFW_KEY_D, 0));
    runFrame(3);
    if (cc_->info().hasExtension("cl_khr_fp64")) {
        EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
        EXPECT_NE(demo_->titleStatus().find("fp64"), std::string::npos) << demo_->titleStatus();
    }
    if (cc_->info().hasExtension("cl_khr_fp64")) {
        EXPECT_TRUE(demo_->onKey(GLFW_KEY_D, 0));  // back to fp32
        runFrame(4);
        EXPECT_EQ(demo_->titleStatus().find("fp64"), std::string::npos) << demo_->titleStatus();
    }
    // The tree has no fp64: the key says why, the run goes on.
    ASSERT_NO_THROW(demo_->set("variant", "tree"));
    notices_.errors.clear();
    EXPECT_TRUE(demo_->onKey(GLFW_KEY_D, 0));
    runFrame(4);
    ASSERT_EQ(notices_.errors.size(), 1u) << "the tree computes in float only: D says so";
    EXPECT_EQ(notices_.errors[0].rfind("D (fp64): ", 0), 0u) << notices_.errors[0];
    EXPECT_EQ(demo_->titleStatus().find("fp64"), std::string::npos) << demo_->titleStatus();
}

// Issue 27: the tree's force error is marked stale when theta changes, until the next diagnostics
// measure it again at the new theta. The frames run the panels (Simulation with the tree's
// disabled fp64 box, Diagnostics with the mark) in a headless ImGui.
TEST_F(NbodyDemoTest, TheTreeForceErrorIsMarkedStaleWhenThetaChanges) {
    ASSERT_NO_THROW(demo_->set("n", "300"));
    ASSERT_NO_THROW(demo_->set("variant", "tree"));
    ASSERT_NO_THROW(demo_->set("theta", "0.5"));
    ASSERT_NO_THROW(demo_->set("diagnostics", "1"));
    ASSERT_NO_THROW(demo_->set("diagnostics-panel", "on"));
    test::HeadlessImGui imgui(ImVec2(1280, 800));
    long long index = 0;
    auto guiFrames = [&](int count) {
        for (int i = 0; i < count; ++i, ++index) {
            FrameInfo f = frame(index);
            f.framebufferWidth = 1280;
            f.framebufferHeight = 800;
            demo_->step(f);
            ImGui::GetIO().DeltaTime = 1.0f / 60;
            ImGui::NewFrame();
            demo_->gui(f);
            ImGui::Render();
            demo_->frameEnd(f);
        }
    };
    // The sample arrives a few frames after it is asked for (diagnostics never wait).
    for (int i = 0; i < 200 && !demo_->haveForceErrorSample(); ++i)
        guiFrames(1);
    ASSERT_TRUE(demo_->haveForceErrorSample()) << "no force-error sample in 200 frames";
    EXPECT_EQ(demo_->forceErrorStaleNote(), "");

    ASSERT_NO_THROW(demo_->set("diagnostics", "0"));  // nothing measures the new theta
    guiFrames(30);  // once what was in flight has landed (it would measure the new theta)
    ASSERT_NO_THROW(demo_->set("theta", "0.9"));
    guiFrames(2);
    EXPECT_EQ(demo_->forceErrorStaleNote(),
              "(measured at theta 0.50: stale until the next diagnostics)");

    ASSERT_NO_THROW(demo_->set("diagnostics", "1"));  // measured again at once: theta changed
    for (int i = 0; i < 200 && !demo_->forceErrorStaleNote().empty(); ++i)
        guiFrames(1);
    EXPECT_EQ(demo_->forceErrorStaleNote(), "");
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
}

// The failure convention (docs/architecture.md, "Failures"): a refused setting throws the
// sentence and leaves the bodies as they were; the same refusal from the demo's own controls (a
// dropped file) is an error notice, and the demo runs on.
TEST_F(NbodyDemoTest, ARefusalChangesNothingAndTheDemosControlsShowItAsANotice) {
    ASSERT_NO_THROW(demo_->set("preset", "cube"));
    ASSERT_NO_THROW(demo_->set("n", "67"));
    ASSERT_NO_THROW(demo_->set("pause", "on"));
    runFrame(0);
    const std::vector<Body> before = savedBodies();
    const std::string label = demo_->sceneLabel();

    EXPECT_CONTAINS(errorOf([&] { demo_->set("n", "0"); }), "n must be in 1");
    EXPECT_CONTAINS(errorOf([&] { demo_->set("load", "/nonexistent/drop.clviz"); }),
                    "/nonexistent/drop.clviz");
    EXPECT_EQ(savedBodies(), before);

    notices_.errors.clear();
    demo_->onDrop("/nonexistent/drop.clviz");
    ASSERT_EQ(notices_.errors.size(), 1u);
    EXPECT_CONTAINS(notices_.errors[0], "/nonexistent/drop.clviz");
    runFrame(1);
    EXPECT_EQ(savedBodies(), before);
    EXPECT_EQ(demo_->sceneLabel(), label);
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// Compare variants (issue 27): every variant at the current N, one per frame, then exported.
TEST_F(NbodyDemoTest, CompareVariantsTimesEveryVariantAndExports) {
    ASSERT_NO_THROW(demo_->set("n", "263"));  // prime
    runFrame(0);
    ASSERT_NO_THROW(demo_->startComparison());
    EXPECT_TRUE(demo_->comparing());
    const std::size_t expected = allNbodyVariants().size() + 2;  // and pairs, tree
    for (long long f = 1; f < 40 && demo_->comparing(); ++f)
        runFrame(f);
    ASSERT_FALSE(demo_->comparing());
    ASSERT_EQ(demo_->comparison().size(), expected);
    for (const auto& r : demo_->comparison()) {
        EXPECT_EQ(r.error, "") << r.variant;
        EXPECT_GT(r.stepMs, 0) << r.variant;
        EXPECT_GT(r.interactionsPerSecond, 0) << r.variant;
    }
    const std::string csv = demo_->comparisonText("csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), long(expected + 1)) << csv;
    EXPECT_EQ(csv.rfind("variant,n,step_ms,interactions_per_s,gflops,precision,error\n", 0), 0u);
    const std::string json = demo_->comparisonText("json");
    EXPECT_NE(json.find("\"variant\": \"tree\""), std::string::npos) << json;
    EXPECT_NE(demo_->titleStatus().find("N = 263"), std::string::npos);
    runFrame(50);  // the scene runs on afterwards
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// Issue 27: a build or an auto-tune froze the window for seconds. Off the frame (the viewer's
// default), frames go on while it runs: the scene waits (clear), the GUI shows the progress line,
// and the scene comes back when the work is done.
class NbodyWorkTest : public NbodyDemoTest {
  protected:
    // One frame as the app runs it, with the GUI; returns the GUI layout of the frame.
    std::string guiFrame(long long index) {
        runFrame(index);
        ImGui::GetIO().DeltaTime = 1.0f / 60;
        ImGui::NewFrame();
        demo_->gui(frame(index));
        ImGui::Render();
        return guiLayoutText();
    }
    // Frames until the work is done (at most `limit`); the progress lines seen on the way.
    std::vector<std::string> framesUntilDone(long long* index, int limit = 100000) {
        std::vector<std::string> lines;
        for (int i = 0; i < limit && !demo_->progressLine().empty(); ++i) {
            const std::string line = demo_->progressLine();
            const std::string layout = guiFrame((*index)++);
            if (lines.empty() || lines.back() != line) lines.push_back(line);
            if (!demo_->progressLine().empty()) {  // still running: the frame showed the line
                EXPECT_NE(layout.find("##nbody-progress/text"), std::string::npos) << layout;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a frame's worth
        }
        return lines;
    }
};

TEST_F(NbodyWorkTest, FramesGoOnWhileAnAutoTuneRunsAndShowItsProgress) {
    ASSERT_NO_THROW(demo_->set("n", "1000"));
    ASSERT_NO_THROW(demo_->set("variant", "tiled"));
    runFrame(0);
    const double before = savedTime();
    test::HeadlessImGui imgui(ImVec2(320, 240));
    offFrame_ = true;
    ASSERT_NO_THROW(demo_->set("autotune", "1.5"));  // returns at once: the tune runs off the frame
    EXPECT_EQ(demo_->progressLine().rfind("Auto-tuning tiled", 0), 0u) << demo_->progressLine();
    long long index = 1;
    const long long first = index;
    const std::vector<std::string> lines = framesUntilDone(&index);
    ASSERT_TRUE(demo_->progressLine().empty()) << "the tune never finished";
    // Each candidate is a build and a few force passes (tens of ms on a CPU): many frames ran.
    EXPECT_GE(index - first, 5) << "the frames waited for the tune";
    bool counted = false;  // "Auto-tuning tiled (k of n)"
    for (const std::string& l : lines)
        counted = counted || l.find(" of ") != std::string::npos;
    EXPECT_TRUE(counted) << (lines.empty() ? "no progress line" : lines.back());
    ASSERT_FALSE(notices_.notices.empty());
    EXPECT_EQ(notices_.notices.back().rfind("auto-tune: best", 0), 0u) << notices_.notices.back();
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
    // The frames during the work did not step; the one that saw it done did, and so do the next.
    const double done = savedTime();
    guiFrame(index++);
    const double dt = savedTime() - done;
    EXPECT_GT(dt, 0);
    EXPECT_NEAR(done - before, dt, 1e-9) << "the scene stepped while the tune had the queue";
    EXPECT_GT(litShare(), 0.0);
}

TEST_F(NbodyWorkTest, TheStartBuildsOffTheFrame) {
    demo_->shutdown();
    demo_.reset();
    offFrame_ = true;
    demo_ = std::make_unique<NbodyDemo>();
    demo_->init(app_);  // returns before the kernels are built
    EXPECT_FALSE(demo_->progressLine().empty());
    EXPECT_NE(demo_->titleStatus().find("N = "), std::string::npos);
    test::HeadlessImGui imgui(ImVec2(320, 240));
    long long index = 0;
    framesUntilDone(&index);
    ASSERT_TRUE(demo_->progressLine().empty());
    ASSERT_NO_THROW(demo_->set("diagnostics", "0"));
    const double before = savedTime();
    guiFrame(index++);
    EXPECT_GT(savedTime(), before);
    EXPECT_TRUE(notices_.errors.empty()) << notices_.errors.front();
}

TEST_F(NbodyWorkTest, ANewNRetunesOffTheFrameAndASettingWaitsForTheWork) {
    ASSERT_NO_THROW(demo_->set("n", "128"));
    runFrame(0);
    offFrame_ = true;
    ASSERT_NO_THROW(demo_->set("n", "300"));  // auto picks again for the new N: at the next step
    runFrame(1);
    EXPECT_FALSE(demo_->progressLine().empty()) << "no work started for the new N";
    // A setting while the work runs waits for it, then applies to the state it led to.
    ASSERT_NO_THROW(demo_->set("n", "257"));
    EXPECT_NE(demo_->titleStatus().find("N = 257"), std::string::npos) << demo_->titleStatus();
    long long index = 2;
    test::HeadlessImGui imgui(ImVec2(320, 240));
    guiFrame(index++);
    framesUntilDone(&index);
    const double before = savedTime();
    guiFrame(index++);
    EXPECT_GT(savedTime(), before);
    EXPECT_EQ(savedBodies().size(), 257u);
}

TEST_F(NbodyWorkTest, AFailedTuneIsAnErrorNoticeAndTheSceneRunsOn) {
    ASSERT_NO_THROW(demo_->set("n", "200"));
    ASSERT_NO_THROW(demo_->set("variant", "tree"));
    runFrame(0);
    offFrame_ = true;
    ASSERT_NO_THROW(demo_->set("autotune", "1"));
    long long index = 1;
    test::HeadlessImGui imgui(ImVec2(320, 240));
    framesUntilDone(&index);
    ASSERT_FALSE(notices_.errors.empty());
    EXPECT_NE(notices_.errors.back().find("no launch configuration to auto-tune"),
              std::string::npos)
        << notices_.errors.back();
    const double before = savedTime();
    guiFrame(index++);
    EXPECT_GT(savedTime(), before);
}

TEST_F(NbodyWorkTest, QuittingMidTuneCancelsItAndReturnsPromptly) {
    ASSERT_NO_THROW(demo_->set("n", "1000"));
    ASSERT_NO_THROW(demo_->set("variant", "tiled"));
    runFrame(0);
    offFrame_ = true;
    ASSERT_NO_THROW(demo_->set("autotune", "60"));
    long long index = 1;
    // Until the tune is into its candidates (the first report).
    while (demo_->progressLine().find(" of ") == std::string::npos) {
        ASSERT_FALSE(demo_->progressLine().empty()) << "the 60 s tune ended by itself";
        runFrame(index++);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const auto start = std::chrono::steady_clock::now();
    demo_->shutdown();  // as the app's quit does
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    demo_.reset();
    // Cancelled at the next candidate, not after the 60 s budget.
    EXPECT_LT(seconds, 30) << "the shutdown waited for the whole tune";
}

}  // namespace
}  // namespace clviz
