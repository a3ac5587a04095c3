// NbodyDemo::gui: the Demo menu entries, the status line, and which panels show.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/layout.hpp"
#include "app/nbody/demo.hpp"
#include "app/nbody/format.hpp"

namespace clviz {

namespace {
// Panels fit their content: sections open and close, plots keep a fixed width.
constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_AlwaysAutoResize;

// Widgets get a width from the font size, not the window (which sizes itself to the widgets).
template <class F>
void panel(F&& body) {
    ImGui::PushItemWidth(ImGui::GetFontSize() * 14);
    body();
    ImGui::PopItemWidth();
}
}  // namespace

void NbodyDemo::gui(const FrameInfo& frame) {
    demoMenu();
    if (job_.running()) {  // the panels read the system, which the job is changing: the progress
                           // only
        progressNotice(frame);
        return;
    }
    const float s = frame.contentScale > 0 ? frame.contentScale : 1.0f;
    // Simulation and Interop down the left edge; Timings and Diagnostics down the right one,
    // below the overlay. Short windows start with Timings and Diagnostics collapsed (the status
    // line shows the main figures), leaving room for notices and the scene.
    stacks_.beginFrame();
    if (showSimulation_) {
        stacks_.place("Simulation", PanelSide::Left, 360 * s);
        if (ImGui::Begin("Simulation", &showSimulation_, kPanelFlags))
            panel([this] { simulationPanel(); });
        ImGui::End();
    }
    if (showInterop_) {
        stacks_.place("Interop", PanelSide::Left, 360 * s, 1e9f);  // starts collapsed
        if (openInterop_) {                                        // interop-panel=open: expanded
            ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
            openInterop_ = false;
        }
        if (ImGui::Begin("Interop", &showInterop_, kPanelFlags)) panel([this] { interopPanel(); });
        ImGui::End();
    }
    if (showTimings_) {
        stacks_.place("Timings", PanelSide::Right, 380 * s, 560 * s);
        if (ImGui::Begin("Timings", &showTimings_, kPanelFlags)) panel([this] { timingsPanel(); });
        timingsRect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                        ImGui::GetWindowSize().y};
        ImGui::End();
    }
    if (showDiagnostics_) {
        // Below Timings, however tall Timings grows as its plots fill (a fixed spot put it on
        // top of a tall Timings panel).
        stacks_.place("Diagnostics", PanelSide::Right, 380 * s, 600 * s);
        if (ImGui::Begin("Diagnostics", &showDiagnostics_, kPanelFlags))
            panel([this] { diagnosticsPanel(); });
        diagnosticsRect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y,
                            ImGui::GetWindowSize().x, ImGui::GetWindowSize().y};
        ImGui::End();
    }
    if (showStatus_) statusLine(frame);
}

// "Auto-tuning tiled (variant 1 of 3) (5 of 25)" in the middle of the window while a build or a
// tune runs off the frame; the window stays live (Esc quits and cancels the work).
void NbodyDemo::progressNotice(const FrameInfo& frame) {
    drawJobProgress(frame, "##nbody-progress", progressLine(),
                    "the scene comes back when this is done; a first build takes longest");
}

void NbodyDemo::demoMenu() {
    if (!ImGui::BeginMainMenuBar()) return;
    // Same label as the app's menu: ImGui appends these items to it.
    if (ImGui::BeginMenu("Demo")) {
        ImGui::Separator();
        ImGui::TextDisabled("N-body panels");
        ImGui::MenuItem("Simulation", nullptr, &showSimulation_);
        ImGui::MenuItem("Interop", nullptr, &showInterop_);
        ImGui::MenuItem("Timings", nullptr, &showTimings_);
        ImGui::MenuItem("Diagnostics", nullptr, &showDiagnostics_);
        ImGui::MenuItem("Status line", nullptr, &showStatus_);
        ImGui::Separator();
        if (ImGui::MenuItem("Pause", "Space", paused_)) paused_ = !paused_;
        if (ImGui::MenuItem("Single step", "S")) onKey('S', 0);
        if (ImGui::MenuItem("Reset scene", "R")) resetScene();
        if (ImGui::MenuItem("Reset camera", "C")) camera_.reset();
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

// "N = 4096, 1.95 G interactions/s, 39.0 GFLOP/s fp32": what NVIDIA's nbody sample titles with.
std::string NbodyDemo::titleStatus() const {
    std::string s = "N = " + std::to_string(n_);
    if (lastStep_.steps > 0 && lastStep_.kernelMs > 0) {
        char flops[48];
        std::snprintf(flops, sizeof flops, ", %.1f GFLOP/s %s", lastStep_.gflops(),
                      lastStep_.fp64 ? "fp64" : "fp32");
        s += ", " + formatCount(lastStep_.interactionsPerSecond()) + " " +
             lastStep_.interactionsUnit() + flops;
    }
    return s + (paused_ ? " (paused)" : "");
}

// One line at the bottom-left: what runs and where the time goes, always visible. The window is
// sized from this frame's text (auto-resize used the previous frame's, clipping it: "1.95 G/"),
// and a text wider than the window drops its least important fields rather than being cut.
void NbodyDemo::statusLine(const FrameInfo& frame) {
    const float s = frame.contentScale > 0 ? frame.contentScale : 1.0f;
    const std::string variant =
        std::string(variantName(sim_ ? sim_->kernelConfig().variant : NbodyVariant::Tiled)) +
        (sim_ && sim_->precision() == NbodyPrecision::Double ? " fp64" : "");
    const std::string rate = formatCount(timings_.interactionsPerSecond().last()) + " " +
                             lastStep_.interactionsUnit() + (paused_ ? "  |  PAUSED" : "");
    const std::string render = lastRenderMs_ >= 0 || timings_.renderMs().count()
                                   ? formatMs(timings_.renderMs().last())
                                   : "n/a";
    const std::string candidates[] = {
        "N = " + std::to_string(n_) + "  |  " + variant + "  |  kernels " +
            formatMs(timings_.kernelMs().last()) + "  |  " + interopPathName(choice_.path) + " " +
            formatMs(lastCopy_.deviceMs) + "  |  render " + render + "  |  " + rate,
        "N = " + std::to_string(n_) + "  |  " + variant + "  |  kernels " +
            formatMs(timings_.kernelMs().last()) + "  |  " + rate,
        "N = " + std::to_string(n_) + "  |  " + rate,
    };
    const ImGuiStyle& style = ImGui::GetStyle();
    const float room = float(frame.framebufferWidth) - 20 * s - 2 * style.WindowPadding.x;
    const std::string* line = &candidates[2];
    for (const std::string& c : candidates)
        if (ImGui::CalcTextSize(c.c_str()).x <= room) {
            line = &c;
            break;
        }
    const ImVec2 text = ImGui::CalcTextSize(line->c_str());
    ImGui::SetNextWindowPos(ImVec2(10 * s, float(frame.framebufferHeight) - 10 * s),
                            ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowSize(ImVec2(std::ceil(text.x) + 2 * style.WindowPadding.x + 1,
                                    std::ceil(text.y) + 2 * style.WindowPadding.y),
                             ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.55f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
    if (ImGui::Begin("##nbody-status", nullptr, flags)) {
        ImGui::TextUnformatted(line->c_str());
        noteGuiItem("##nbody-status/text");
    }
    ImGui::End();
}

}  // namespace clviz
