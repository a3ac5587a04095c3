// What the N-body and image-lab features leave in the kernel-run log for the roofline chart:
// the log keeps the latest run per name; the N-body force pass is counted the all-pairs way (pairs:
// the pairs it computes) and the tree is left out; the image chain records bytes moved per filter
// and no flops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_run_log.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/nbody/run_record.hpp"

namespace clviz {
namespace {

TEST(KernelRunLog, KeepsTheLatestRunPerFeatureAndName) {
    KernelRunLog log;
    log.record("a", {"k", 1, 2, 1e-3, ""});
    log.record("b", {"k", 5, 6, 1e-3, ""});
    log.record("a", {"k", 3, 4, 2e-3, ""});
    log.record("a", {"untimed", 3, 4, 0, ""});  // nothing measured: ignored
    log.record("a", {"nan", 3, 4, std::nan(""), ""});
    const auto all = log.latest();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].feature, "a");
    EXPECT_DOUBLE_EQ(all[0].run.flops, 3);
    EXPECT_GT(all[0].sequence, all[1].sequence);
    ASSERT_EQ(log.latest("b").size(), 1u);
    log.clear();
    EXPECT_TRUE(log.latest().empty());
}

TEST(NbodyRunRecord, AllPairsCountsAndTheTreeLeftOut) {
    NbodyStepTimings t;
    t.steps = 2;
    t.bodies = 1000;
    t.forceMs = 4;
    const auto p = nbodyForceRun(t, NbodyVariant::Tiled, NbodyPrecision::Float);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->flops, 20.0 * 1000 * 1000 * 2);
    EXPECT_DOUBLE_EQ(p->bytes, 32.0 * 1000 * 2);
    EXPECT_DOUBLE_EQ(p->seconds, 4e-3);
    EXPECT_NE(p->note.find("20 per interaction"), std::string::npos);
    const auto pairs = nbodyForceRun(t, NbodyVariant::Pairs, NbodyPrecision::Float);
    ASSERT_TRUE(pairs);
    // Pairs: the forces it computes (each pair once), never the all-pairs equivalent, which
    // would stand at twice its rate against the device's ceilings.
    EXPECT_DOUBLE_EQ(pairs->flops, 26.0 * (1000.0 * 999 / 2) * 2);
    EXPECT_NE(pairs->name.find("each pair once"), std::string::npos) << pairs->name;
    EXPECT_NE(pairs->note.find("N(N-1)/2"), std::string::npos) << pairs->note;
    const auto fp64 = nbodyForceRun(t, NbodyVariant::Tiled, NbodyPrecision::Double);
    ASSERT_TRUE(fp64);
    EXPECT_DOUBLE_EQ(fp64->bytes, 64.0 * 1000 * 2);
    EXPECT_NE(fp64->name.find("fp64"), std::string::npos);
    EXPECT_FALSE(nbodyForceRun(t, NbodyVariant::Tree, NbodyPrecision::Float));
    t.forceMs = 0;
    EXPECT_FALSE(nbodyForceRun(t, NbodyVariant::Tiled, NbodyPrecision::Float));
}

TEST(ImageRunRecords, EachFilterRecordsItsPixelsReadAndWritten) {
    auto cc = ComputeContext::create(DeviceRequest{});
    kernelRunLog().clear();
    ImagePipeline pipeline(*cc);
    pipeline.setSource(makeTestPattern(37, 23));  // primes: no work-group multiple
    pipeline.steps() = ImagePipeline::defaultSteps();
    for (auto& s : pipeline.steps())
        s.enabled = s.kind == FilterKind::Grayscale || s.kind == FilterKind::Transpose;
    pipeline.histogramSettings().enabled = false;
    pipeline.run();
    const auto runs = kernelRunLog().latest("image lab");
    ASSERT_EQ(runs.size(), 2u);
    for (const auto& r : runs) {
        EXPECT_EQ(r.run.flops, 0.0) << r.run.name;  // not counted, so not on the FLOP/s chart
        EXPECT_DOUBLE_EQ(r.run.bytes, 2.0 * 37 * 23 * 4) << r.run.name;
        EXPECT_GT(r.run.seconds, 0) << r.run.name;
        EXPECT_NE(r.run.note.find("read + written"), std::string::npos);
    }
}

}  // namespace
}  // namespace clviz
