// The Diagnostics panel: energy and momentum from the device every few frames, their drift
// plotted, a clear warning when bodies turn NaN or Inf, and what they cost: how the potential was
// summed, the device time, over how many frames.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "app/nbody/demo.hpp"
#include "app/nbody/format.hpp"

namespace clviz {

std::string NbodyDemo::forceErrorStaleNote() const {
    if (!sim_ || lastAccuracy_.samples <= 0 || lastAccuracyTheta_ == sim_->params().theta)
        return "";
    char note[96];
    std::snprintf(note, sizeof note, "(measured at theta %.2f: stale until the next diagnostics)",
                  lastAccuracyTheta_);
    return note;
}

void NbodyDemo::diagnosticsPanel() {
    int every = diagnosticsEvery_;
    if (ImGui::SliderInt("every N frames", &every, 0, 300))
        app_.attempt([&] { set("diagnostics", std::to_string(every)); });
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Never waits for the device. Tree: the potential its walk already computes, summed in "
            "O(N). Other variants: the O(N^2) sum in slices of about %.1f ms of device time, one "
            "a frame. Runs at most this often, stretched to keep under 5%% of the time (now every "
            "%d frames); 0 = off",
            diagnosticsSliceBudgetMs(), diagnosticsInterval());
    ImGui::SameLine();
    if (ImGui::Button("now")) startDiagnostics();
    if (!haveDiagnostics_) {
        ImGui::TextDisabled("no diagnostics yet");
        return;
    }
    const NbodyDiagnostics& d = lastDiagnostics_;
    if (!d.finite()) ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "%s", d.message().c_str());
    ImGui::Text("kinetic    %+.6e", d.kinetic);
    ImGui::Text("potential  %+.6e", d.potential);
    ImGui::Text("total      %+.6e  (start %+.6e)", d.total, d.initialEnergy);
    const bool drifting = std::fabs(d.relativeEnergyDrift) > 1e-2;
    ImGui::TextColored(drifting ? ImVec4(1, 0.8f, 0.3f, 1) : ImVec4(0.7f, 1, 0.7f, 1),
                       "drift      %+.3e", d.relativeEnergyDrift);
    ImGui::Text("momentum   (%+.2e, %+.2e, %+.2e)", d.momentum[0], d.momentum[1], d.momentum[2]);
    ImGui::TextDisabled("energy %s", d.method.c_str());
    ImGui::TextDisabled(
        "cost: %s of device time%s, over %d frame(s), every %d frames", formatMs(d.ms).c_str(),
        d.slices > 1 ? (" (longest slice " + formatMs(d.maxSliceMs) + ")").c_str() : "",
        diagnosticsFramesTaken_, diagnosticsInterval());
    if (sim_->kernelConfig().variant == NbodyVariant::Tree && lastAccuracy_.samples > 0) {
        const bool off = lastAccuracy_.median > 1e-3 || lastAccuracy_.p99 > 1e-2;
        ImGui::TextColored(off ? ImVec4(1, 0.8f, 0.3f, 1) : ImVec4(0.7f, 1, 0.7f, 1),
                           "tree force error  median %.2e  p99 %.2e", lastAccuracy_.median,
                           lastAccuracy_.p99);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "|a_tree - a_direct| / |a_direct| on %d bodies spread over the state, against a "
                "direct sum on the device; sampled every few seconds. Target: median <= 1e-3, "
                "p99 <= 1e-2 (lower theta if not)",
                lastAccuracy_.samples);
        if (const std::string stale = forceErrorStaleNote(); !stale.empty())
            ImGui::TextDisabled("%s", stale.c_str());
    }

    auto plot = [](const char* label, const RollingSeries& s) {
        if (s.count() == 0) return;
        float lo = 0, hi = 0;
        for (std::size_t i = 0; i < std::size_t(s.size()); ++i) {
            lo = std::fmin(lo, s.data()[i]);
            hi = std::fmax(hi, s.data()[i]);
        }
        if (hi - lo < 1e-12f) hi = lo + 1e-12f;
        ImGui::PlotLines(label, s.data(), s.size(), s.offset(), nullptr, lo, hi,
                         ImVec2(ImGui::GetFontSize() * 16, ImGui::GetFontSize() * 4));
    };
    plot("energy drift", energyDrift_);
    plot("|momentum|", momentum_);
}

}  // namespace clviz
