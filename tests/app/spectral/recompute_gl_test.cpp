// The spectral lab's recompute off the frame (issue 30; hidden GL window, PoCL): with the app's
// leave, a change of the noise estimate, its rectangle, m or k runs its MNF steps as the lab's job
// while frames go on showing the previous result; the result equals the one computed inside the
// frame; changes during a job end with the latest settings, with no queue of the ones between;
// quitting mid-job returns promptly; a new cube loads and runs its first MNF the same way.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "app/spectral/demo.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/scene.hpp"
#include "tests/app/gui/headless_imgui.hpp"
#include "tests/app/test_frame.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

namespace fs = std::filesystem;

struct Saved {
    std::vector<double> eigenvalues;
    std::vector<float> components;
};

class SpectralRecomputeTest : public test::GlComputeSuite<320, 240> {
  protected:
    void TearDown() override {
        if (demo_) demo_->shutdown();
    }

    // A lab started inside the frame (the generated scene and its first MNF, done when this
    // returns); offFrame_ then decides where its later work runs.
    SpectralDemo& start() {
        AppServices app;
        app.compute = cc_;
        app.notify = [this](bool isError, const std::string& m) {
            (isError ? errors_ : notices_).push_back(m);
        };
        app.workOffFrame = [this] { return offFrame_; };
        offFrame_ = false;
        if (demo_) demo_->shutdown();
        demo_ = std::make_unique<SpectralDemo>();
        demo_->init(app);
        test::stepAndDraw(*demo_, 0);
        EXPECT_TRUE(demo_->progressLine().empty());
        EXPECT_GT(demo_->shown().m, 0);
        return *demo_;
    }

    // One frame as the app runs it (GUI, step, draw); returns the frame's GUI layout.
    std::string guiFrame() { return test::guiFrame(*demo_, ++frame_); }

    // Frames until one ends with no job running; how many of them showed the job's progress line.
    int framesUntilSettled() {
        int shown = 0;
        for (int i = 0; i < 100000; ++i) {
            const std::string layout = guiFrame();
            if (layout.find("##spectral-job/text") != std::string::npos) ++shown;
            const std::string line = demo_->progressLine();
            if (!line.empty() && (linesSeen_.empty() || linesSeen_.back() != line))
                linesSeen_.push_back(line);
            noiseSeen_.push_back(demo_->shown().noise);
            if (demo_->progressLine().empty()) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a frame's worth
        }
        return shown;
    }

    // What set("save") writes: the eigenvalues and the m components.
    Saved save(const std::string& stem) {
        const std::string path =
            (fs::temp_directory_path() / (stem + std::to_string(::getpid()) + ".hdr")).string();
        demo_->set("save", path);
        Saved out;
        const std::string csv = path.substr(0, path.size() - 4) + ".eigenvalues.csv";
        std::ifstream in(csv);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line))
            out.eigenvalues.push_back(std::stod(line.substr(line.find(',') + 1)));
        const EnviCube z = readEnvi(path);
        out.components.resize(z.cube.data.size() / sizeof(float));
        std::memcpy(out.components.data(), z.cube.data.data(), z.cube.data.size());
        fs::remove(path);
        fs::remove(path.substr(0, path.size() - 4) + ".img");
        fs::remove(csv);
        return out;
    }

    void changeSettings() {
        demo_->set("noise", "mean3");
        demo_->set("noise-rect", "10,12,90,80");  // what a Shift+drag sets
        demo_->set("components", "7");
        demo_->set("keep", "4");
    }

    static void expectSame(const Saved& got, const Saved& want) {
        ASSERT_EQ(got.eigenvalues.size(), want.eigenvalues.size());
        for (std::size_t i = 0; i < want.eigenvalues.size(); ++i)
            EXPECT_NEAR(got.eigenvalues[i], want.eigenvalues[i],
                        1e-9 * std::abs(want.eigenvalues[i]) + 1e-12)
                << i;
        ASSERT_EQ(got.components.size(), want.components.size());
        int differ = 0;
        for (std::size_t i = 0; i < want.components.size(); ++i)
            differ += got.components[i] != want.components[i];
        EXPECT_EQ(differ, 0) << "of " << want.components.size() << " component values";
    }

    std::unique_ptr<SpectralDemo> demo_;
    bool offFrame_ = false;
    long long frame_ = 0;
    std::vector<std::string> errors_, notices_;
    std::vector<NoiseEstimate> noiseSeen_;
    std::vector<std::string> linesSeen_;
};

TEST_F(SpectralRecomputeTest, FramesGoOnWhileARecomputeRunsAndShowThePreviousResult) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    start();
    const std::vector<double> before = demo_->shown().result.basis.eigenvalues;
    offFrame_ = true;
    demo_->set("noise", "median3");
    guiFrame();  // starts the job
    // Its title until the worker's first report, "Recomputing the MNF: statistics, noise=median3
    // (1 of 3)" from then on.
    const std::string line = demo_->progressLine();
    EXPECT_EQ(line.rfind("Recomputing the MNF", 0), 0u)
        << "no recompute job after the frame: '" << line << "'";
    EXPECT_EQ(demo_->shown().noise, NoiseEstimate::Diff) << "the new result showed at once";
    const int frames = framesUntilSettled();
    EXPECT_GE(frames, 2) << "the frames waited for the recompute";
    bool counted = false;  // "Recomputing the MNF: ... (k of 3)"
    for (const std::string& l : linesSeen_)
        counted = counted || l.find(" of 3)") != std::string::npos;
    EXPECT_TRUE(counted) << (linesSeen_.empty() ? "no progress line" : linesSeen_.back());
    for (std::size_t i = 0; i + 1 < noiseSeen_.size(); ++i)
        EXPECT_EQ(noiseSeen_[i], NoiseEstimate::Diff) << "frame " << i << " during the job";
    EXPECT_EQ(demo_->shown().noise, NoiseEstimate::Median3);
    EXPECT_NE(demo_->shown().result.basis.eigenvalues, before);
    // The change was shown once, after at least its own MNF's time.
    ASSERT_EQ(demo_->changesShown().size(), 1u);
    EXPECT_GT(demo_->changesShown()[0].mnfMs, 0.0);
    EXPECT_GE(demo_->changesShown()[0].afterChangeMs, demo_->changesShown()[0].mnfMs);
    EXPECT_TRUE(demo_->runError().empty()) << demo_->runError();
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(SpectralRecomputeTest, TheResultAfterAChangeEqualsTheInFrameResult) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    start();
    changeSettings();
    test::stepAndDraw(*demo_, ++frame_);
    const Saved inFrame = save("clviz-spectral-recompute-inframe-");
    ASSERT_EQ(inFrame.eigenvalues.size(), 200u);
    ASSERT_EQ(inFrame.components.size(), std::size_t(145) * 145 * 7);

    start();
    offFrame_ = true;
    changeSettings();
    framesUntilSettled();
    ASSERT_TRUE(demo_->progressLine().empty());
    EXPECT_EQ(demo_->shown().noise, NoiseEstimate::Mean3);
    EXPECT_EQ(demo_->shown().noiseRect.samples, 90);
    EXPECT_EQ(demo_->shown().noiseRect.line0, 12);
    EXPECT_EQ(demo_->shown().m, 7);
    EXPECT_EQ(demo_->shown().k, 4);
    expectSame(save("clviz-spectral-recompute-offframe-"), inFrame);
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(SpectralRecomputeTest, ChangesDuringAJobEndWithTheLatestSettingsAndNoQueue) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    start();
    offFrame_ = true;
    demo_->set("noise", "mean3");
    guiFrame();
    ASSERT_FALSE(demo_->progressLine().empty());
    // Ninety changes while it runs: none waits for the job, and only the last settings count.
    const char* noises[] = {"diff", "median3", "mean3"};
    for (int i = 0; i < 30; ++i) {
        demo_->set("noise", noises[i % 3]);
        demo_->set("keep", std::to_string(1 + i % 9));
        demo_->set("components", std::to_string(3 + i % 11));
    }
    demo_->set("noise", "median3");
    EXPECT_FALSE(demo_->progressLine().empty()) << "a change waited for the job";
    framesUntilSettled();
    ASSERT_TRUE(demo_->progressLine().empty());
    EXPECT_EQ(demo_->shown().noise, NoiseEstimate::Median3);
    EXPECT_EQ(demo_->shown().k, 1 + 29 % 9);
    EXPECT_EQ(demo_->shown().m, 3 + 29 % 11);
    // Shown in turn: the old result, the first job's, then one more job's with the latest
    // settings; a queue of the changes would show the noise estimates between.
    std::vector<NoiseEstimate> distinct;
    for (NoiseEstimate n : noiseSeen_)
        if (distinct.empty() || distinct.back() != n) distinct.push_back(n);
    EXPECT_LE(distinct.size(), 3u) << "more jobs ran than the latest settings need";
    // One change shown, counted from the first: the first job's result had stale settings.
    EXPECT_EQ(demo_->changesShown().size(), 1u);
    EXPECT_TRUE(errors_.empty()) << errors_.front();

    // The same settings inside the frame give the same components.
    const Saved offFrame = save("clviz-spectral-latest-offframe-");
    start();
    demo_->set("noise", "median3");
    demo_->set("keep", std::to_string(1 + 29 % 9));
    demo_->set("components", std::to_string(3 + 29 % 11));
    test::stepAndDraw(*demo_, ++frame_);
    expectSame(offFrame, save("clviz-spectral-latest-inframe-"));
}

TEST_F(SpectralRecomputeTest, QuittingDuringARecomputeReturnsPromptly) {
    start();
    offFrame_ = true;
    demo_->set("noise", "median3");
    test::stepAndDraw(*demo_, ++frame_);
    ASSERT_FALSE(demo_->progressLine().empty()) << "no job to quit from";
    const double seconds = test::secondsToShutDown(*demo_);
    demo_.reset();
    EXPECT_LT(seconds, 30) << "the quit waited for the whole recompute";
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(SpectralRecomputeTest, ANewCubeLoadsOffTheFrameAndABadOneKeepsTheOld) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    SceneSpec spec;
    spec.shape = {37, 29, 23};
    const std::string path =
        (fs::temp_directory_path() / ("clviz-spectral-load-" + std::to_string(::getpid()) + ".hdr"))
            .string();
    writeEnvi(path, makeScene(spec).cube, EnviHeader{});
    start();
    offFrame_ = true;
    demo_->set("cube", path);
    EXPECT_EQ(demo_->progressLine().rfind("Loading " + path, 0), 0u) << demo_->progressLine();
    EXPECT_EQ(demo_->cubeShape().samples, 145) << "the load ran inside the call";
    EXPECT_GE(framesUntilSettled(), 1);
    EXPECT_EQ(demo_->cubeShape().samples, 37);
    EXPECT_EQ(demo_->cubeShape().lines, 29);
    EXPECT_EQ(demo_->cubeShape().bands, 23);
    EXPECT_EQ(demo_->shown().m, 20);
    EXPECT_EQ(demo_->shown().result.basis.eigenvalues.size(), 23u);
    EXPECT_TRUE(demo_->runError().empty()) << demo_->runError();
    EXPECT_TRUE(errors_.empty()) << errors_.front();

    // A cube asked for during a recompute waits for it; a bad one leaves the lab as it was.
    demo_->set("noise", "mean3");
    guiFrame();
    ASSERT_FALSE(demo_->progressLine().empty());
    demo_->set("cube", "/nonexistent/clviz-missing.hdr");
    framesUntilSettled();
    framesUntilSettled();
    ASSERT_EQ(errors_.size(), 1u);
    EXPECT_NE(errors_[0].find("clviz-missing.hdr"), std::string::npos) << errors_[0];
    EXPECT_EQ(demo_->cubeShape().samples, 37);
    EXPECT_EQ(demo_->shown().noise, NoiseEstimate::Mean3);
    fs::remove(path);
    fs::remove(path.substr(0, path.size() - 4) + ".img");
}

}  // namespace
}  // namespace clviz
