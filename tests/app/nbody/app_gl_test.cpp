// End to end under Xvfb: the real viewer (runApp, as `clviz` runs it) on the N-body demo.
//  - a screenshot of a known preset shows particles where the cluster is;
//  - --record writes numbered frames;
//  - live switches of variant, work-group size, integrator and interop path across frames
//    (--set-at) keep the simulation continuous: the saved state matches a double-precision CPU
//    reference integrated with the same integrator schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "app/run_app.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/snapshot.hpp"
#include "tests/app/rgb_png.hpp"

namespace clviz {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("clviz-nbody-e2e-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir / name;
}

// Share of pixels in [x0,x1) x [y0,y1) clearly brighter than the clear colour (max channel 18).
double litShare(const test::RgbImage& img, int x0, int y0, int x1, int y1) {
    long lit = 0, all = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x, ++all)
            lit += img.brightness(x, y) > 40;
    return all ? double(lit) / double(all) : 0;
}

TEST(NbodyApp, ScreenshotShowsTheClusterAndRecordWritesFrames) {
    const fs::path shot = scratch("plummer.png");
    const fs::path record = scratch("frames");
    fs::remove_all(record);
    const int status = runApp({"--demo",       "nbody",
                               "--width",      "480",
                               "--height",     "360",
                               "--vsync",      "off",
                               "--frames",     "3",
                               "--set",        "app.gui=off",
                               "--set",        "preset=plummer",
                               "--set",        "n=3000",
                               "--set",        "diagnostics=0",
                               "--set",        "record=" + record.string(),
                               "--screenshot", shot.string()});
    ASSERT_EQ(status, 0);
    const test::RgbImage img = test::loadRgbPng(shot);
    ASSERT_GT(img.w, 0) << "no screenshot at " << shot;
    // A Plummer sphere framed by the camera: its core fills the middle of the picture...
    const double centre = litShare(img, img.w * 2 / 5, img.h * 2 / 5, img.w * 3 / 5, img.h * 3 / 5);
    EXPECT_GT(centre, 0.25) << "too few particles drawn in the centre";
    // ...while the corners, outside the framed radius, stay mostly background.
    const int cw = img.w / 10, ch = img.h / 10;
    const double corners = (litShare(img, 0, 0, cw, ch) + litShare(img, img.w - cw, 0, img.w, ch) +
                            litShare(img, 0, img.h - ch, cw, img.h) +
                            litShare(img, img.w - cw, img.h - ch, img.w, img.h)) /
                           4;
    EXPECT_LT(corners, 0.05) << "the whole picture is lit: not a particle image";
    EXPECT_GT(centre, 5 * corners);
    for (int i = 0; i < 3; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", i);
        const test::RgbImage frame = test::loadRgbPng(record / name);
        EXPECT_EQ(frame.w, img.w) << name;
        EXPECT_GT(
            litShare(frame, frame.w * 2 / 5, frame.h * 2 / 5, frame.w * 3 / 5, frame.h * 3 / 5),
            0.3)
            << name;
    }
    EXPECT_FALSE(fs::exists(record / "frame_000003.png"));
    fs::remove_all(record);
    fs::remove(shot);
}

// --frame-trace (issue 31's measure): one line per frame, and a bad target fails before the window.
TEST(NbodyApp, FrameTraceWritesEveryFrame) {
    const fs::path trace = scratch("trace.csv");
    fs::remove(trace);
    ASSERT_EQ(runApp({"--demo", "nbody", "--width", "320", "--height", "240", "--vsync", "off",
                      "--frames", "5", "--set", "n=500", "--set", "diagnostics=1", "--frame-trace",
                      trace.string()}),
              0);
    std::ifstream in(trace);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line))
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 6u) << "a header and one line per frame";
    EXPECT_EQ(lines[0].rfind("frame,ms,input_ms,", 0), 0u) << lines[0];
    EXPECT_EQ(lines[5].rfind("4,", 0), 0u) << lines[5];
    // The parts of each frame add up to its wall time (all but the clock reads between them).
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::stringstream fields(lines[i]);
        std::string field;
        std::vector<double> v;
        while (std::getline(fields, field, ','))
            v.push_back(std::stod(field));
        ASSERT_EQ(v.size(), 9u) << lines[i];
        double parts = 0;
        for (std::size_t p = 2; p < v.size(); ++p)
            parts += v[p];
        EXPECT_NEAR(parts, v[1], 0.01 + 1e-3 * v[1]) << lines[i];
    }
    EXPECT_NE(runApp({"--frames", "1", "--frame-trace", "/proc/clviz-no-such-dir/t.csv"}), 0);
}

TEST(NbodyApp, LiveSwitchesKeepTheSimulationContinuous) {
    constexpr int kBodies = 300;
    constexpr int kFrames = 24;  // one step per frame
    const fs::path snap = scratch("switched.clviz");
    fs::remove(snap);
    // Integrator: leapfrog for frames 0-7, taylor 8-15, leapfrog 16-23. Variants, work-group
    // sizes and the interop path change in between (gl-sharing is unavailable on PoCL: the demo
    // falls back to host copy and says why, without touching the state).
    const int status = runApp({"--demo",   "nbody",
                               "--width",  "320",
                               "--height", "240",
                               "--vsync",  "off",
                               "--frames", std::to_string(kFrames),
                               "--set",    "preset=plummer",
                               "--set",    "n=" + std::to_string(kBodies),
                               "--set",    "diagnostics=0",
                               "--set-at", "3:variant=tiled",
                               "--set-at", "5:wg=32",
                               "--set-at", "8:integrator=taylor",
                               "--set-at", "10:interop=gl-sharing",
                               "--set-at", "12:variant=naive",
                               "--set-at", "14:interop=host-copy",
                               "--set-at", "16:integrator=leapfrog",
                               "--set-at", "18:variant=vectorized",
                               "--set-at", "20:wg=64",
                               "--set-at", "22:interop=auto",
                               "--save",   snap.string()});
    ASSERT_EQ(status, 0);
    const NbodySnapshot got = loadSnapshot(snap.string());
    ASSERT_EQ(got.bodies.size(), std::size_t(kBodies));

    const NbodyPresetInfo& info = presetInfo(NbodyPreset::Plummer);
    const NbodyParams params{info.dt, info.softening, 1.0f};
    EXPECT_NEAR(got.time, kFrames * double(info.dt), 1e-4) << "steps were lost or repeated";

    const std::vector<Body> initial = makePreset(NbodyPreset::Plummer, kBodies, 1);
    NbodyReferenceState ref = NbodyReferenceState::from(initial);
    referenceStep(ref, NbodyIntegrator::Leapfrog, params, 8);
    referenceStep(ref, NbodyIntegrator::Taylor, params, 8);
    referenceStep(ref, NbodyIntegrator::Leapfrog, params, 8);

    double worst = 0, moved = 0;
    for (int i = 0; i < kBodies; ++i) {
        const Float4& p = got.bodies[i].pos;
        const double d[3] = {p.x - ref.pos[i][0], p.y - ref.pos[i][1], p.z - ref.pos[i][2]};
        worst = std::max(worst, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
        const Float4& q = initial[i].pos;
        const double m[3] = {p.x - q.x, p.y - q.y, p.z - q.z};
        moved = std::max(moved, std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]));
        EXPECT_EQ(p.w, q.w) << "mass of body " << i << " changed";
    }
    EXPECT_LT(worst, 1e-3) << "positions left the reference trajectory";
    // The check means something only if the bodies moved much more than the tolerance (a reset
    // in the middle would show up as a gap this size).
    EXPECT_GT(moved, 0.05);
    fs::remove(snap);
}

// Issue 27: with work off the frame (the viewer's default; --frames turns it off unless
// app.off-frame=on) an auto-tune started at frame 3 (N = 4000 on a CPU) runs while the frames go
// on: frame 30 still shows its progress line (where the tune ran inside frame 3, frame 30 showed
// none). The run's end, as quitting does, cancels the tune, and the app exits with 0.
TEST(NbodyApp, FramesGoOnDuringAnAutoTuneAndTheEndCancelsIt) {
    const fs::path layout = scratch("tuning-layout.txt");
    fs::remove(layout);
    const auto start = std::chrono::steady_clock::now();
    const int status = runApp({"--demo",   "nbody",
                               "--width",  "320",
                               "--height", "240",
                               "--vsync",  "off",
                               "--frames", "40",
                               "--set",    "app.off-frame=on",
                               "--set",    "n=4000",
                               "--set",    "variant=tiled",
                               "--set",    "diagnostics=0",
                               "--set-at", "3:autotune=60",
                               "--set-at", "30:app.layout=" + layout.string()});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(status, 0);
    EXPECT_LT(seconds, 60) << "the end waited for the whole tune budget";
    std::ifstream in(layout);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("##nbody-progress/text"), std::string::npos)
        << "no progress line at frame 30:\n"
        << text;
    fs::remove(layout);
}

}  // namespace
}  // namespace clviz
