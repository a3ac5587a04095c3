// End to end under Xvfb: the real viewer (runApp, as `clviz` runs it) on the labs whose start runs
// off the frame for long enough to be seen (issue 27), and the spectral lab's recompute (issue 30).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "app/run_app.hpp"

namespace clviz {
namespace {

namespace fs = std::filesystem;

class LabStartApp : public ::testing::TestWithParam<std::string> {};

// With work off the frame the lab's start runs while the frames go on: frame 1 (a few
// milliseconds after frame 0) shows its progress line. The run's end at frame 3, as quitting
// does, cancels the start, and the app exits with 0.
TEST_P(LabStartApp, FramesGoOnDuringTheStartAndTheEndCancelsIt) {
    const std::string demo = GetParam();
    const fs::path layout = fs::temp_directory_path() /
                            ("clviz-" + demo + "-start-" + std::to_string(::getpid()) + ".txt");
    fs::remove(layout);
    const auto start = std::chrono::steady_clock::now();
    const int status =
        runApp({"--demo", demo, "--width", "320", "--height", "240", "--vsync", "off", "--frames",
                "3", "--set", "app.off-frame=on", "--set-at", "1:app.layout=" + layout.string()});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(status, 0);
    EXPECT_LT(seconds, 60);
    std::ifstream in(layout);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("##" + demo + "-progress/text"), std::string::npos)
        << "no progress line at frame 1:\n"
        << text;
    fs::remove(layout);
}

INSTANTIATE_TEST_SUITE_P(Labs, LabStartApp, ::testing::Values("linalg", "spectral"));

// Issue 30: after the start, a new noise estimate (frame 1: the setting waits for the start)
// recomputes the spectral lab's MNF as its job while frames go on: frame 3's layout shows the
// job's line in the lab panel. The run's end at frame 5 cancels it, and the app exits with 0.
TEST(SpectralRecomputeApp, FramesGoOnDuringARecomputeAndTheEndCancelsIt) {
    const fs::path layout = fs::temp_directory_path() /
                            ("clviz-spectral-recompute-" + std::to_string(::getpid()) + ".txt");
    fs::remove(layout);
    const int status =
        runApp({"--demo", "spectral", "--width", "1280", "--height", "720", "--vsync", "off",
                "--frames", "5", "--set", "app.off-frame=on", "--set-at", "1:noise=median3",
                "--set-at", "3:app.layout=" + layout.string()});
    ASSERT_EQ(status, 0);
    std::ifstream in(layout);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("##spectral-job/text"), std::string::npos)
        << "no recompute line at frame 3:\n"
        << text;
    fs::remove(layout);
}

// --cube FILE is read while the lab's start is waited for, off the frame too: a file that cannot be
// read ends the run with its reason and exit status 2, as it does headless.
TEST(SpectralRecomputeApp, ABadCubeAtTheStartEndsTheRun) {
    const int status = runApp({"--demo", "spectral", "--width", "320", "--height", "240", "--vsync",
                               "off", "--frames", "3", "--set", "app.off-frame=on", "--cube",
                               "/nonexistent/clviz-missing.hdr"});
    EXPECT_EQ(status, 2);
}

}  // namespace
}  // namespace clviz
