#pragma once
// Live reload of kernels and shaders for the viewer: owns the kernel reloader (background builds,
// compute/core/kernel_reloader.hpp) and the shader directory watcher, hands finished reloads to the
// active demo at a frame boundary, runs the correctness guard, and draws the Kernels menu and
// panel. A build or compile error never stops the app: the last good build keeps running and
// the log is shown (and printed on stderr).
#include <memory>
#include <string>

#include "app/demo.hpp"
#include "common/file_watcher.hpp"
#include "compute/core/kernel_reloader.hpp"

namespace clviz {

class PanelStacks;

class LiveReload {
  public:
    LiveReload();
    ~LiveReload();

    // Watches `kernelDir` / `shaderDir` when not empty ("" keeps the embedded sources, unless
    // CLVIZ_KERNEL_DIR / CLVIZ_SHADER_DIR name a directory, which is then watched too).
    void start(const AppServices& app, const std::string& kernelDir, const std::string& shaderDir);
    void stop();  // before the compute context goes away

    // Once a frame, before the demo steps: installs finished builds and tells `demo` (may be
    // null). Exceptions from the demo propagate (the app stops the demo then).
    void poll(Demo* demo);

    // app.* settings this class owns (key without "app."): kernel-dir, shader-dir, kernels,
    // reload-wait, check-reference, test-save-file. Throws clviz::Error when the value is refused
    // or the action fails (the watched directory then stays as it was); std::invalid_argument for
    // a key it does not own (the app.* table routes only these).
    void set(const std::string& key, const std::string& value, Demo* demo);

    // The Kernels menu (appended to the main menu bar) and panel.
    void gui(Demo* demo, PanelStacks* stacks = nullptr);  // stacks: where Kernels opens

  private:
    // Watch `dir` ("": the embedded sources); throw clviz::Error, keeping the sources in use,
    // when it cannot be watched.
    void watchKernels(const std::string& dir);
    void watchShaders(const std::string& dir);
    void report(bool isError, const std::string& message);
    void reloadShaders(Demo* demo);
    void mirrorToMoreDevices(const std::string& file, const Demo* demo);
    void runCheck(Demo* demo);
    void waitForReload(const std::string& seconds, Demo* demo);

    AppServices app_;
    std::unique_ptr<KernelReloader> kernels_;
    std::unique_ptr<FileWatcher> shaders_;
    bool kernelsPending_ = false;  // installed builds the demo has not fetched yet
    bool panelOpen_ = false;
    std::string lastFailure_;      // the last failed reload's message (with the build log)
    std::string lastFailureFile_;  // its file name, for showing the offending source lines
    std::string shaderFailure_;
    std::string lastCheck_;
    bool lastCheckOk_ = false;
    int reloadsSeen_ = 0;  // finished reloads (installed or failed), for reload-wait
};

// The source tree's kernels/ and shaders/ (this build's checkout), for the Kernels menu.
std::string sourceTreeKernelDir();
std::string sourceTreeShaderDir();

}  // namespace clviz
