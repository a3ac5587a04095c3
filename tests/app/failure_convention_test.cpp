// The failure convention at the app's boundary (docs/architecture.md, "Failures"): the app.*
// table, LiveReload's keys and a demo's own controls refuse by throwing clviz::Error with the
// sentence the user sees, leave the state as it was, and AppServices::attempt turns the refusal
// into an error notice. Needs no window and no device: the shell is a recording AppControls.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "app/app_settings.hpp"
#include "app/demo.hpp"
#include "app/demo_registry.hpp"
#include "app/live_reload.hpp"
#include "compute/core/kernel_source.hpp"
#include "render/gl/shader_source.hpp"
#include "tests/support/error_message.hpp"

using clviz::test::errorOf;

namespace clviz {
namespace {

// What the app.* rows asked of the shell, in order; a refusal asks nothing.
class RecordingControls : public AppControls {
  public:
    std::vector<std::string> calls;
    std::string switchFailure;  // switchDemo throws it when not empty, as a demo that cannot start

    void setVsync(bool on) override { record("vsync", on); }
    void setPresent(bool on) override { record("present", on); }
    void setFullscreen(bool on) override { record("fullscreen", on); }
    void setGuiVisible(bool on) override { record("gui", on); }
    void setGuiScale(float scale) override {
        calls.push_back("gui-scale " + std::to_string(scale));
    }
    void setDevicesPanel(bool shown) override { record("devices", shown); }
    void setWorkOffFrame(bool on) override { record("off-frame", on); }
    void switchDemo(int index) override {
        if (!switchFailure.empty()) throw Error(switchFailure);
        calls.push_back("demo " + std::to_string(index));
    }
    void queueScreenshot(const std::string& path) override {
        calls.push_back("screenshot " + path);
    }
    void queueLayout(const std::string& path) override { calls.push_back("layout " + path); }
    void setForcedMinimized(bool on) override { record("minimized", on); }
    void setDeviceName(const std::string& name) override { calls.push_back("device-name " + name); }
    void setLiveReload(const std::string& key, const std::string& value) override {
        if (value == "refuse") throw Error("live reload refused " + key);
        calls.push_back("live " + key + "=" + value);
    }

  private:
    void record(const char* what, bool on) {
        calls.push_back(std::string(what) + (on ? " on" : " off"));
    }
};

TEST(FailureConvention, AppSettingsApplyOrThrowTheSentenceAndChangeNothing) {
    RecordingControls shell;
    applyAppSetting(shell, "vsync", "off");
    applyAppSetting(shell, "gui-scale", "2");
    EXPECT_EQ(shell.calls, (std::vector<std::string>{"vsync off", "gui-scale 2.000000"}));

    shell.calls.clear();
    const std::string badValue = errorOf([&] { applyAppSetting(shell, "vsync", "maybe"); });
    EXPECT_CONTAINS(badValue, "app.vsync");
    EXPECT_CONTAINS(badValue, "on or off");
    EXPECT_CONTAINS(errorOf([&] { applyAppSetting(shell, "gui-scale", "9"); }),
                    "app.gui-scale expects auto or a factor from 0.5 to 4, got '9'");
    EXPECT_EQ(errorOf([&] { applyAppSetting(shell, "screenshot", "shot.jpg"); }),
              "app.screenshot expects a file name ending in .png");
    const std::string unknown = errorOf([&] { applyAppSetting(shell, "nope", "1"); });
    EXPECT_CONTAINS(unknown, "unknown app setting 'app.nope' (");
    EXPECT_CONTAINS(unknown, "app.vsync");
    EXPECT_TRUE(shell.calls.empty()) << "a refused value reached the shell: " << shell.calls[0];
}

TEST(FailureConvention, ADemoSwitchThrowsTheUnknownNameOrTheStartFailure) {
    RecordingControls shell;
    const std::string unknown = errorOf([&] { applyAppSetting(shell, "demo", "nope"); });
    EXPECT_CONTAINS(unknown, "unknown demo 'nope' (available: ");
    EXPECT_CONTAINS(unknown, registeredDemos().front().id);
    EXPECT_TRUE(shell.calls.empty());

    const std::string id = registeredDemos().back().id;
    applyAppSetting(shell, "demo", id);
    EXPECT_EQ(shell.calls,
              (std::vector<std::string>{"demo " + std::to_string(registeredDemos().size() - 1)}));

    // activateDemo's failure passes through the row unchanged: the app prints it once.
    shell.switchFailure = "cannot start Some lab: no device";
    EXPECT_EQ(errorOf([&] { applyAppSetting(shell, "demo", id); }),
              "cannot start Some lab: no device");
}

TEST(FailureConvention, LiveReloadKeysRouteThroughTheShellAndItsRefusalPasses) {
    RecordingControls shell;
    applyAppSetting(shell, "kernels", "on");
    EXPECT_EQ(shell.calls, (std::vector<std::string>{"live kernels=on"}));
    EXPECT_EQ(errorOf([&] { applyAppSetting(shell, "kernel-dir", "refuse"); }),
              "live reload refused kernel-dir");
}

TEST(FailureConvention, LiveReloadRefusesBadValuesAndKeepsWhatItWatches) {
    LiveReload reload;  // not started: nothing watched, no device needed for these keys
    const std::string kernelsBefore = kernelDirectory();
    const std::string shadersBefore = shaderDirectory();
    EXPECT_EQ(errorOf([&] { reload.set("kernels", "maybe", nullptr); }),
              "app.kernels expects on or off, got 'maybe'");
    EXPECT_EQ(errorOf([&] { reload.set("reload-wait", "0", nullptr); }),
              "app.reload-wait expects seconds (0 < S <= 600)");
    EXPECT_EQ(errorOf([&] { reload.set("reload-wait", "1", nullptr); }),
              "nothing is watched (see --kernel-dir)");
    EXPECT_EQ(errorOf([&] { reload.set("check-reference", "off", nullptr); }),
              "app.check-reference expects on");
    EXPECT_EQ(errorOf([&] { reload.set("test-save-file", "no-comma", nullptr); }),
              "app.test-save-file expects SRC,DST");
    EXPECT_EQ(errorOf([&] { reload.set("test-save-file", "/nonexistent/a,/tmp/b", nullptr); }),
              "cannot read /nonexistent/a");
    EXPECT_EQ(errorOf([&] { reload.set("kernel-dir", "/nonexistent-kernels", nullptr); }),
              "cannot watch /nonexistent-kernels: not a directory");
    EXPECT_EQ(errorOf([&] { reload.set("shader-dir", "/nonexistent-shaders", nullptr); }),
              "cannot watch /nonexistent-shaders: not a directory");
    EXPECT_EQ(kernelDirectory(), kernelsBefore);
    EXPECT_EQ(shaderDirectory(), shadersBefore);
    // Without a demo there is no check and nothing to refuse.
    EXPECT_NO_THROW(reload.set("check-reference", "on", nullptr));
    // A key the app.* table never routes here is a bug, not a message for the user.
    EXPECT_THROW(reload.set("bogus", "1", nullptr), std::invalid_argument);
}

TEST(FailureConvention, AttemptTurnsAnErrorIntoANoticeAndPassesBugsOn) {
    AppServices app;
    std::vector<std::pair<bool, std::string>> shown;
    app.notify = [&](bool isError, const std::string& m) { shown.emplace_back(isError, m); };

    int value = 1;
    EXPECT_TRUE(app.attempt([&] { value = 2; }));
    EXPECT_EQ(value, 2);
    EXPECT_TRUE(shown.empty());

    EXPECT_FALSE(app.attempt([&] { throw Error("precision double needs cl_khr_fp64"); }, "D: "));
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_TRUE(shown[0].first) << "a refusal is an error notice";
    EXPECT_EQ(shown[0].second, "D: precision double needs cl_khr_fp64");

    EXPECT_THROW(app.attempt([] { throw std::logic_error("index out of range"); }),
                 std::logic_error);
    EXPECT_EQ(shown.size(), 1u);
}

}  // namespace
}  // namespace clviz
