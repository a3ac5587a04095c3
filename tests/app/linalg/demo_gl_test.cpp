// The linear-algebra lab driven directly (hidden GL window, PoCL): the textures hold exactly the
// colours of A, B and the CPU reference's C (in their stored shapes, transposes included), the
// error overlay appears once the reference is ready, every variant passes the reference check
// after a live switch, and a tuning the variant refuses is reported without stopping the lab.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/layout.hpp"
#include "app/linalg/demo.hpp"
#include "app/linalg/gemm_reference.hpp"
#include "compute/core/compute_context.hpp"
#include "tests/app/gui/headless_imgui.hpp"
#include "tests/app/test_frame.hpp"
#include "tests/compute/interop/gl_context.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

namespace clviz {
namespace {

// kernels/matrix_view.cl's matrix_to_rgba on the host (float, truncating like convert_uchar_sat).
std::array<int, 3> colourOf(float v, float scale) {
    const float t = std::clamp(v / scale, -1.0f, 1.0f);
    const float a = std::fabs(t);
    const float white[3] = {0.96f, 0.96f, 0.96f};
    const float blue[3] = {0.17f, 0.35f, 0.80f}, red[3] = {0.80f, 0.20f, 0.15f};
    const float* end = t < 0 ? blue : red;
    std::array<int, 3> out{};
    for (int c = 0; c < 3; ++c)
        out[c] = int(std::clamp((white[c] + (end[c] - white[c]) * a) * 255.0f, 0.0f, 255.0f));
    return out;
}

// Every texel within one step of the colour of `values` (rows x cols, row-major).
void expectColours(const SharedTexture* t, const std::vector<float>& values, int rows, int cols,
                   float scale, const char* what) {
    ASSERT_NE(t, nullptr) << what;
    ASSERT_EQ(t->height(), rows) << what;
    ASSERT_EQ(t->width(), cols) << what;
    const std::vector<std::uint8_t> px = t->readBack();
    int wrong = 0;
    for (int i = 0; i < rows * cols; ++i) {
        const auto want = colourOf(values[std::size_t(i)], scale);
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(px[std::size_t(i) * 4 + c]) - want[c]) > 1) ++wrong;
        if (px[std::size_t(i) * 4 + 3] != 255) ++wrong;
    }
    EXPECT_EQ(wrong, 0) << what;
}

class LinalgDemoTest : public test::GlComputeSuite<320, 240> {
  protected:
    void TearDown() override {
        if (demo_) demo_->shutdown();
    }

    LinalgDemo& start(bool offFrame = false) {
        AppServices app;
        app.compute = cc_;
        app.workOffFrame = [offFrame] { return offFrame; };
        app.notify = [this](bool isError, const std::string& m) {
            (isError ? errors_ : notes_).push_back(m);
        };
        demo_ = std::make_unique<LinalgDemo>();
        demo_->init(app);
        return *demo_;
    }

    void frame(long long index = 0) { test::stepAndDraw(*demo_, index); }

    std::unique_ptr<LinalgDemo> demo_;
    std::vector<std::string> errors_, notes_;
};

TEST_F(LinalgDemoTest, TexturesHoldAAndBAsStoredAndTheReferenceC) {
    LinalgDemo& demo = start();
    EXPECT_GT(demo.ceilings().bandwidthGBs, 0);
    EXPECT_GT(demo.ceilings().fp32Gflops, 0);
    // Primes; A stored K x M (transposed).
    for (const auto& [k, v] : {std::pair{"m", "17"},
                               {"n", "29"},
                               {"k", "31"},
                               {"trans-a", "on"},
                               {"all-variants", "off"},
                               {"sweep", "off"}})
        ASSERT_NO_THROW(demo.set(k, v)) << k;
    frame();
    GemmLab& lab = *demo.lab();
    expectColours(demo.matrixTexture('A'), lab.hostA(), 31, 17, 1.0f, "A (stored 31 x 17)");
    expectColours(demo.matrixTexture('B'), lab.hostB(), 31, 29, 1.0f, "B");
    const std::vector<float> ref = referenceGemm(lab.shape(), lab.hostA(), lab.hostB());
    expectColours(demo.matrixTexture('C'), ref, 17, 29, std::sqrt(31.0f), "C");
    // The overlay comes once the worker's reference is in: wait for it, then one more frame.
    ASSERT_EQ(lab.waitForReference(), GemmLab::Reference::Ready);
    frame(1);
    EXPECT_TRUE(demo.errorOverlayDrawn());
    ASSERT_NE(demo.matrixTexture('E'), nullptr);
    EXPECT_EQ(demo.matrixTexture('E')->width(), 29);
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(LinalgDemoTest, EveryVariantPassesTheCheckAfterALiveSwitch) {
    LinalgDemo& demo = start();
    ASSERT_NO_THROW(demo.set("size", "45"));
    frame();
    for (int v = 0; v < kGemmVariantCount; ++v) {
        const std::string id = gemmVariantInfo(GemmVariant(v)).id;
        ASSERT_NO_THROW(demo.set("variant", id));
        frame(v + 1);
        const Demo::ReferenceResult r = demo.checkReference();
        EXPECT_TRUE(r.ok) << id << ": " << r.message;
        EXPECT_NE(r.message.find(id), std::string::npos) << r.message;
    }
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(LinalgDemoTest, ARefusedTuningIsReportedAndTheLabGoesOn) {
    LinalgDemo& demo = start();
    ASSERT_NO_THROW(demo.set("size", "16"));
    ASSERT_NO_THROW(demo.set("block-m", "6"));  // BM must be a multiple of 4
    frame();
    ASSERT_FALSE(errors_.empty());
    EXPECT_NE(errors_.back().find("multiples of 4"), std::string::npos) << errors_.back();
    EXPECT_FALSE(demo.checkReference().ok);
    ASSERT_NO_THROW(demo.set("block-m", "0"));
    frame(1);
    EXPECT_TRUE(demo.checkReference().ok);
    EXPECT_NE(errorOf([&] { demo.set("variant", "strassen"); }).find("unknown GEMM variant"),
              std::string::npos);
}

// Issue 27: with the app's leave the start (ceiling probes, kernel builds, first runs) runs off the
// frame, frames go on with its progress line, and the lab afterwards passes its check.
class LinalgStartTest : public LinalgDemoTest {
  protected:
    // One frame as the app runs it (GUI, step, draw); returns the frame's GUI layout.
    std::string guiFrame(long long index) { return test::guiFrame(*demo_, index); }
};

TEST_F(LinalgStartTest, TheStartRunsOffTheFrameWithItsProgress) {
    test::HeadlessImGui imgui(ImVec2(320, 240));
    LinalgDemo& demo = start(true);  // returns before the probes and the builds are done
    EXPECT_EQ(demo.progressLine().rfind("Starting the linear-algebra lab", 0), 0u)
        << demo.progressLine();
    EXPECT_EQ(demo.ceilings().bandwidthGBs, 0) << "init measured the ceilings inside the frame";
    EXPECT_EQ(demo.lab(), nullptr);
    int shown = 0;
    // "Starting the linear-algebra lab: ... (k of N)": the ceilings, two kernel builds and the
    // first launch of each GEMM variant.
    const std::string ofSteps = " of " + std::to_string(3 + kGemmVariantCount) + ")";
    bool counted = false;
    long long index = 0;
    for (; index < 100000 && !demo.progressLine().empty(); ++index) {
        counted = counted || demo.progressLine().find(ofSteps) != std::string::npos;
        if (guiFrame(index).find("##linalg-progress/text") != std::string::npos) ++shown;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a frame's worth
    }
    ASSERT_TRUE(demo.progressLine().empty()) << "the start never finished";
    EXPECT_GE(shown, 2) << "the frames waited for the start";
    EXPECT_TRUE(counted);
    EXPECT_GT(demo.ceilings().bandwidthGBs, 0);
    EXPECT_GT(demo.ceilings().fp32Gflops, 0);
    ASSERT_NE(demo.lab(), nullptr);
    const std::string layout = guiFrame(index++);
    EXPECT_EQ(layout.find("##linalg-progress"), std::string::npos) << layout;
    ASSERT_NE(demo.matrixTexture('C'), nullptr);
    EXPECT_EQ(demo.matrixTexture('C')->width(), 512);
    const Demo::ReferenceResult r = demo.checkReference();
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(LinalgStartTest, ASettingDuringTheStartWaitsForIt) {
    LinalgDemo& demo = start(true);
    ASSERT_FALSE(demo.progressLine().empty());
    ASSERT_NO_THROW(demo.set("size", "45"));
    EXPECT_TRUE(demo.progressLine().empty()) << "the setting did not wait for the start";
    ASSERT_NE(demo.lab(), nullptr);
    frame();
    ASSERT_NE(demo.matrixTexture('C'), nullptr);
    EXPECT_EQ(demo.matrixTexture('C')->width(), 45);
    const Demo::ReferenceResult r = demo.checkReference();
    EXPECT_TRUE(r.ok) << r.message;
    EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(LinalgStartTest, QuittingMidStartReturnsPromptly) {
    LinalgDemo& demo = start(true);
    ASSERT_FALSE(demo.progressLine().empty());
    // As the app's quit does: cancels the job at its next step.
    const double seconds = test::secondsToShutDown(demo);
    demo_.reset();
    EXPECT_LT(seconds, 30) << "the quit waited for the whole start";
}

}  // namespace
}  // namespace clviz
