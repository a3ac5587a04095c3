// The viewer's frame trace (common/frame_trace.hpp): the summary finds the stall, skips the
// warm-up, and the CSV holds every frame.
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
    t.add(1.5);
    t.add(2.25);
    const auto path = std::filesystem::temp_directory_path() /
                      ("clviz-frame-trace-" +
                       std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".csv");
    t.writeCsv(path.string());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    EXPECT_EQ(text.str(), "frame,ms\n0,1.5000\n1,2.2500\n");
    EXPECT_THROW(t.writeCsv("/proc/clviz-no-such-dir/trace.csv"), Error);
}
