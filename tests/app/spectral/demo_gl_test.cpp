// The spectral lab's start off the frame (issue 27; hidden GL window, PoCL): with the app's leave,
// init returns at once and the generated cube, the kernel builds and the first MNF run on a
// worker while frames go on with a centred progress line; the lab afterwards is the one a start
// inside the frame makes (same eigenvalues); a setting during the start waits for it; quitting
// mid-start returns without finishing it.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "app/gui/layout.hpp"
#include "app/spectral/demo.hpp"
#include "compute/core/compute_context.hpp"
#include "tests/app/gui/headless_imgui.hpp"
#include "tests/app/test_frame.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace clviz {
namespace {

class SpectralStartTest : public test::GlComputeSuite<320, 240> {
  protected:
    void TearDown() override {
        if (demo_) demo_->shutdown();
    }

    SpectralDemo& start(bool offFrame) {
        AppServices app;
        app.compute = cc_;
        app.notify = [this](bool isError, const std::string& m) {
            if (isError) errors_.push_back(m);
        };
        app.workOffFrame = [offFrame] { return offFrame; };
        if (demo_) demo_->shutdown();
        demo_ = std::make_unique<SpectralDemo>();
        demo_->init(app);
        return *demo_;
    }

    // One frame as the app runs it (GUI, step, draw); returns the frame's GUI layout.
    std::string guiFrame(long long index) { return test::guiFrame(*demo_, index); }

    // Frames until the start is done; how many showed the progress line, and the lines seen.
    int framesUntilStarted(std::vector<std::string>* lines) {
        int shown = 0;
        for (long long i = 0; i < 100000 && !demo_->progressLine().empty(); ++i) {
            const std::string line = demo_->progressLine();
            if (lines->empty() || lines->back() != line) lines->push_back(line);
            const std::string layout = guiFrame(i);
            if (layout.find("##spectral-progress/text") != std::string::npos) ++shown;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a frame's worth
        }
        return shown;
    }

    // The eigenvalues the lab saves beside its components (set("save")): its first MNF's.
    std::vector<double> savedEigenvalues(const std::string& stem) {
        const std::string path =
            (std::filesystem::temp_directory_path() / (stem + std::to_string(::getpid()) + ".hdr"))
                .string();
        demo_->set("save", path);
        const std::string csv = path.substr(0, path.size() - 4) + ".eigenvalues.csv";
        std::ifstream in(csv);
        std::string line;
        std::getline(in, line);  // header
        std::vector<double> values;
        while (std::getline(in, line))
            values.push_back(std::stod(line.substr(line.find(',') + 1)));
        std::filesystem::remove(path);
        std::filesystem::remove(path.substr(0, path.size() - 4) + ".img");
        std::filesystem::remove(csv);
        return values;
    }

    std::unique_ptr<SpectralDemo> demo_;
    std::vector<std::string> errors_;
};

TEST_F(SpectralStartTest, TheStartRunsOffTheFrameWithItsProgressAndGivesTheSameLab) {
    start(false);
    test::stepAndDraw(*demo_, 0);
    ASSERT_TRUE(demo_->progressLine().empty()) << "a start inside the frame left a job";
    const std::vector<double> inFrame = savedEigenvalues("clviz-spectral-inframe-");
    const SpectralControls inFrameControls = demo_->controls();
    ASSERT_EQ(inFrame.size(), 200u);

    test::HeadlessImGui imgui(ImVec2(320, 240));
    start(true);  // returns before the cube, the kernels and the first MNF are there
    EXPECT_EQ(demo_->progressLine().rfind("Starting the spectral lab", 0), 0u)
        << demo_->progressLine();
    EXPECT_EQ(demo_->cubeShape().values(), 0u) << "init made the cube inside the frame";
    std::vector<std::string> lines;
    const int shown = framesUntilStarted(&lines);
    ASSERT_TRUE(demo_->progressLine().empty()) << "the start never finished";
    EXPECT_GE(shown, 2) << "the frames waited for the start";
    bool counted = false;  // "Starting the spectral lab: ... (k of 6)"
    for (const std::string& l : lines)
        counted = counted || l.find(" of 6)") != std::string::npos;
    EXPECT_TRUE(counted) << (lines.empty() ? "no progress line" : lines.back());
    // The frame that saw the job done shows the lab.
    const std::string layout = guiFrame(100000);
    EXPECT_NE(layout.find("Images\t"), std::string::npos) << layout;
    EXPECT_EQ(layout.find("##spectral-progress"), std::string::npos) << layout;
    EXPECT_EQ(demo_->cubeShape().samples, 145);
    EXPECT_EQ(demo_->cubeShape().bands, 200);
    EXPECT_TRUE(demo_->runError().empty()) << demo_->runError();
    EXPECT_EQ(demo_->controls().rgbBands, inFrameControls.rgbBands);
    const std::vector<double> offFrame = savedEigenvalues("clviz-spectral-offframe-");
    ASSERT_EQ(offFrame.size(), inFrame.size());
    for (std::size_t i = 0; i < inFrame.size(); ++i)
        EXPECT_NEAR(offFrame[i], inFrame[i], 1e-9 * std::abs(inFrame[i]) + 1e-12) << i;
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(SpectralStartTest, ASettingDuringTheStartWaitsForIt) {
    start(true);
    ASSERT_FALSE(demo_->progressLine().empty());
    ASSERT_NO_THROW(demo_->set("keep", "7"));
    EXPECT_TRUE(demo_->progressLine().empty()) << "the setting did not wait for the start";
    EXPECT_EQ(demo_->cubeShape().bands, 200) << "the setting went to a lab without its cube";
    EXPECT_EQ(demo_->controls().keep, 7);
    test::stepAndDraw(*demo_, 0);
    EXPECT_TRUE(demo_->runError().empty()) << demo_->runError();
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(SpectralStartTest, QuittingMidStartReturnsPromptly) {
    start(true);
    ASSERT_FALSE(demo_->progressLine().empty());
    // As the app's quit does: cancels the job at its next step.
    const double seconds = test::secondsToShutDown(*demo_);
    demo_.reset();
    EXPECT_LT(seconds, 30) << "the quit waited for the whole start";
}

}  // namespace
}  // namespace clviz
