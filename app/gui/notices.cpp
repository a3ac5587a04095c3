#include "app/gui/notices.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImRect, FindWindowByName

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "app/gui/layout.hpp"

namespace clviz {

namespace {
constexpr double kNoticeSeconds = 8.0;
constexpr std::size_t kMaxEntries = 8;
constexpr const char* kWindowName = "##notices";

// A spot for the notices clear of every other window (panels, overlay, status lines), so they
// cover nothing and stay inside the work area: the lowest band of the notices' height that has a
// free stretch at least `minWidth` wide, the stretch nearest the middle. Returns the rectangle
// (its width is the stretch's, capped to `wantWidth`), or nothing where the windows leave no room.
std::optional<ImRect> freeSpot(float wantWidth, float minWidth, float height) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float m = ImGui::GetFontSize() * 0.5f;
    const float left = vp->WorkPos.x + m, right = vp->WorkPos.x + vp->WorkSize.x - m;
    const float middle = vp->WorkPos.x + vp->WorkSize.x * 0.5f;
    std::vector<ImRect> taken;
    for (const GuiWindowRect& w : drawnGuiWindows())
        if (!w.popup && w.name != kWindowName)
            taken.push_back(ImRect(w.x, w.y, w.x + w.width, w.y + w.height));
    for (float y = vp->WorkPos.y + vp->WorkSize.y - m - height; y >= vp->WorkPos.y + m; y -= m) {
        std::vector<std::pair<float, float>> blocked;
        for (const ImRect& r : taken)
            if (r.Min.y < y + height + m && r.Max.y > y - m)
                blocked.push_back({r.Min.x - m, r.Max.x + m});
        std::sort(blocked.begin(), blocked.end());
        std::optional<ImRect> best;
        float bestDistance = FLT_MAX;
        float x = left;
        blocked.push_back({right, right});
        for (const auto& [x0, x1] : blocked) {
            const float end = std::min(x0, right);
            if (end - x >= minWidth) {
                const float w = std::min(end - x, wantWidth);
                const float x0Fit = std::clamp(middle - w * 0.5f, x, end - w);
                const float distance = std::abs(x0Fit + w * 0.5f - middle);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = ImRect(x0Fit, y, x0Fit + w, y + height);
                }
            }
            x = std::max(x, x1);
        }
        if (best) return best;
    }
    return std::nullopt;
}
}  // namespace

void Notices::add(bool isError, const std::string& message, double now) {
    std::fprintf(stderr, "clviz: %s%s\n", isError ? "error: " : "", message.c_str());
    // The same message again (a failing action retried) bumps a counter instead of piling up.
    for (auto& e : entries_)
        if (e.error == isError && e.text == message) {
            ++e.repeats;
            e.time = now;
            return;
        }
    entries_.push_back({isError, message, now, 1});
    while (entries_.size() > kMaxEntries)
        entries_.pop_front();
}

void Notices::resolveErrorsMentioning(const std::string& fragment) {
    if (fragment.empty()) return;
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) {
                                      return e.error && e.text.find(fragment) != std::string::npos;
                                  }),
                   entries_.end());
}

int Notices::errorCount() const {
    return static_cast<int>(
        std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.error; }));
}

void Notices::draw(double now) {
    entries_.erase(
        std::remove_if(entries_.begin(), entries_.end(),
                       [&](const Entry& e) { return !e.error && now - e.time > kNoticeSeconds; }),
        entries_.end());
    if (entries_.empty()) return;

    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float pad = ImGui::GetStyle().WindowPadding.x;
    const float em = ImGui::GetFontSize();
    float textWidth = 0;
    for (const Entry& e : entries_)
        textWidth = std::max(textWidth,
                             ImGui::CalcTextSize(e.text.c_str()).x + (e.error ? 5 * em : 2 * em));
    const float wantWidth = std::min(textWidth + 2 * pad, vp->WorkSize.x * 0.6f);
    const ImGuiWindow* last = ImGui::FindWindowByName(kWindowName);
    const float height =
        last && last->WasActive ? last->Size.y : ImGui::GetFrameHeightWithSpacing() * 2;
    // As low as the other windows leave room (its height from the last frame), nearest the middle;
    // where there is none (a tiny window), bottom-centre over whatever is there.
    const std::optional<ImRect> spot = freeSpot(wantWidth, std::min(wantWidth, em * 16), height);
    const float width = spot ? spot->GetWidth() : std::min(wantWidth, vp->WorkSize.x - 2 * pad);
    if (spot)  // by its bottom: grown taller than last frame, it still ends inside the window
        ImGui::SetNextWindowPos(ImVec2(spot->Min.x, spot->Max.y), ImGuiCond_Always, ImVec2(0, 1));
    else
        ImGui::SetNextWindowPos(
            ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y - pad),
            ImGuiCond_Always, ImVec2(0.5f, 1));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration |
                                   ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin(kWindowName, nullptr, flags)) {
        ImGui::PushTextWrapPos(0.0f);  // the window's width
        int dismiss = -1;
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            const Entry& e = entries_[i];
            ImGui::PushID(static_cast<int>(i));
            if (e.error) {
                if (ImGui::SmallButton("x")) dismiss = static_cast<int>(i);
                ImGui::SameLine();
                ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "Error:");
                ImGui::SameLine();
            }
            if (e.repeats > 1)
                ImGui::TextWrapped("%s (x%d)", e.text.c_str(), e.repeats);
            else
                ImGui::TextWrapped("%s", e.text.c_str());
            ImGui::PopID();
        }
        ImGui::PopTextWrapPos();
        if (dismiss >= 0) entries_.erase(entries_.begin() + dismiss);
    }
    ImGui::End();
}

}  // namespace clviz
