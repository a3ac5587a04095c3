// The Timings panel and overlay: each filter's device time from CL profiling events, the
// result's trip to GL, and rolling plots of both.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/image/panels.hpp"

namespace clviz {

namespace {

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

std::string transferLine(const TimingFacts& f) {
    char buf[160];
    const double total = f.transfer.deviceMs + f.transfer.hostMs;
    if (f.path == InteropPath::GlSharing)
        std::snprintf(buf, sizeof buf,
                      "to GL (gl-sharing): %.3f ms acquire+copy+release, %.3f ms "
                      "GL sync",
                      f.transfer.deviceMs, f.transfer.hostMs);
    else
        std::snprintf(buf, sizeof buf, "to GL (host copy): %.3f ms map + %.3f ms glTexSubImage2D",
                      f.transfer.deviceMs, f.transfer.hostMs);
    return std::string(buf) + ", " + formatRate(double(f.transfer.bytes), total);
}

}  // namespace

void TimingHistory::push(float chainMs, float transferMs) {
    total_[next_] = chainMs + transferMs;
    next_ = (next_ + 1) % kFrames;
}

float TimingHistory::maxValue() const {
    return *std::max_element(total_.begin(), total_.end());
}

std::string formatRate(double bytes, double ms) {
    if (ms <= 0 || bytes <= 0) return "- GB/s";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB/s", bytes / (ms * 1e-3) / 1e9);
    return buf;
}

void drawTimingsPanel(bool* open, const TimingFacts& f, bool* continuous) {
    if (!ImGui::Begin("Timings", open)) {
        ImGui::End();
        return;
    }
    ImGui::TextColored(kDim, "device time per step (CL profiling events)%s",
                       f.continuous ? "" : ", last run");
    if (f.steps && !f.steps->empty() &&
        ImGui::BeginTable("##steps", 3, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthStretch, 3.0f);
        ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthFixed, 70.0f);
        ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        for (const StepTiming& t : *f.steps) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(t.label.c_str());
            ImGui::TableSetColumnIndex(1);
            ImGui::Text("%8.3f", t.ms);
            ImGui::TableSetColumnIndex(2);
            ImGui::ProgressBar(f.chainMs > 0 ? float(t.ms / f.chainMs) : 0.0f, ImVec2(-1, 0), "");
        }
        ImGui::EndTable();
    } else {
        ImGui::TextColored(kDim, "no filter ran (the result is the source)");
    }
    ImGui::Text("chain total %.3f ms", f.chainMs);
    if (continuous) {
        ImGui::SameLine(0, 20);
        ImGui::Checkbox("run every frame", continuous);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "On: the chain runs each frame, so the timings stay live.\n"
                "Off: it runs only after a change.");
    }
    if (!f.result.empty()) ImGui::TextWrapped("%s", transferLine(f).c_str());

    if (f.history) {
        const float top = std::max(f.history->maxValue() * 1.1f, 0.1f);
        const float width = ImGui::GetContentRegionAvail().x;
        char overlay[64];
        std::snprintf(overlay, sizeof overlay, "chain + to GL, ms (max %.2f)", top / 1.1f);
        ImGui::PlotLines("##total", f.history->total(), TimingHistory::kFrames, f.history->offset(),
                         overlay, 0.0f, top, ImVec2(width, 36));
    }
    ImGui::End();
}

void drawTimingOverlay(const TimingFacts& f) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float pad = 10.0f;
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y - pad),
        ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.55f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
        ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
    if (ImGui::Begin("##image timing overlay", nullptr, flags)) {
        std::string line;
        char buf[96];
        if (f.steps)
            for (const StepTiming& t : *f.steps) {
                std::snprintf(buf, sizeof buf, "%s%s %.2f ms", line.empty() ? "" : "  |  ",
                              t.label.c_str(), t.ms);
                line += buf;
            }
        if (line.empty()) line = "no filter";
        std::snprintf(buf, sizeof buf, "  |  to GL %.2f ms (%s)",
                      f.transfer.deviceMs + f.transfer.hostMs, interopPathName(f.path));
        line += buf;
        ImGui::TextUnformatted(line.c_str());
    }
    ImGui::End();
}

}  // namespace clviz
