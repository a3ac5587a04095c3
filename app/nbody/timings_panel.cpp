// The Timings panel: where each frame's time goes. Kernel times come from CL profiling events,
// the hand-over from the interop bridge's events, drawing from a GL_TIME_ELAPSED query.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/nbody/demo.hpp"
#include "app/nbody/format.hpp"

namespace clviz {

namespace {

void plot(const char* label, const RollingSeries& s, const char* unit) {
    if (s.count() == 0) return;
    // "0.021 ms", "7.91 G interactions/s": never "2e-05 ms" or "7.91e+09".
    auto value = [unit](float v) {
        return std::string(unit) == "ms" ? formatMs(v) : formatCount(v);
    };
    char overlay[128];
    std::snprintf(overlay, sizeof overlay, "%s: %s (max %s)", label, value(s.last()).c_str(),
                  value(s.max()).c_str());
    ImGui::PlotLines("##plot", s.data(), s.size(), s.offset(), overlay, 0.0f, s.max() * 1.15f,
                     ImVec2(ImGui::GetFontSize() * 22, ImGui::GetFontSize() * 2.4f));
}

}  // namespace

// --devices: the kernels above are the drawing device's; here every device's part of a step.
void NbodyDemo::splitTimingsTable(const NbodyMultiTimings& t) {
    const NbodyVariant variant = sim_->kernelConfig().variant;
    ImGui::Text("split over %zu devices: step %s (wall), %s %s, %d rebalances", t.devices.size(),
                formatMs(t.stepMs).c_str(), formatCount(t.interactionsPerSecond()).c_str(),
                variant == NbodyVariant::Tree ? "N^2-equivalent interactions/s" : "interactions/s",
                t.rebalances);
    if (runsOnOneDeviceInFloat(variant)) {  // pairs and the tree share every body's forces
        ImGui::PushTextWrapPos(0.0f);       // wrapped at the panel's edge, never widening it
        const std::string tree =
            std::string("share: the device's Morton domain of the walk (") +
            (t.treeBuild == "split" ? "each device builds its domain's tree and takes in the "
                                      "cells the others' walks open"
                                    : "every device builds the whole tree") +
            "); each device sends its domain's accelerations and receives the others' every step "
            "(in exchange and wait)";
        ImGui::TextDisabled("%s",
                            variant == NbodyVariant::Tree
                                ? tree.c_str()
                                : "share: the device's share of the block meetings; the parts "
                                  "of the accelerations are summed every step (in exchange and "
                                  "wait)");
        if (!t.integration.empty()) ImGui::TextDisabled("integration %s", t.integration.c_str());
        ImGui::PopTextWrapPos();
    }
    // Stretched to the window: long device names are clipped (the full name is the tooltip)
    // rather than widening the panel past the screen.
    if (!ImGui::BeginTable("split", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
        return;
    ImGui::TableSetupColumn("device", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    for (const char* h : {"share", "compute", "exchange", "wait"})
        ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (std::size_t d = 0; d < t.devices.size(); ++d) {
        const NbodyDeviceTimings& x = t.devices[d];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%zu: %s", d, x.device.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", x.device.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.1f%%", 100 * x.share);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatMs(x.computeMs).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatMs(x.exchangeMs).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatMs(x.waitMs).c_str());
    }
    ImGui::EndTable();
}

void NbodyDemo::timingsPanel() {
    const RollingSeries& frame = timings_.frameMs();
    const float meanFrame = frame.mean();
    ImGui::Text("%.1f FPS   frame %s (mean of last %zu)", meanFrame > 0 ? 1000.0 / meanFrame : 0.0,
                formatMs(meanFrame).c_str(), frame.count());

    if (ImGui::BeginTable("breakdown", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("stage");
        ImGui::TableSetupColumn("last");
        ImGui::TableSetupColumn("share of frame");
        ImGui::TableHeadersRow();
        auto row = [&](const std::string& name, double ms, const char* note = "") {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s%s", formatMs(ms).c_str(), note);
            ImGui::TableNextColumn();
            if (ms >= 0 && meanFrame > 0)
                ImGui::ProgressBar(float(ms / meanFrame), ImVec2(ImGui::GetFontSize() * 6, 0), "");
        };
        for (const NbodyKernelTime& k : lastStep_.kernels) {
            char note[32] = "";
            if (k.launches > 1)  // several steps this frame: their sum, which may exceed a frame
                std::snprintf(note, sizeof note, "  (sum of %d launches)", k.launches);
            row("kernel " + k.kernel, k.ms, note);
        }
        row(std::string(interopPathName(choice_.path)) + " (device)", lastCopy_.deviceMs);
        row(std::string(interopPathName(choice_.path)) + " (host)", lastCopy_.hostMs);
        row("draw particles (GPU)", timings_.renderMs().count() ? timings_.renderMs().last() : -1,
            renderTimer_ && renderTimer_->available() ? "" : "  (no timer query)");
        if (haveDiagnostics_)  // what one frame pays: the longest slice
            row("diagnostics (" +
                    (lastDiagnostics_.slices > 1
                         ? "longest of " + std::to_string(lastDiagnostics_.slices) + " slices, "
                         : std::string()) +
                    "every " + std::to_string(diagnosticsInterval()) + ")",
                lastDiagnostics_.maxSliceMs);
        ImGui::EndTable();
    }
    if (lastStep_.steps > 0) {
        ImGui::Text("%d step(s): %s %s, %.1f GFLOP/s (%s)", lastStep_.steps,
                    formatCount(lastStep_.interactionsPerSecond()).c_str(),
                    lastStep_.interactionsUnit(), lastStep_.gflops(),
                    lastStep_.fp64 ? "fp64" : "fp32");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s, %.0f flops each",
                              lastStep_.allPairs ? "N^2 interactions per step"
                              : sim_ && sim_->kernelConfig().variant == NbodyVariant::Tree
                                  ? "interactions as counted: the summed interaction-list lengths"
                                  : "N(N-1)/2 pairs per step, each computed once for both bodies",
                              lastStep_.flopsPerInteraction);
        if (!lastStep_.allPairs)
            ImGui::TextDisabled(
                "all-pairs-equivalent: %s interactions/s (N^2 / step time; not a flop rate)",
                formatCount(lastStep_.equivalentInteractionsPerSecond()).c_str());
    }
    if (lastSplit_ && lastSplit_->steps > 0) splitTimingsTable(*lastSplit_);
    ImGui::Separator();
    plot("frame", frame, "ms");
    plot("kernels", timings_.kernelMs(), "ms");
    plot("hand-over", timings_.copyMs(), "ms");
    plot("draw", timings_.renderMs(), "ms");
    plot(lastStep_.interactionsUnit(), timings_.interactionsPerSecond(), "");

    comparePanel();

    const NbodyTimingLog::Totals t = timings_.totals();
    if (t.frames > 0)
        ImGui::TextDisabled("run: %lld frames, frame %.2f ms = %.2f x kernels", t.frames,
                            t.meanFrameMs, t.meanKernelMs > 0 ? t.meanFrameMs / t.meanKernelMs : 0);
}

}  // namespace clviz
