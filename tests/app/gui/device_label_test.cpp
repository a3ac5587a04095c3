// The overlay's short device names and its text fitting (issue: a long PoCL device name made the
// overlay 690 px wide).
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/gui/device_label.hpp"
#include "app/gui/overlay.hpp"

namespace clviz {
namespace {

TEST(CompactDeviceName, DropsTrademarksFillerAndClock) {
    EXPECT_EQ(compactDeviceName("pthread-skylake-avx512-Intel(R) Xeon(R) Processor @ 2.80GHz"),
              "pthread-skylake-avx512-Intel Xeon");
    EXPECT_EQ(compactDeviceName("AMD EPYC 7B13 64-Core Processor"), "AMD EPYC 7B13 64-Core");
    EXPECT_EQ(compactDeviceName("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz"), "Intel Core i7-8700");
}

TEST(CompactDeviceName, KeepsNamesWithoutNoise) {
    EXPECT_EQ(compactDeviceName("NVIDIA H200"), "NVIDIA H200");
    EXPECT_EQ(compactDeviceName("pthread-haswell"), "pthread-haswell");
    EXPECT_EQ(compactDeviceName("x"), "x");
    // A name that is nothing but filler stays as it was rather than becoming empty.
    EXPECT_EQ(compactDeviceName("CPU"), "CPU");
}

TEST(CompactPlatformName, ShortensKnownPlatforms) {
    EXPECT_EQ(compactPlatformName("Portable Computing Language"), "PoCL");
    EXPECT_EQ(compactPlatformName("NVIDIA CUDA"), "NVIDIA CUDA");
    EXPECT_EQ(compactPlatformName("Intel(R) OpenCL"), "Intel OpenCL");
}

class FitToWidth : public ::testing::Test {
  protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(800, 600);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        ImGui::NewFrame();
    }
    void TearDown() override {
        ImGui::EndFrame();
        ImGui::DestroyContext();
    }
    static float width(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }
};

TEST_F(FitToWidth, ShortTextIsUnchanged) {
    EXPECT_EQ(fitToWidth("NVIDIA H200", 1000, TextCut::End), "NVIDIA H200");
    EXPECT_EQ(fitToWidth("", 10, TextCut::Middle), "");
}

TEST_F(FitToWidth, CutsTheEndOrTheMiddleAndFits) {
    const std::string name = "pthread-skylake-avx512-Intel Xeon (PoCL)";
    const float limit = width(name) / 2;
    const std::string end = fitToWidth(name, limit, TextCut::End);
    EXPECT_LE(width(end), limit);
    EXPECT_EQ(end.substr(end.size() - 3), "...");
    EXPECT_EQ(end.substr(0, 7), "pthread");
    const std::string middle = fitToWidth(name, limit, TextCut::Middle);
    EXPECT_LE(width(middle), limit);
    EXPECT_NE(middle.find("..."), std::string::npos);
    EXPECT_EQ(middle.substr(0, 4), "pthr");
    EXPECT_EQ(middle.substr(middle.size() - 6), "(PoCL)");
    // As much as fits: one more character would not.
    EXPECT_GT(width(name.substr(0, end.size() - 3 + 1) + "..."), limit);
}

TEST_F(FitToWidth, NeverSplitsAUtf8Character) {
    const std::string name = "caf\xC3\xA9 \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 device";
    for (float limit = 5; limit < width(name); limit += 3) {
        for (TextCut cut : {TextCut::End, TextCut::Middle}) {
            const std::string s = fitToWidth(name, limit, cut);
            int pending = 0;  // continuation bytes still owed by the last lead byte
            for (unsigned char c : s) {
                if ((c & 0xC0) == 0x80) {
                    ASSERT_GT(pending, 0) << s;
                    --pending;
                } else {
                    ASSERT_EQ(pending, 0) << s;
                    pending = c >= 0xC0 ? 1 : 0;  // only 2-byte characters in this name
                }
            }
            EXPECT_EQ(pending, 0) << s;
        }
    }
}

TEST_F(FitToWidth, TooNarrowForAnythingGivesDots) {
    EXPECT_EQ(fitToWidth("abcdef", 1, TextCut::End), "...");
}

}  // namespace
}  // namespace clviz
