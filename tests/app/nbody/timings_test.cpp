// The timing log behind the Timings panel and the exit summary.
#include "app/nbody/timings.hpp"

#include "app/nbody/demo.hpp"

#include <gtest/gtest.h>

#include <string>

namespace clviz {
namespace {

TEST(RollingSeries, KeepsTheLastValuesOldestFirst) {
    RollingSeries s;
    EXPECT_EQ(s.count(), 0u);
    EXPECT_EQ(s.last(), 0.0f);
    for (int i = 1; i <= 10; ++i)
        s.add(float(i));
    EXPECT_EQ(s.count(), 10u);
    EXPECT_EQ(s.last(), 10.0f);
    EXPECT_FLOAT_EQ(s.mean(), 5.5f);
    EXPECT_EQ(s.max(), 10.0f);
    for (std::size_t i = 0; i < RollingSeries::kHistory; ++i)
        s.add(2.0f);
    EXPECT_EQ(s.count(), RollingSeries::kHistory);
    EXPECT_FLOAT_EQ(s.mean(), 2.0f);
    EXPECT_EQ(s.max(), 2.0f);
    s.add(7.0f);
    // The oldest value sits at the offset PlotLines starts from; the newest just before it.
    EXPECT_EQ(s.data()[(s.offset() + s.size() - 1) % s.size()], 7.0f);
}

NbodyFrameSample sample(double frame, double kernel, int steps = 1) {
    NbodyFrameSample s;
    s.frameMs = frame;
    s.kernelMs = kernel;
    s.forceMs = kernel * 0.9;
    s.copyMs = 0.5;
    s.copyHostMs = 0.25;
    s.renderMs = 2;
    s.steps = steps;
    s.bodies = 1000;
    return s;
}

TEST(NbodyTimingLog, TotalsSkipWarmupAndAverage) {
    NbodyTimingLog log;
    for (int i = 0; i < NbodyTimingLog::kWarmupFrames; ++i)
        log.add(sample(500, 400));
    EXPECT_EQ(log.totals().frames, 0);
    log.add(sample(10, 8));
    log.add(sample(12, 8));
    log.add(sample(20, 8, 2));
    const auto t = log.totals();
    EXPECT_EQ(t.frames, 3);
    EXPECT_DOUBLE_EQ(t.meanFrameMs, 14);
    EXPECT_DOUBLE_EQ(t.medianFrameMs, 12);
    EXPECT_DOUBLE_EQ(t.meanKernelMs, 8);
    EXPECT_DOUBLE_EQ(t.meanCopyMs, 0.5);
    EXPECT_DOUBLE_EQ(t.meanRenderMs, 2);
    EXPECT_NEAR(t.stepsPerFrame, 4.0 / 3, 1e-12);
    // 4 steps of 1e6 interactions in 24 ms of kernels.
    EXPECT_NEAR(t.interactionsPerSecond, 4e6 / 24e-3, 1);
    EXPECT_NEAR(t.gflops, t.interactionsPerSecond * 20e-9, 1e-9);
    // The live series saw every frame, warm-up included.
    EXPECT_EQ(log.frameMs().count(), std::size_t(NbodyTimingLog::kWarmupFrames + 3));
}

TEST(NbodyTimingLog, UnmeasuredValuesAreLeftOut) {
    NbodyTimingLog log;
    for (int i = 0; i < NbodyTimingLog::kWarmupFrames; ++i)
        log.add({});
    NbodyFrameSample paused;  // no steps, no GL timer
    paused.frameMs = 16;
    log.add(paused);
    log.add(sample(16, 10));
    const auto t = log.totals();
    EXPECT_EQ(t.frames, 2);
    EXPECT_DOUBLE_EQ(t.meanKernelMs, 10);  // the paused frame has no kernel time
    EXPECT_DOUBLE_EQ(t.meanRenderMs, 2);
    EXPECT_DOUBLE_EQ(t.stepsPerFrame, 0.5);
}

TEST(NbodyTimingLog, SummaryLineIsKeyValue) {
    NbodyTimingLog log;
    for (int i = 0; i < 10; ++i)
        log.add(sample(11, 10));
    const std::string line = log.summaryLine("N=1000");
    EXPECT_EQ(line.rfind("nbody summary: N=1000 frames=5 ", 0), 0u) << line;
    for (const char* key :
         {"mean_frame_ms=11.000", "mean_kernel_ms=10.000", "mean_copy_ms=0.500",
          "mean_render_ms=2.000", "frame_over_kernel=1.100", "interactions_per_s="})
        EXPECT_NE(line.find(key), std::string::npos) << key << " missing in " << line;
    log.clearTotals();
    EXPECT_EQ(log.totals().frames, 0);
}

}  // namespace
}  // namespace clviz

namespace clviz {
namespace {

// Issue 27: the tree's frames counted N^2 interactions; the log now takes what the step counted.
TEST(NbodyTimingLog, RatesUseTheInteractionsTheStepCounted) {
    NbodyTimingLog log;
    for (int i = 0; i < NbodyTimingLog::kWarmupFrames + 2; ++i) {
        NbodyFrameSample s;
        s.frameMs = 10;
        s.kernelMs = 4;
        s.steps = 1;
        s.bodies = 1e6;               // N^2 would be 1e12
        s.interactionsPerStep = 5e8;  // the tree's lists: 500 per body
        s.flopsPerInteraction = 20;
        log.add(s);
    }
    const auto t = log.totals();
    EXPECT_NEAR(t.interactionsPerSecond, 5e8 / 4e-3, 1);
    EXPECT_NEAR(t.gflops, 5e8 * 20 / 4e-3 * 1e-9, 1e-6);
    EXPECT_NEAR(log.interactionsPerSecond().last(), 5e8 / 4e-3, 1e5);
}

}  // namespace
}  // namespace clviz
