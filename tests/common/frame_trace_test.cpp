// The viewer's frame trace (common/frame_trace.hpp): the summary finds the stall and the part of
// the frame it sat in, skips the warm-up, and the CSV holds every frame with its parts.
#include "common/frame_trace.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

using namespace clviz;

TEST(FrameTrace, SummaryFindsTheStallAfterTheWarmup) {
    FrameTrace t;
    t.add(500);  // the first frame builds kernels: left out
    for (int i = 0; i < 9; ++i)
        t.add(i == 6 ? 40.0 : 10.0 + 0.1 * i);
    const FrameTraceSummary s = t.summary(1);
    EXPECT_EQ(s.frames, 9u);
    EXPECT_DOUBLE_EQ(s.maxMs, 40.0);
    EXPECT_EQ(s.maxFrame, 7);
    EXPECT_DOUBLE_EQ(s.medianMs, 10.4);  // of 10.0 .. 10.5, 10.7, 10.8 and 40
    EXPECT_NEAR(s.maxOverMedian, 40.0 / 10.4, 1e-12);
    EXPECT_NE(describe(s, 1).find("max / median 3.85"), std::string::npos) << describe(s, 1);
    EXPECT_EQ(s.maxFramePhase, FramePhase::Count) << "no parts traced: none named";
    EXPECT_EQ(describe(s, 1).find("most of it"), std::string::npos) << describe(s, 1);
}

TEST(FrameTrace, PhaseClockSplitsAFrameAndTheSummaryNamesTheStallsPart) {
    FramePhaseClock clock;
    clock.start(1.0);
    clock.mark(FramePhase::Input, 1.001);
    clock.mark(FramePhase::Step, 1.003);
    clock.mark(FramePhase::Draw, 1.004);
    clock.mark(FramePhase::Step, 1.0045);  // a part marked twice adds up
    clock.mark(FramePhase::Present, 1.0345);
    const FramePhaseMs& ms = clock.milliseconds();
    EXPECT_NEAR(ms[size_t(FramePhase::Input)], 1.0, 1e-9);
    EXPECT_NEAR(ms[size_t(FramePhase::Step)], 2.5, 1e-9);
    EXPECT_NEAR(ms[size_t(FramePhase::Draw)], 1.0, 1e-9);
    EXPECT_NEAR(ms[size_t(FramePhase::Present)], 30.0, 1e-9);
    EXPECT_EQ(ms[size_t(FramePhase::Gui)], 0.0);

    FrameTrace t;
    FramePhaseMs quiet{};
    quiet[size_t(FramePhase::Step)] = 4;
    for (int i = 0; i < 5; ++i)
        t.add(5.0, quiet);
    t.add(34.5, ms);
    const FrameTraceSummary s = t.summary(0);
    EXPECT_EQ(s.maxFrame, 5);
    EXPECT_EQ(s.maxFramePhase, FramePhase::Present);
    EXPECT_NE(describe(s, 0).find("(frame 5, most of it in present)"), std::string::npos)
        << describe(s, 0);
    clock.start(2.0);
    EXPECT_EQ(clock.milliseconds()[size_t(FramePhase::Present)], 0.0) << "start() clears the parts";
}

TEST(FrameTrace, EvenCountsTakeTheMiddlePairAndEmptyTracesSaySo) {
    FrameTrace t;
    for (double ms : {4.0, 1.0, 3.0, 2.0})
        t.add(ms);
    EXPECT_DOUBLE_EQ(t.summary(0).medianMs, 2.5);
    EXPECT_EQ(t.summary(4).frames, 0u);
    EXPECT_EQ(t.summary(9).maxFrame, -1);
    EXPECT_NE(describe(t.summary(4), 4).find("no frames"), std::string::npos);
}

TEST(FrameTrace, CsvHoldsEveryFrameAndBadPathsThrow) {
    FrameTrace t;
    FramePhaseMs parts{};
    parts[size_t(FramePhase::Step)] = 0.5;
    parts[size_t(FramePhase::Present)] = 1.0;
    t.add(1.5, parts);
    t.add(2.25);
    const auto path = std::filesystem::temp_directory_path() /
                      ("clviz-frame-trace-" +
                       std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".csv");
    t.writeCsv(path.string());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    EXPECT_EQ(text.str(),
              "frame,ms,input_ms,gui_ms,step_ms,draw_ms,before_present_ms,present_ms,frame_end_ms\n"
              "0,1.5000,0.0000,0.0000,0.5000,0.0000,0.0000,1.0000,0.0000\n"
              "1,2.2500,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000\n");
    EXPECT_THROW(t.writeCsv("/proc/clviz-no-such-dir/trace.csv"), Error);
}
