// Pure pieces of the app shell: frame statistics, the key table, the demo registry, and the
// extensions the OpenCL panel marks.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cmath>
#include <set>

#include "app/demo_registry.hpp"
#include "app/gui/device_panel.hpp"
#include "app/gui/frame_stats.hpp"
#include "app/gui/keys.hpp"

using namespace clviz;

TEST(FrameStats, EmptyIsZero) {
    FrameStats s;
    EXPECT_EQ(s.count(), 0u);
    EXPECT_EQ(s.fps(), 0);
    EXPECT_EQ(s.meanMs(), 0);
    EXPECT_EQ(s.minMs(), 0);
    EXPECT_EQ(s.maxMs(), 0);
}

TEST(FrameStats, MeanMinMaxFps) {
    FrameStats s;
    s.add(0.010);
    s.add(0.020);
    s.add(0.030);
    EXPECT_EQ(s.count(), 3u);
    EXPECT_NEAR(s.meanMs(), 20.0, 1e-4);
    EXPECT_NEAR(s.minMs(), 10.0, 1e-4);
    EXPECT_NEAR(s.maxMs(), 30.0, 1e-4);
    EXPECT_NEAR(s.fps(), 50.0, 1e-3);
}

TEST(FrameStats, IgnoresNonsense) {
    FrameStats s;
    s.add(0);
    s.add(-1);
    s.add(std::nan(""));
    s.add(1e9);
    EXPECT_EQ(s.count(), 0u);
}

TEST(FrameStats, KeepsOnlyTheLastWindow) {
    FrameStats s;
    for (std::size_t i = 0; i < FrameStats::kHistory; ++i)
        s.add(1.0);  // 1000 ms
    for (std::size_t i = 0; i < FrameStats::kHistory; ++i)
        s.add(0.004);
    EXPECT_EQ(s.count(), FrameStats::kHistory);
    EXPECT_NEAR(s.meanMs(), 4.0, 1e-4);
    EXPECT_NEAR(s.maxMs(), 4.0, 1e-4);
    s.add(0.008);
    EXPECT_NEAR(s.maxMs(), 8.0, 1e-4);
    // The plot's oldest sample is at plotOffset(); the newest just before it.
    const int newest = (s.plotOffset() + s.plotCount() - 1) % s.plotCount();
    EXPECT_NEAR(s.plotData()[newest], 8.0f, 1e-4);
}

TEST(Keys, BindingsAreUniqueAndDocumented) {
    std::set<int> keys;
    for (const auto& b : appKeyBindings()) {
        EXPECT_TRUE(keys.insert(b.key).second) << b.label << " bound twice";
        EXPECT_NE(b.action, AppAction::None);
        EXPECT_GT(std::string(b.meaning).size(), 0u);
    }
    EXPECT_EQ(appActionForKey(GLFW_KEY_ESCAPE), AppAction::Quit);
    EXPECT_EQ(appActionForKey(GLFW_KEY_Q), AppAction::Quit);
    EXPECT_EQ(appActionForKey(GLFW_KEY_V), AppAction::ToggleVsync);
    EXPECT_EQ(appActionForKey(GLFW_KEY_F), AppAction::ToggleFullscreen);
    EXPECT_EQ(appActionForKey(GLFW_KEY_F1), AppAction::ToggleGui);
    EXPECT_EQ(appActionForKey(GLFW_KEY_F12), AppAction::Screenshot);
    EXPECT_EQ(appActionForKey(GLFW_KEY_P), AppAction::Screenshot);
    // Keys the demos use (issue 4: space pause, S step, R reset) stay free for them.
    EXPECT_EQ(appActionForKey(GLFW_KEY_SPACE), AppAction::None);
    EXPECT_EQ(appActionForKey(GLFW_KEY_S), AppAction::None);
    EXPECT_EQ(appActionForKey(GLFW_KEY_R), AppAction::None);
    EXPECT_EQ(appKeysSummary().rfind("Esc/Q quit, V toggle vsync", 0), 0u);
}

namespace {
class NullDemo : public Demo {
  public:
    const char* name() const override { return "null"; }
    void init(const AppServices&) override {}
    void step(const FrameInfo&) override {}
    void draw(const FrameInfo&) override {}
    void gui(const FrameInfo&) override {}
    void shutdown() override {}
    void set(const std::string&, const std::string&) override {}
};
}  // namespace

TEST(DemoRegistry, RegisterFindReplace) {
    const std::size_t before = registeredDemos().size();
    EXPECT_EQ(findDemo("test-null"), nullptr);
    registerDemo("test-null", "Null", [] { return std::make_unique<NullDemo>(); });
    ASSERT_NE(findDemo("test-null"), nullptr);
    EXPECT_EQ(findDemo("test-null")->title, "Null");
    EXPECT_EQ(registeredDemos().size(), before + 1);
    EXPECT_NE(demoIdList().find("test-null"), std::string::npos);
    registerDemo("test-null", "Null again", [] { return std::make_unique<NullDemo>(); });
    EXPECT_EQ(registeredDemos().size(), before + 1);
    EXPECT_EQ(findDemo("test-null")->title, "Null again");
    EXPECT_STREQ(findDemo("test-null")->create()->name(), "null");
}

TEST(DevicePanel, MarksInteropExtensions) {
    EXPECT_TRUE(isInteropExtension("cl_khr_gl_sharing"));
    EXPECT_TRUE(isInteropExtension("cl_khr_gl_event"));
    EXPECT_TRUE(isInteropExtension("cl_khr_external_memory"));
    EXPECT_TRUE(isInteropExtension("cl_khr_external_memory_opaque_fd"));
    EXPECT_FALSE(isInteropExtension("cl_khr_fp64"));
    EXPECT_FALSE(isInteropExtension("cl_khr_gl_msaa_sharing_x"));
}
