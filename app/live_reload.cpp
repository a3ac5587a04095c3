#include "app/live_reload.hpp"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/cli.hpp"
#include "app/gui/kernels_panel.hpp"
#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/core/program_cache.hpp"
#include "render/gl/shader_source.hpp"

namespace clviz {

std::string sourceTreeKernelDir() {
    return std::string(CLVIZ_SOURCE_DIR) + "/kernels";
}
std::string sourceTreeShaderDir() {
    return std::string(CLVIZ_SOURCE_DIR) + "/shaders";
}

namespace {

// "source-tree" and "embedded" name the two directories the menu offers.
std::string resolveDir(const std::string& value, const std::string& sourceTree) {
    if (value == "source-tree") return sourceTree;
    if (value == "embedded" || value == "off") return "";
    return value;
}

// Copies `from` over `to` as an editor saves: a temporary file renamed into place.
void saveFileOver(const std::string& from, const std::string& to) {
    std::ifstream in(from, std::ios::binary);
    if (!in) throw Error("cannot read " + from);
    std::ostringstream contents;
    contents << in.rdbuf();
    const std::string temp = to + ".clviz-save";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << contents.str();
        if (!out) throw Error("cannot write " + temp);
    }
    std::error_code ec;
    std::filesystem::rename(temp, to, ec);
    if (ec) throw Error("cannot rename " + temp + " to " + to + ": " + ec.message());
}

}  // namespace

LiveReload::LiveReload() = default;
LiveReload::~LiveReload() = default;

void LiveReload::start(const AppServices& app, const std::string& kernelDir,
                       const std::string& shaderDir) {
    app_ = app;
    if (!kernelDir.empty()) setKernelDirectory(kernelDir);
    if (!shaderDir.empty()) setShaderDirectory(shaderDir);
    // Errors here are command-line errors: the caller reports them.
    if (const std::string dir = kernelDirectory(); !dir.empty()) watchKernels(dir);
    if (const std::string dir = shaderDirectory(); !dir.empty()) watchShaders(dir);
}

void LiveReload::stop() {
    kernels_.reset();
    shaders_.reset();
}

void LiveReload::report(bool isError, const std::string& message) {
    if (isError)
        app_.error(message);
    else
        app_.notice(message);
}

void LiveReload::watchKernels(const std::string& dir) {
    if (!dir.empty() && !std::filesystem::is_directory(dir))
        throw Error("cannot watch " + dir + ": not a directory");  // keep the sources in use
    kernels_.reset();
    setKernelDirectory(dir);
    if (dir.empty()) return;  // embedded: programs built from now on use them
    kernels_ = std::make_unique<KernelReloader>(app_.compute->programs(), dir);
    kernels_->reloadAll();  // the directory may hold other sources than the running builds
}

void LiveReload::watchShaders(const std::string& dir) {
    if (!dir.empty() && !std::filesystem::is_directory(dir))
        throw Error("cannot watch " + dir + ": not a directory");
    shaders_.reset();
    setShaderDirectory(dir);
    if (dir.empty()) return;
    shaders_ = std::make_unique<FileWatcher>(dir, std::vector<std::string>{".vert", ".frag"});
}

void LiveReload::reloadShaders(Demo* demo) {
    ++reloadsSeen_;
    if (!demo) return;
    try {
        demo->shadersReloaded();
        shaderFailure_.clear();
        report(false, "shaders rebuilt from " + shaderDirectory());
    } catch (const std::exception& e) {
        shaderFailure_ = e.what();
        report(true, std::string(e.what()) + "\n(the last good shaders keep running)");
    }
}

// The demo's other devices (the N-body's --devices) rebuild an edited kernel too, here and now
// (a frame's pause), so every slice of its work runs the same code. A device that cannot build
// it keeps its last good build, and says so.
void LiveReload::mirrorToMoreDevices(const std::string& file, const Demo* demo) {
    if (!demo) return;
    for (ComputeContext* cc : demo->extraDevices()) {
        ProgramCache& cache = cc->programs();
        std::map<std::string, ProgramBuild> builds;
        const ExpandedKernelSource source = kernelProgramSource(file);
        for (const std::string& options : cache.optionsOf(file)) {
            ProgramBuild b = buildProgram(cc->context(), cc->device(), file, source.text, options,
                                          cache.disk(), source.includes);
            if (!b.ok()) {
                report(true, cc->info().name + " could not build the edited " + file +
                                 " (it keeps its last good build):\n" + b.error);
                builds.clear();
                break;
            }
            builds.emplace(options, std::move(b));
        }
        if (!builds.empty()) cache.install(file, builds);
    }
}

void LiveReload::poll(Demo* demo) {
    if (kernels_) {
        for (const KernelReloadEvent& e : kernels_->poll()) {
            ++reloadsSeen_;
            if (e.ok) {
                kernelsPending_ |= e.installed;
                if (e.installed) mirrorToMoreDevices(e.file, demo);
                // Fixed: its red notices and a check of the old kernels no longer apply.
                if (lastFailureFile_ == e.file) {
                    lastFailure_.clear();
                    if (app_.resolveErrors) app_.resolveErrors(e.file);
                }
                if (e.installed) lastCheck_.clear();
            } else {
                lastFailure_ = e.message;
                lastFailureFile_ = e.file;
            }
            report(!e.ok, e.message);
        }
    }
    if (shaders_ && !shaders_->changes().empty()) reloadShaders(demo);
    if (kernelsPending_ && demo) {
        kernelsPending_ = false;
        demo->kernelsReloaded();
    }
}

void LiveReload::runCheck(Demo* demo) {
    if (!demo) return;
    const Demo::ReferenceResult r = demo->checkReference();
    lastCheck_ = r.message.empty() ? "this demo has no reference check" : r.message;
    lastCheckOk_ = r.ok;
    report(!r.ok, lastCheck_);
}

void LiveReload::set(const std::string& key, const std::string& value, Demo* demo) {
    if (key == "kernel-dir") {
        watchKernels(resolveDir(value, sourceTreeKernelDir()));
    } else if (key == "shader-dir") {
        watchShaders(resolveDir(value, sourceTreeShaderDir()));
        reloadShaders(demo);
    } else if (key == "kernels") {
        const auto on = parseOnOff(value);
        if (!on) throw Error("app.kernels expects on or off, got " + quotedPath(value));
        panelOpen_ = *on;
    } else if (key == "reload-wait") {
        waitForReload(value, demo);
    } else if (key == "check-reference") {
        if (value != "on") throw Error("app.check-reference expects on");
        runCheck(demo);
        // Without a demo no check ran and there is no message: nothing to refuse.
        if (!lastCheckOk_ && !lastCheck_.empty()) throw Error(lastCheck_);
    } else if (key == "test-save-file") {
        // Test hook: SRC,DST saves SRC's contents over DST the way editors do.
        const auto comma = value.find(',');
        if (comma == std::string::npos) throw Error("app.test-save-file expects SRC,DST");
        saveFileOver(value.substr(0, comma), value.substr(comma + 1));
    } else {
        throw std::invalid_argument("LiveReload has no setting '" + key + "'");
    }
}

// Test hook: blocks until a kernel or shader reload finished (installed or failed).
void LiveReload::waitForReload(const std::string& value, Demo* demo) {
    const double seconds = parseNumber(value).value_or(0);
    if (!(seconds > 0) || seconds > 600)
        throw Error("app.reload-wait expects seconds (0 < S <= 600)");
    if (!kernels_ && !shaders_) throw Error("nothing is watched (see --kernel-dir)");
    const int before = reloadsSeen_;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (reloadsSeen_ == before || (kernels_ && kernels_->busy())) {
        if (std::chrono::steady_clock::now() > until)
            throw Error("no reload finished within " + value + " s");
        poll(demo);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void LiveReload::gui(Demo* demo, PanelStacks* stacks) {
    if (ImGui::BeginMainMenuBar()) {
        if (ImGui::BeginMenu("Kernels")) {
            ImGui::MenuItem("Kernels panel", nullptr, &panelOpen_);
            ImGui::Separator();
            const std::string tree = sourceTreeKernelDir();
            const bool treeExists = std::filesystem::is_directory(tree);
            const bool watchingTree = kernels_ && kernels_->directory() == tree;
            if (ImGui::MenuItem("Watch the source tree's kernels/ and shaders/", nullptr,
                                watchingTree, treeExists && !watchingTree)) {
                for (auto [k, v] : {std::pair{"kernel-dir", "source-tree"},
                                    std::pair{"shader-dir", "source-tree"}})
                    app_.attempt([&] { set(k, v, demo); });
            }
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", treeExists ? tree.c_str() : "not found on this machine");
            ImGui::EndMenu();
        }
        ImGui::EndMainMenuBar();
    }
    if (!panelOpen_) return;
    KernelsPanelModel m;
    m.stacks = stacks;
    ProgramCache& programs = app_.compute->programs();
    m.programs = programs.records();
    m.kernelDir = kernelDirectory();
    if (kernels_) {
        m.kernelWatch = kernels_->mechanism();
        m.building = kernels_->busy();
    }
    m.shaderDir = shaderDirectory();
    if (programs.disk()) m.binaryCacheDir = programs.disk()->directory().string();
    m.failure = lastFailure_;
    m.failureFile = lastFailureFile_;
    m.shaderFailure = shaderFailure_;
    m.check = lastCheck_;
    m.checkOk = lastCheckOk_;
    m.demoHasCheck = demo != nullptr;
    if (drawKernelsPanel(&panelOpen_, m).runCheck) runCheck(demo);
}

}  // namespace clviz
