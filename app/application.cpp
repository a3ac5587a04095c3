#include "app/application.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ErrorCheckEndFrameRecover: keeps ImGui usable after a demo throws

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "app/demo_registry.hpp"
#include "app/gui/device_label.hpp"
#include "app/gui/keys.hpp"
#include "app/gui/layout.hpp"
#include "app/gui/overlay.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/gui/window_title.hpp"
#include "common/error.hpp"
#include "common/frame_trace.hpp"
#include "common/quoted_path.hpp"
#include "render/gl/screenshot.hpp"

namespace clviz {

namespace {

// A proportional font where the system has it (fonts-dejavu-core); else ImGui's built-in one.
constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kFontPixels = 15.0f;

// OpenCL failures arrive as ClError (compute converts cl::Error at its boundary).
std::string describe(const std::exception& e) {
    return e.what();
}

Application* self(GLFWwindow* w) {
    return static_cast<Application*>(glfwGetWindowUserPointer(w));
}

int currentMods(GLFWwindow* w) {
    auto down = [w](int a, int b) {
        return glfwGetKey(w, a) == GLFW_PRESS || glfwGetKey(w, b) == GLFW_PRESS;
    };
    int mods = 0;
    if (down(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT)) mods |= GLFW_MOD_SHIFT;
    if (down(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL)) mods |= GLFW_MOD_CONTROL;
    if (down(GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT)) mods |= GLFW_MOD_ALT;
    if (down(GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER)) mods |= GLFW_MOD_SUPER;
    return mods;
}

// The mouse reaches the demo in framebuffer pixels: converted here, once, for every demo.
PointerScale framebufferScaleOf(GLFWwindow* w) {
    int ww = 0, wh = 0, fw = 0, fh = 0;
    glfwGetWindowSize(w, &ww, &wh);
    glfwGetFramebufferSize(w, &fw, &fh);
    return pointerScale(ww, wh, fw, fh);
}

WindowOptions windowOptions(const AppOptions& o) {
    WindowOptions w;
    w.width = o.width;
    w.height = o.height;
    w.vsync = o.vsync;
    w.fullscreen = o.fullscreen;
    return w;
}

}  // namespace

Application::Application(const AppOptions& options, ViewerStart start)
    : options_(options),
      platforms_(std::move(start.platforms)),
      startDemo_(start.demo),
      window_(windowOptions(options)) {
    std::fprintf(stderr, "clviz: %s\n", window_.glDescription().c_str());

    const GlContextHandles gl = window_.nativeHandles();
    glQuery_ = queryGlDevice(gl);
    choice_ = preferGlDevice(platforms_, options_.device, start.device, glQuery_.device);
    createCompute(gl);
    const DeviceInfo& dev = compute_->info();
    std::fprintf(stderr, "clviz: OpenCL device %d.%d: %s (%s); %s\n", choice_.platform,
                 choice_.device, dev.name.c_str(), choice_.reason.c_str(),
                 sharesGl_ ? "context shares GL" : "context does not share GL");

    GLFWwindow* w = window_.handle();
    glfwSetWindowUserPointer(w, this);
    // Installed before ImGui's backend, which chains to them after updating its own state.
    glfwSetKeyCallback(w, onKey);
    glfwSetMouseButtonCallback(w, onMouseButton);
    glfwSetCursorPosCallback(w, onCursorPos);
    glfwSetScrollCallback(w, onScroll);
    glfwSetDropCallback(w, onDrop);
    glfwSetWindowContentScaleCallback(w, onContentScale);
    initImGui();

    services_.compute = compute_.get();
    services_.platforms = &platforms_;
    services_.drawingDevice = choice_;
    services_.platformRequest = options_.device.platform;
    services_.glMajor = window_.glMajor();
    services_.glMinor = window_.glMinor();
    services_.clContextSharesGl = sharesGl_;
    services_.clContextSharesGlReason = sharesGlReason_;
    services_.notify = [this](bool isError, const std::string& message) {
        notify(isError, message);
    };
    services_.resolveErrors = [this](const std::string& fragment) {
        notices_.resolveErrorsMentioning(fragment);
    };
    workOffFrame_ = !options_.frames && !options_.seconds;
    services_.workOffFrame = [this] { return workOffFrame_; };
    services_.requestScreenshot = [this](const std::string& path) {
        pendingScreenshots_.push_back(path.empty() ? timestampedScreenshotName() : path);
    };
    liveReload_.start(services_, options_.kernelDir, options_.shaderDir);
}

Application::~Application() {
    stopDemo();
    dropParkedDemos();
    if (imguiReady_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    liveReload_.stop();  // joins the background build thread, which uses the context
    compute_.reset();    // before the GL context it may share with goes away
}

void Application::setVsync(bool on) {
    window_.setVsync(on);
}
void Application::setFullscreen(bool on) {
    window_.setFullscreen(on);
}

void Application::setGuiScale(float scale) {
    guiScaleOverride_ = scale;
    scaleDirty_ = true;
}

void Application::switchDemo(int index) {
    if (index != activeDemo_) activateDemo(index);
}

void Application::setLiveReload(const std::string& key, const std::string& value) {
    liveReload_.set(key, value, demo_.get());
}

void Application::createCompute(const GlContextHandles& gl) {
    const DeviceInfo& dev = platforms_.at(choice_.platform).devices.at(choice_.device);
    if (!dev.hasExtension("cl_khr_gl_sharing")) {
        sharesGlReason_ = dev.name + " has no cl_khr_gl_sharing";
    } else if (!gl.valid()) {
        sharesGlReason_ = "no GLX context handles to share with";
    } else {
        try {
            compute_ =
                std::make_unique<ComputeContext>(platforms_, choice_, glSharingProperties(gl));
            sharesGl_ = true;
            sharesGlReason_ = "created with the GLX context's properties";
            return;
        } catch (const Error& e) {
            // Typically a CL device other than the one driving GL: share nothing, copy instead.
            sharesGlReason_ = std::string("a GL-sharing context failed: ") + e.what();
        }
    }
    compute_ = std::make_unique<ComputeContext>(platforms_, choice_);
}

void Application::initImGui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the same layout every start; no stray imgui.ini in the cwd
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4.0f;
    baseStyle_ = std::make_unique<ImGuiStyle>(ImGui::GetStyle());
    applyContentScale(wantedGuiScale());
    ImGui_ImplGlfw_InitForOpenGL(window_.handle(), true);
    ImGui_ImplOpenGL3_Init(window_.glslVersion());
    imguiReady_ = true;
}

float Application::wantedGuiScale() const {
    return guiScaleOverride_ > 0 ? guiScaleOverride_ : window_.contentScale();
}

void Application::applyContentScale(float scale) {
    if (!(scale > 0) || std::fabs(scale - guiScale_) < 0.01f) return;
    guiScale_ = scale;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (std::ifstream(kFontPath).good()) {
        io.Fonts->AddFontFromFileTTF(kFontPath, std::round(kFontPixels * scale));
    } else {
        ImFontConfig config;
        config.SizePixels = std::round(13.0f * scale);
        io.Fonts->AddFontDefault(&config);
    }
    ImGui::GetStyle() = *baseStyle_;
    ImGui::GetStyle().ScaleAllSizes(scale);
    if (imguiReady_) {  // the backend uploads the atlas itself on its first frame
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
}

void Application::notify(bool isError, const std::string& message) {
    notices_.add(isError, message, glfwGetTime());
}

template <class F>
void Application::guarded(const char* what, F&& f) {
    if (!demo_) return;
    std::string failure;
    try {
        f();
        return;
    } catch (const std::exception& e) {
        failure = describe(e);
    } catch (...) {
        failure = "unknown exception";
    }
    const std::string title = registeredDemos()[activeDemo_].title;
    notify(true, title + " stopped (" + what + "): " + failure);
    demoFailed_ = true;
    stopDemo();
}

void Application::stopDemo() {
    if (!demo_) return;
    try {
        demo_->shutdown();
    } catch (const std::exception& e) {
        notify(true, std::string("shutting down ") + demo_->name() + ": " + describe(e));
    }
    demo_.reset();
    activeDemo_ = -1;
    glfwSetWindowTitle(window_.handle(), "clviz");
    pointer_.cancelDrag();
}

void Application::dropParkedDemos() {
    for (auto& parked : parked_) {
        if (!parked) continue;
        try {
            parked->shutdown();
        } catch (const std::exception& e) {
            notify(true, std::string("shutting down ") + parked->name() + ": " + describe(e));
        }
        parked.reset();
    }
}

void Application::activateDemo(int index) {
    const int from = activeDemo_;
    const DemoEntry& entry = registeredDemos().at(index);
    parked_.resize(registeredDemos().size());
    // The leaving demo is kept as it is (scene, image, chain, panels) while the app runs, and
    // comes back where it was left.
    if (demo_ && from != index) {  // (a failed demo is already gone)
        parked_[from] = std::move(demo_);
        activeDemo_ = -1;
        pointer_.cancelDrag();
    } else {
        stopDemo();
    }
    demoWindows_.switchDemo(from, index);
    if (parked_[index]) {
        demo_ = std::move(parked_[index]);
        activeDemo_ = index;
        glfwSetWindowTitle(window_.handle(), ("clviz - " + entry.title).c_str());
        return;
    }
    if (from >= 0) showStartingFrame("Starting " + entry.title + "...");
    try {
        std::unique_ptr<Demo> demo = entry.create();
        demo->init(services_);
        demo_ = std::move(demo);
        activeDemo_ = index;
        glfwSetWindowTitle(window_.handle(), ("clviz - " + entry.title).c_str());
    } catch (const std::exception& e) {  // a bug in init() too: the app runs on without it
        throw Error("cannot start " + entry.title + ": " + describe(e));
    }
}

namespace {

// "--set key=value: " before a refusal, unless the refusal already names the value (a file the
// image lab cannot load names it once, quoted); the value quoted with controls escaped.
std::string settingOrigin(const std::string& flag, const Setting& s, const std::string& why) {
    if (!s.value.empty() && why.find(quotedPath(s.value)) != std::string::npos) return "";
    const std::string quoted = quotedPath(s.value);
    const bool plain = quoted.compare(1, quoted.size() - 2, s.value) == 0;
    return flag + s.key + "=" + (plain ? s.value : quoted) + ": ";
}

}  // namespace

void Application::applySetting(const Setting& s) {
    if (s.key.rfind("app.", 0) == 0) return applyAppSetting(*this, s.key.substr(4), s.value);
    if (!demo_) throw Error("no demo is running to take " + quotedPath(s.key));
    try {
        demo_->set(s.key, s.value);
    } catch (const std::exception& e) {  // the demo's name leads; a bug's message is shown too
        throw Error(std::string(demo_->name()) + ": " + describe(e));
    }
}

bool Application::applyFromCommandLine(const std::string& origin, const Setting& s) {
    try {
        applySetting(s);
        return true;
    } catch (const std::exception& e) {  // refused: the caller exits with status 2
        const std::string why = describe(e);
        std::fprintf(stderr, "clviz: error: %s%s\n", settingOrigin(origin, s, why).c_str(),
                     why.c_str());
        return false;
    }
}

bool Application::applyFromGui(const Setting& s) {
    try {
        applySetting(s);
        return true;
    } catch (const std::exception& e) {
        notify(true, describe(e));
        return false;
    }
}

void Application::perform(AppAction action) {
    switch (action) {
        case AppAction::Quit:
            quit_ = true;
            break;
        case AppAction::ToggleVsync:
            window_.setVsync(!window_.vsync());
            notify(false, std::string("vsync ") + (window_.vsync() ? "on" : "off"));
            break;
        case AppAction::ToggleFullscreen:
            window_.setFullscreen(!window_.fullscreen());
            break;
        case AppAction::ToggleGui:
            guiVisible_ = !guiVisible_;
            break;
        case AppAction::ToggleDevicePanel:
            panels_.devices = !panels_.devices;
            break;
        case AppAction::Screenshot:
            pendingScreenshots_.push_back(timestampedScreenshotName());
            break;
        case AppAction::None:
            break;
    }
}

int Application::run() {
    if (const int status = start(); status != 0) return status;
    for (long long index = 0;; ++index) {
        const double begin = glfwGetTime();
        phases_.start(begin);
        const bool more = frame(index);
        const double end = glfwGetTime();
        phases_.mark(FramePhase::FrameEnd, end);
        frameTrace_.add(1e3 * (end - begin), phases_.milliseconds());
        if (!more) break;
    }
    return finish();
}

// One frame that says what is being prepared, before the demo's init(): the window shows at once.
// A demo that builds off the frame (AppServices::workOffFrame) then draws its own progress; one
// that builds in init(), or any under --frames, leaves this frame up while it does.
void Application::showStartingFrame(const std::string& what) {
    int width = 0, height = 0;
    window_.framebufferSize(width, height);
    if (width <= 0 || height <= 0 || !imguiReady_) return;
    if (scaleDirty_ || guiScale_ == 0) applyContentScale(wantedGuiScale());
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Always,
                            ImVec2(0.5f, 0.5f));
    ImGui::Begin("##starting", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs);
    ImGui::TextUnformatted(what.c_str());
    ImGui::TextDisabled("building its OpenCL kernels; a first start takes longest");
    ImGui::End();
    glViewport(0, 0, width, height);
    glClearColor(0.05f, 0.055f, 0.07f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    renderGui();
    if (present_) glfwSwapBuffers(window_.handle());
}

int Application::start() {
    if (startDemo_ >= 0)
        showStartingFrame("Starting " + registeredDemos()[startDemo_].title + "...");
    // Read before the demo starts, whose start-up build follows it; applied again below.
    for (const Setting& s : options_.settings)
        if (s.key == "app.off-frame") applySetting(s);
    if (startDemo_ < 0) {
        notify(false, "no demos are registered: showing the shell only");
    } else {
        try {
            activateDemo(startDemo_);
        } catch (const Error& e) {
            notify(true, e.what());
            return 1;
        }
    }
    for (const Setting& s : options_.settings)
        if (!applyFromCommandLine("--set ", s)) return 2;
    startTime_ = lastTime_ = glfwGetTime();
    return 0;
}

// One frame in Dear ImGui's order: input, GUI, compute, draw, the GUI over it, swap. The GUI comes
// first so that a demo lays its scene out around this frame's panels, and what it changes reaches
// this frame's step.
bool Application::frame(long long index) {
    if (!takeInput(index)) return false;
    const bool last = isLastFrame(index);
    const FrameInfo info = frameInfo(index);
    phases_.mark(FramePhase::Input, glfwGetTime());
    if (info.framebufferWidth <= 0) {
        // A minimized window keeps simulating but draws nothing.
        guarded("step", [&] { demo_->step(info); });
        phases_.mark(FramePhase::Step, glfwGetTime());
        skipMinimized(last);
        return !last;
    }
    buildGui(info);
    phases_.mark(FramePhase::Gui, glfwGetTime());
    guarded("step", [&] { demo_->step(info); });
    phases_.mark(FramePhase::Step, glfwGetTime());
    drawScene(info);
    renderGui();
    writeScreenshots(info.framebufferWidth, info.framebufferHeight, last);
    phases_.mark(FramePhase::Draw, glfwGetTime());
    guarded("step", [&] { demo_->beforePresent(info); });
    phases_.mark(FramePhase::BeforePresent, glfwGetTime());
    if (present_)
        glfwSwapBuffers(window_.handle());
    else
        glFlush();  // app.present=off: drawn, never shown (no swap, no window-system copy)
    phases_.mark(FramePhase::Present, glfwGetTime());
    guarded("step", [&] { demo_->frameEnd(info); });
    actOnGuiRequests();
    return !last;
}

int Application::finish() {
    if (settingRefused_) return 2;
    int status = 0;
    if (!options_.savePath.empty()) {
        try {
            applySetting({"save", options_.savePath});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "clviz: error: --save %s: %s\n",
                         quotedPath(options_.savePath).c_str(), describe(e).c_str());
            status = 2;
        }
    }
    if (!options_.frameTracePath.empty()) {
        constexpr std::size_t kWarmupFrames = 1;  // the first frame builds kernels
        std::printf("%s\n", describe(frameTrace_.summary(kWarmupFrames), kWarmupFrames).c_str());
        std::fflush(stdout);
        try {
            frameTrace_.writeCsv(options_.frameTracePath);
        } catch (const Error& e) {
            std::fprintf(stderr, "clviz: error: %s\n", e.what());
            status = 2;
        }
    }
    const bool headless = options_.frames || options_.seconds;
    if (status == 0 && (screenshotFailed_ || (demoFailed_ && headless))) status = 1;
    return status;
}

// Input: window events (keys and the mouse reach the demo from the GLFW callbacks), the --set-at
// settings due at this frame, a new GUI scale, and kernel or shader builds that finished.
bool Application::takeInput(long long index) {
    glfwPollEvents();
    while (nextTimed_ < options_.timed.size() && options_.timed[nextTimed_].frame <= index) {
        const TimedSetting& t = options_.timed[nextTimed_++];
        if (!applyFromCommandLine("--set-at " + std::to_string(t.frame) + ":", t.setting)) {
            settingRefused_ = true;
            return false;
        }
    }
    if (scaleDirty_) {
        scaleDirty_ = false;
        applyContentScale(wantedGuiScale());
    }
    guarded("reload", [&] { liveReload_.poll(demo_.get()); });
    return true;
}

bool Application::isLastFrame(long long index) const {
    return quit_ || window_.shouldClose() || (options_.frames && index + 1 >= *options_.frames) ||
           (options_.seconds && glfwGetTime() - startTime_ >= *options_.seconds);
}

FrameInfo Application::frameInfo(long long index) {
    const double now = glfwGetTime();
    FrameInfo info;
    info.index = index;
    info.time = now - startTime_;
    info.dt = index == 0 ? 0.0 : now - lastTime_;
    lastTime_ = now;
    if (index > 0) stats_.add(info.dt);
    // The title with the frame rate and the demo's figure, twice a second (a title change is a
    // round trip to the window system).
    if (now - lastTitleAt_ >= 0.5) {
        lastTitleAt_ = now;
        std::string status;
        if (demo_) guarded("title", [&] { status = demo_->titleStatus(); });
        const std::string title = windowTitle(
            activeDemo_ >= 0 ? registeredDemos()[activeDemo_].title : "", stats_.fps(), status);
        glfwSetWindowTitle(window_.handle(), title.c_str());
    }
    window_.framebufferSize(info.framebufferWidth, info.framebufferHeight);
    info.contentScale = window_.contentScale();
    if (forcedMinimized_ || info.framebufferWidth <= 0 || info.framebufferHeight <= 0)
        info.framebufferWidth = info.framebufferHeight = 0;
    return info;
}

void Application::buildGui(const FrameInfo& frame) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    if (guiVisible_) drawGui(frame);
}

void Application::drawScene(const FrameInfo& frame) {
    glViewport(0, 0, frame.framebufferWidth, frame.framebufferHeight);
    glClearColor(0.05f, 0.055f, 0.07f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    guarded("draw", [&] { demo_->draw(frame); });
    glBindFramebuffer(GL_FRAMEBUFFER, 0);  // the GUI and screenshots use the window's
    glViewport(0, 0, frame.framebufferWidth, frame.framebufferHeight);
}

void Application::renderGui() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Application::skipMinimized(bool lastFrame) {
    if (lastFrame && !options_.screenshotPath.empty()) {
        std::fprintf(stderr, "clviz: error: the window is minimized: no screenshot\n");
        screenshotFailed_ = true;
    }
    if (!options_.frames && !options_.seconds) glfwWaitEventsTimeout(0.05);  // don't spin
}

// After the frame is shown: the window, the demo and the screenshots change between frames, not
// under a half-built one.
void Application::actOnGuiRequests() {
    const MenuActions actions = std::exchange(guiRequests_, MenuActions{});
    if (actions.quit) perform(AppAction::Quit);
    if (actions.screenshot) perform(AppAction::Screenshot);
    if (actions.toggleVsync) perform(AppAction::ToggleVsync);
    if (actions.toggleFullscreen) perform(AppAction::ToggleFullscreen);
    if (actions.hideGui) guiVisible_ = false;
    if (pendingFileSetting_) {
        const auto [key, path] = *std::exchange(pendingFileSetting_, std::nullopt);
        applyFromGui({key, path});
    }
    if (actions.guiScale >= 0) {
        guiScaleOverride_ = actions.guiScale;
        scaleDirty_ = true;
    }
    if (actions.demoDeviceSet) {
        const auto& [key, set] = *actions.demoDeviceSet;
        applyFromGui({key, set});
    }
    if (actions.switchDemo >= 0) switchFromMenu(actions.switchDemo);
}

// The Demo menu: a demo that cannot start says why, and the one left comes back.
void Application::switchFromMenu(int index) {
    const int previous = activeDemo_;
    try {
        activateDemo(index);
    } catch (const Error& e) {
        notify(true, e.what());
        if (previous < 0) return;
        try {
            activateDemo(previous);
        } catch (const Error& again) {
            notify(true, again.what());
        }
    }
}

void Application::writeScreenshots(int width, int height, bool lastFrame) {
    if (lastFrame && !options_.screenshotPath.empty())
        pendingScreenshots_.push_back(options_.screenshotPath);
    for (const std::string& path : pendingScreenshots_) {
        try {
            saveFramebufferPng(path, width, height);
            notify(false, "screenshot written to " + absoluteFilePath(path) + " (" +
                              std::to_string(width) + "x" + std::to_string(height) + ")");
        } catch (const Error& e) {
            notify(true, e.what());
            screenshotFailed_ = true;
        }
    }
    pendingScreenshots_.clear();

    if (lastFrame && !options_.layoutPath.empty()) pendingLayouts_.push_back(options_.layoutPath);
    for (const std::string& path : pendingLayouts_) {
        try {
            writeGuiLayout(path);
        } catch (const Error& e) {
            notify(true, e.what());
            screenshotFailed_ = true;
        }
    }
    pendingLayouts_.clear();
}

void Application::drawGui(const FrameInfo& frame) {
    const auto& demos = registeredDemos();
    MenuModel menu;
    for (const auto& d : demos)
        menu.demoTitles.push_back(d.title);
    menu.activeDemo = activeDemo_;
    menu.vsync = window_.vsync();
    menu.fullscreen = window_.fullscreen();
    menu.guiScaleOverride = guiScaleOverride_;
    menu.contentScale = window_.contentScale();
    if (demo_) menu.fileActions = demo_->fileActions();
    guiRequests_ = drawMainMenu(menu, panels_);
    if (guiRequests_.fileAction >= 0) fileDialog_.open(menu.fileActions[guiRequests_.fileAction]);
    if (auto chosen = fileDialog_.draw()) pendingFileSetting_ = *chosen;
    // The app's windows take their spots first (below the overlay), through stacks the demo's
    // panels then keep clear of (PanelStacks shares a frame's spots).
    if (panels_.overlay) drawOverlay(overlayInfo(frame));
    appStacks_.beginFrame();
    liveReload_.gui(demo_.get(), &appStacks_);

    if (panels_.devices) {
        DevicePanelModel m;
        m.platforms = &platforms_;
        m.choice = choice_;
        m.glDeviceDetail = glQuery_.detail;
        m.clContextSharesGl = sharesGl_;
        m.clContextSharesGlReason = sharesGlReason_;
        m.gl = window_.glDescription();
        if (demo_) m.deviceSet = demo_->deviceSetSection();
        devicePanel_.draw(&panels_.devices, m);
        // It sets its own first position (app/gui/device_panel.cpp): moved after it is drawn.
        appStacks_.placeDrawn("OpenCL devices", PanelSide::Left, ImGui::GetFontSize() * 36);
        if (auto set = devicePanel_.takeDeviceSetRequest(); set && m.deviceSet)
            guiRequests_.demoDeviceSet = {{m.deviceSet->settingKey, *set}};
    }
    if (panels_.keys) {
        std::vector<std::pair<std::string, std::string>> demoKeys;
        if (demo_) demoKeys = demo_->keyHelp();
        drawKeysWindow(&panels_.keys, demoKeys, activeDemo_ >= 0 ? demos[activeDemo_].title : "",
                       appStacks_);
    }
    drawDemoGui(frame);
    if (panels_.notices) notices_.draw(glfwGetTime());
}

OverlayInfo Application::overlayInfo(const FrameInfo& frame) const {
    OverlayInfo o;
    o.stats = &stats_;
    o.demoTitle = activeDemo_ >= 0 ? registeredDemos()[activeDemo_].title : "";
    const std::string& device =
        deviceNameOverride_.empty() ? compute_->info().name : deviceNameOverride_;
    const std::string& platform = platforms_[choice_.platform].name;
    o.clDevice = compactDeviceName(device) + " (" + compactPlatformName(platform) + ")";
    o.clDeviceFull = device + " (" + platform + ")";
    o.clReason = choice_.reason;
    o.gl = "OpenGL " + std::to_string(window_.glMajor()) + "." + std::to_string(window_.glMinor()) +
           " core, " + window_.glRenderer() + (window_.fellBackTo33() ? " (4.5 unavailable)" : "");
    o.glFellBack = window_.fellBackTo33();
    o.vsync = window_.vsync();
    o.framebufferWidth = frame.framebufferWidth;
    o.framebufferHeight = frame.framebufferHeight;
    return o;
}

void Application::drawDemoGui(const FrameInfo& frame) {
    if (!demo_) return;
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const int windowDepth = g.CurrentWindowStack.Size;
    demoWindows_.beginDemoGui();
    guarded("gui", [&] { demo_->gui(frame); });
    if (demo_) demoWindows_.endDemoGui(activeDemo_);
    // A throw from inside a Begin/End pair leaves ImGui's stacks open: close them.
    if (g.CurrentWindowStack.Size != windowDepth) ImGui::ErrorCheckEndFrameRecover(nullptr);
}

// --- input: what ImGui does not capture goes to the app's keys, then to the demo ---

void Application::onKey(GLFWwindow* w, int key, int scancode, int action, int mods) {
    Application* app = self(w);
    if (action == GLFW_RELEASE || !keyGoesToBindings(currentKeyFocus())) return;
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_Z)
        key = keyForLayout(key, glfwGetKeyName(key, scancode));
    if (const AppAction a = appActionForKey(key); a != AppAction::None) {
        if (action == GLFW_PRESS) app->perform(a);
        return;
    }
    app->guarded("key", [&] { app->demo_->onKey(key, mods); });
}

void Application::sendPointer(const std::optional<PointerEvent>& event) {
    if (event) guarded("mouse", [&] { demo_->onPointer(*event); });
}

void Application::onMouseButton(GLFWwindow* w, int button, int action, int mods) {
    Application* app = self(w);
    app->pointer_.setScale(framebufferScaleOf(w));
    app->sendPointer(
        app->pointer_.button(button, action == GLFW_PRESS, mods, ImGui::GetIO().WantCaptureMouse));
}

void Application::onCursorPos(GLFWwindow* w, double x, double y) {
    Application* app = self(w);
    app->pointer_.setScale(framebufferScaleOf(w));
    app->sendPointer(app->pointer_.move(x, y, currentMods(w)));
}

void Application::onScroll(GLFWwindow* w, double dx, double dy) {
    Application* app = self(w);
    app->pointer_.setScale(framebufferScaleOf(w));
    app->sendPointer(app->pointer_.scroll(dx, dy, currentMods(w), ImGui::GetIO().WantCaptureMouse));
}

void Application::onDrop(GLFWwindow* w, int count, const char** paths) {
    Application* app = self(w);
    for (int i = 0; i < count; ++i) {
        const std::string path = paths[i];
        app->guarded("drop", [&] { app->demo_->onDrop(path); });
    }
}

void Application::onContentScale(GLFWwindow* w, float, float) {
    self(w)->scaleDirty_ = true;
}

}  // namespace clviz
