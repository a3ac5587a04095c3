#pragma once
// The viewer: window, GL and CL contexts, ImGui, and the main loop that drives the active demo.
// The loop owns timing (frame dt, FPS), routes input ImGui did not take to the demo, applies
// --set / --set-at settings, and takes screenshots (and GUI layout dumps for tests).
//
// A frame runs in Dear ImGui's order: input (window events, --set-at settings, finished reloads)
// -> GUI (ImGui::NewFrame, the app's and the demo's panels) -> compute (the demo's step) -> draw
// -> render the GUI over it -> swap; then what the GUI asked for (menu actions, a demo switch).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_settings.hpp"
#include "app/cli.hpp"
#include "app/demo.hpp"
#include "app/gui/demo_windows.hpp"
#include "app/gui/device_panel.hpp"
#include "app/gui/frame_stats.hpp"
#include "app/gui/keys.hpp"
#include "app/gui/main_menu.hpp"
#include "app/gui/notices.hpp"
#include "app/gui/overlay.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/live_reload.hpp"
#include "app/pointer_input.hpp"
#include "app/viewer_start.hpp"
#include "app/window.hpp"
#include "common/frame_trace.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/gl_device_query.hpp"

struct ImGuiStyle;

namespace clviz {

class Application : private AppControls {
  public:
    // Opens the window and creates the GL and OpenCL contexts (on `start.device`, or on the device
    // that drives GL where the command line left the choice open) and ImGui. Throws clviz::Error.
    Application(const AppOptions& options, ViewerStart start);
    ~Application() override;
    Application(const Application&) = delete;
    Application& operator=(const Application&) = delete;

    // Starts the demo, runs until the window closes (or --frames), returns the exit status:
    // 0 ok, 1 a runtime failure (demo failed, screenshot not written), 2 a setting was refused.
    int run();

  private:
    // run(): start the demo and apply --set (0, or the exit status), frames until the last, then
    // --save and the exit status.
    int start();
    bool frame(long long index);  // false after the last frame
    int finish();

    // The stages of a frame.
    bool takeInput(long long index);  // false when a --set-at setting was refused
    bool isLastFrame(long long index) const;
    FrameInfo frameInfo(long long index);
    void buildGui(const FrameInfo& frame);
    void drawScene(const FrameInfo& frame);
    void renderGui();
    void skipMinimized(bool lastFrame);
    void actOnGuiRequests();

    // Applies one setting: "app.*" keys here, the rest to the active demo. Throws clviz::Error
    // with the sentence the user sees (a demo's refusal led by its name).
    void applySetting(const Setting& s);
    // The catch sites of the failure convention (docs/architecture.md, "Failures"): apply `s` and
    // say why not, on stderr after `origin` ("--set ") or as an error notice. False when refused.
    bool applyFromCommandLine(const std::string& origin, const Setting& s);
    bool applyFromGui(const Setting& s);
    // AppControls: what the app.* keys (app/app_settings.cpp) may change.
    void setVsync(bool on) override;
    void setPresent(bool on) override { present_ = on; }
    void setFullscreen(bool on) override;
    void setGuiVisible(bool on) override { guiVisible_ = on; }
    void setGuiScale(float scale) override;
    void setDevicesPanel(bool shown) override { panels_.devices = shown; }
    void setWorkOffFrame(bool on) override { workOffFrame_ = on; }
    void switchDemo(int index) override;
    void queueScreenshot(const std::string& path) override { pendingScreenshots_.push_back(path); }
    void queueLayout(const std::string& path) override { pendingLayouts_.push_back(path); }
    void setForcedMinimized(bool on) override { forcedMinimized_ = on; }
    void setDeviceName(const std::string& name) override { deviceNameOverride_ = name; }
    void setLiveReload(const std::string& key, const std::string& value) override;

    // Parks the active demo (if any) and starts demo `index`. On failure no demo is active and
    // it throws clviz::Error ("cannot start TITLE: why").
    void activateDemo(int index);
    void switchFromMenu(int index);
    void stopDemo();
    void dropParkedDemos();  // shuts down the demos kept while another one runs
    // Runs a demo call; an exception stops the demo and shows why.
    template <class F>
    void guarded(const char* what, F&& f);

    void createCompute(const GlContextHandles& gl);
    void initImGui();
    void showStartingFrame(const std::string& what);
    void applyContentScale(float scale);
    float wantedGuiScale() const;
    void drawGui(const FrameInfo& frame);
    OverlayInfo overlayInfo(const FrameInfo& frame) const;
    void drawDemoGui(const FrameInfo& frame);
    void perform(AppAction action);
    void writeScreenshots(int width, int height, bool lastFrame);
    void notify(bool isError, const std::string& message);

    // GLFW callbacks (user pointer = this).
    static void onKey(GLFWwindow* w, int key, int scancode, int action, int mods);
    static void onMouseButton(GLFWwindow* w, int button, int action, int mods);
    static void onCursorPos(GLFWwindow* w, double x, double y);
    static void onScroll(GLFWwindow* w, double dx, double dy);
    static void onDrop(GLFWwindow* w, int count, const char** paths);
    static void onContentScale(GLFWwindow* w, float xs, float ys);
    void sendPointer(const std::optional<PointerEvent>& event);

    AppOptions options_;
    std::vector<PlatformInfo> platforms_;
    int startDemo_ = -1;
    Window window_;
    GlDeviceQuery glQuery_;
    DeviceChoice choice_;
    std::unique_ptr<ComputeContext> compute_;
    bool sharesGl_ = false;
    std::string sharesGlReason_;
    AppServices services_;
    LiveReload liveReload_;  // --kernel-dir, --shader-dir, the Kernels menu and panel

    bool imguiReady_ = false;
    std::unique_ptr<ImGuiStyle> baseStyle_;  // unscaled, so rescaling never compounds
    float guiScale_ = 0;                     // the scale fonts and style are built for
    float guiScaleOverride_ = 0;  // app.gui-scale / View menu; 0: the window's content scale
    bool scaleDirty_ = false;     // rebuild fonts at the next frame start (never mid-frame)

    std::unique_ptr<Demo> demo_;
    std::vector<std::unique_ptr<Demo>> parked_;  // per registered demo: kept while another runs
    DemoWindows demoWindows_;                    // each demo's own window state
    int activeDemo_ = -1;                        // index into registeredDemos()
    bool demoFailed_ = false;
    MenuActions guiRequests_;  // what this frame's GUI asked for, done once it is shown
    FileDialog fileDialog_;    // the File menu's path prompt
    std::optional<std::pair<std::string, std::string>> pendingFileSetting_;  // (key, path)

    FrameStats stats_;
    FrameTrace frameTrace_;   // every frame's wall time, for --frame-trace
    FramePhaseClock phases_;  // this frame's parts, for the trace
    Notices notices_;
    DevicePanel devicePanel_;
    PanelStacks appStacks_;  // places Kernels, OpenCL devices and Keys like the demos' panels
    PanelVisibility panels_;
    bool guiVisible_ = true;
    bool present_ = true;           // app.present: swap each frame onto the screen
    bool forcedMinimized_ = false;  // app.minimized test hook
    bool quit_ = false;
    // Builds and tunes off the frame (AppServices::workOffFrame): not under --frames or --seconds.
    bool workOffFrame_ = true;
    std::vector<std::string> pendingScreenshots_;
    std::vector<std::string> pendingLayouts_;  // app.layout: GUI window rectangles, for tests
    std::string deviceNameOverride_;           // app.device-name test hook (overlay only)
    bool screenshotFailed_ = false;
    bool settingRefused_ = false;  // a --set-at setting failed: stop with status 2

    std::size_t nextTimed_ = 0;  // the next --set-at setting
    double startTime_ = 0, lastTime_ = 0;
    double lastTitleAt_ = -1;  // when the title was last brought up to date

    PointerInput pointer_;  // the mouse, in framebuffer pixels, and the drag in the scene
};

}  // namespace clviz
