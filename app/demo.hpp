#pragma once
// The interface the main loop drives. The N-body simulation and the image lab are peers behind it,
// switchable from the main menu. The main loop owns the window, timing and the OpenCL context.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/file_dialog.hpp"
#include "app/pointer_input.hpp"
#include "common/error.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/device_select.hpp"

namespace clviz {

class ComputeContext;

// Per-frame facts the main loop hands to the active demo.
struct FrameInfo {
    long long index = 0;       // frame number since start
    double time = 0;           // seconds since start
    double dt = 0;             // seconds since the previous frame; 0 on the first
    int framebufferWidth = 0;  // pixels; 0 while minimized
    int framebufferHeight = 0;
    float contentScale = 1.0f;  // HiDPI scale of the window
};

// What a demo may use from the application. Input arrives through Demo's on* calls, never by
// polling the window.
struct AppServices {
    ComputeContext* compute = nullptr;
    // The machine's platforms and which of their devices `compute` is: a demo that splits its
    // work (N-body) creates its other devices' contexts from them.
    const std::vector<PlatformInfo>* platforms = nullptr;
    DeviceChoice drawingDevice;
    // --platform as given: what bare device indices of a device set ("0,1") refer to.
    std::optional<std::string> platformRequest;
    int glMajor = 4, glMinor = 5;  // the GL context actually created
    // True when the CL context was created with this GL context's properties (cl_khr_gl_sharing
    // can work); the reason says why or why not, for the Interop panel.
    bool clContextSharesGl = false;
    std::string clContextSharesGlReason;
    // Shows a message in the GUI notice area (and on stderr); errors stay until dismissed.
    std::function<void(bool isError, const std::string& message)> notify;
    void notice(const std::string& m) const {
        if (notify) notify(false, m);
    }
    void error(const std::string& m) const {
        if (notify) notify(true, m);
    }
    // Where a demo's own control (a panel button, a key, a dropped file) meets the failure
    // convention (docs/architecture.md, "Failures"): runs `f`; a clviz::Error it throws becomes an
    // error notice, `context` before its sentence, and the demo runs on. False when it threw.
    // Other exceptions are bugs and pass on (the shell stops the demo and says why).
    template <class F>
    bool attempt(F&& f, const std::string& context = "") const {
        try {
            f();
            return true;
        } catch (const Error& e) {
            error(context + e.what());
            return false;
        }
    }
    // Saves the window (scene and GUI) as PNG once this frame is drawn; an empty path picks a
    // timestamped name. The result is reported through notify.
    std::function<void(const std::string& path)> requestScreenshot;
    // Drops the error notices that mention `fragment` (live reload: a fixed kernel file's).
    std::function<void(const std::string& fragment)> resolveErrors;
    // Whether builds and tunes may run on a worker thread while frames go on, the demo showing
    // their progress and switching to the result when done (common/background_job.hpp). Asked
    // when such work starts. Null or false: the demo does the work within the call that needs it,
    // so headless runs (--frames, --seconds) and tests see the same frames every time.
    std::function<bool()> workOffFrame;
};

// A demo's section of the OpenCL panel: a device set it runs on, which the user may change; the
// request goes through the demo's setting `settingKey` (--devices syntax: "0.0,0.1").
struct DeviceSetSection {
    std::string title;                         // "N-body on several devices"
    std::string settingKey;                    // "devices"
    std::vector<std::pair<int, int>> devices;  // the set now, the drawing device first
};

class Demo {
  public:
    virtual ~Demo() = default;
    virtual const char* name() const = 0;

    // Creates CL and GL resources. Throws clviz::Error on failure (the app shows it).
    virtual void init(const AppServices& app) = 0;
    // One frame, in Dear ImGui's order: input (the on* calls below) -> gui() -> step() -> draw()
    // -> the app renders the GUI over the scene. gui() is left out while the GUI is hidden, and
    // gui() and draw() while the window is minimized.
    //
    // Adds the demo's ImGui windows and its entries under the main menu's "Demo" menu. The
    // panels of this frame are placed when it returns (app/gui/layout.hpp lists them), so a demo
    // may lay out its scene around them for this frame's draw().
    virtual void gui(const FrameInfo& frame) = 0;
    // Runs this frame's OpenCL work.
    virtual void step(const FrameInfo& frame) = 0;
    // Draws into the current framebuffer (viewport already set).
    virtual void draw(const FrameInfo& frame) = 0;
    // Releases CL and GL resources; the GL context is still current.
    virtual void shutdown() = 0;
    // After the frame and the GUI were drawn, before the swap: work ordered after this frame's
    // GL work that may run while the window system copies the frame (the N-body demo's next
    // steps with take-turns-at=drawn).
    virtual void beforePresent(const FrameInfo& /*frame*/) {}
    // After the frame was drawn and presented: work that must come after this frame's GL work
    // (the N-body demo's next steps, when GL and CL take turns on the GPU).
    virtual void frameEnd(const FrameInfo& /*frame*/) {}

    // Keyboard and mouse that ImGui did not capture, between frames. Keys reach the demo on press
    // and on auto-repeat, except the app's own (app/gui/keys.hpp: Esc, Q, V, F, F1, F2, F12, P).
    // Return true when handled.
    virtual bool onKey(int /*key*/, int /*mods*/) { return false; }
    // Mouse: in framebuffer pixels. A press over the scene starts a drag that ends with that
    // button's release, even if the cursor is over a panel then; moves come always (with the
    // dragging button, or -1 while hovering), scrolls when not over a panel.
    virtual void onPointer(const PointerEvent& /*event*/) {}
    virtual void onDrop(const std::string& /*path*/) {}

    // Command interface for automation and tests (`--set key=value`, the test hooks): applies a
    // setting by name, e.g. ("variant", "tiled"). A refused value or an unknown key throws
    // clviz::Error with the sentence the user sees, and leaves the demo as it was where it can.
    // Called after init(): --set values before the first frame, --set-at ones before their frame
    // (between frames, with the input), --save's ("save", FILE) after the last frame.
    virtual void set(const std::string& key, const std::string& value) = 0;

    // Live reload (app/live_reload.hpp), called at a frame boundary before gui(). Kernels: the
    // program cache holds new builds; fetch fresh kernels and keep the state (bodies, image,
    // camera). Shaders: the GLSL files changed; rebuild GL programs, and throw clviz::Error with
    // the compile log, keeping the old programs, when they do not build.
    virtual void kernelsReloaded() {}
    virtual void shadersReloaded() {}
    // The correctness guard: a small sample of the current state against the CPU reference.
    // Returns an empty message when the demo has no check.
    struct ReferenceResult {
        bool ok = false;
        std::string message;
    };
    virtual ReferenceResult checkReference() { return {}; }

    // The File menu's Open / Save / Record entries: each applies one of the demo's settings with
    // an absolute path the user typed (app/gui/file_dialog.hpp).
    virtual std::vector<FileAction> fileActions() const { return {}; }

    // The demo's main figure for the window title, e.g. "N = 4096, 1.95 G interactions/s"; ""
    // for none. Asked a few times a second.
    virtual std::string titleStatus() const { return ""; }

    // The demo's keys for the Help menu, e.g. {"Space", "pause"}.
    virtual std::vector<std::pair<std::string, std::string>> keyHelp() const { return {}; }

    // The devices the demo computes on besides AppServices::compute (none by default): live
    // reload rebuilds an edited kernel for them too.
    virtual std::vector<ComputeContext*> extraDevices() const { return {}; }
    // Its device-set section of the OpenCL panel; nullopt for none.
    virtual std::optional<DeviceSetSection> deviceSetSection() const { return std::nullopt; }
};

}  // namespace clviz
