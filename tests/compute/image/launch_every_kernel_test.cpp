// The image lab's start job launches every kernel once (issue 27: PoCL compiles a kernel at its
// first launch, so turning a filter on later stalled a frame for seconds).
#include "compute/image/launch_every_kernel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "compute/image/pipeline.hpp"
#include "tests/compute/image/test_support.hpp"

namespace clviz {
namespace {

bool ran(const std::vector<std::string>& labels, const std::string& part) {
    return std::any_of(labels.begin(), labels.end(),
                       [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(LaunchEveryImageKernel, EveryFilterVariantAndModeRunsOnce) {
    ImagePipeline pipeline(test::context());
    int reports = 0, total = 0;
    const std::vector<std::string> labels = launchEveryImageKernel(pipeline, [&](int done, int of) {
        EXPECT_EQ(done, reports + 1);
        ++reports;
        total = of;
    });
    EXPECT_EQ(reports, total);
    EXPECT_GE(total, kHistogramVariantCount);
    for (int k = 0; k < kFilterKindCount; ++k) {
        const FilterKind kind = FilterKind(k);
        if (kind == FilterKind::Rotate || kind == FilterKind::Equalize) continue;  // below
        EXPECT_TRUE(ran(labels, filterKindInfo(kind).name)) << filterKindInfo(kind).name;
    }
    for (int v = 0; v < kRotateVariantCount; ++v)
        if (pipeline.rotateAvailable(RotateVariant(v))) {
            EXPECT_TRUE(
                ran(labels, std::string("rotate (") + rotateVariantInfo(RotateVariant(v)).name))
                << rotateVariantInfo(RotateVariant(v)).name;
        }
    for (int h = 0; h < kHistogramVariantCount; ++h) {
        const std::string name = histogramVariantInfo(HistogramVariant(h)).name;
        EXPECT_TRUE(ran(labels, "histogram (" + name + ")")) << name;
        EXPECT_TRUE(ran(labels, ", " + name + ")")) << "equalize with " << name;
    }
    EXPECT_TRUE(ran(labels, "equalize (luma"));
    EXPECT_TRUE(ran(labels, "equalize (per channel"));
}

}  // namespace
}  // namespace clviz
