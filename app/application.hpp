#pragma once
// The viewer: window, GL and CL contexts, ImGui, and the main loop that drives the active demo.
// The loop owns timing (frame dt, FPS), routes input ImGui did not take to the demo, applies
// --set / --set-at settings, and takes screenshots (and GUI layout dumps for tests).
#include <memory>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/demo.hpp"
#include "app/gui/device_panel.hpp"
#include "app/gui/frame_stats.hpp"
#include "app/gui/keys.hpp"
#include "app/gui/main_menu.hpp"
#include "app/gui/notices.hpp"
#include "app/live_reload.hpp"
#include "app/window.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/interop/gl_device_query.hpp"

struct ImGuiStyle;

namespace clviz {

class Application {
  public:
    // Opens the window and creates the GL and OpenCL contexts and ImGui. Throws clviz::Error.
    Application(const AppOptions& options, std::vector<PlatformInfo> platforms);
    ~Application();
    Application(const Application&) = delete;
    Application& operator=(const Application&) = delete;

    // Starts the demo, runs until the window closes (or --frames), returns the exit status:
    // 0 ok, 1 a runtime failure (demo failed, screenshot not written), 2 a setting was refused.
    int run();

  private:
    // Applies one setting: "app.*" keys here, the rest to the active demo. "" or why not.
    std::string applySetting(const Setting& s);
    std::string applyAppSetting(const std::string& key, const std::string& value);

    // Shuts down the active demo (if any) and starts demo `index`. On failure the error is
    // shown and no demo is active; returns the error ("" on success).
    std::string activateDemo(int index);
    void stopDemo();
    // Runs a demo call; an exception stops the demo and shows why.
    template <class F>
    void guarded(const char* what, F&& f);

    void createCompute(const GlContextHandles& gl);
    void initImGui();
    void applyContentScale(float scale);
    float wantedGuiScale() const;
    void drawGui(const FrameInfo& frame);
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

    AppOptions options_;
    std::vector<PlatformInfo> platforms_;
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
    int activeDemo_ = -1;  // index into registeredDemos()
    bool demoFailed_ = false;

    FrameStats stats_;
    Notices notices_;
    DevicePanel devicePanel_;
    PanelVisibility panels_;
    bool guiVisible_ = true;
    bool forcedMinimized_ = false;  // app.minimized test hook
    bool quit_ = false;
    std::vector<std::string> pendingScreenshots_;
    std::vector<std::string> pendingLayouts_;  // app.layout: GUI window rectangles, for tests
    std::string deviceNameOverride_;           // app.device-name test hook (overlay only)
    bool screenshotFailed_ = false;

    int dragButton_ = -1;  // mouse button dragging in the scene, -1: none
    double lastX_ = 0, lastY_ = 0;
};

}  // namespace clviz
