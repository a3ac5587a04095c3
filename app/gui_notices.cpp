#include "app/gui_notices.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace clviz {

namespace {
constexpr double kNoticeSeconds = 8.0;
constexpr std::size_t kMaxEntries = 8;
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
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x - pad, vp->WorkPos.y + vp->WorkSize.y - pad),
        ImGuiCond_Always, ImVec2(1, 1));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->WorkSize.x * 0.6f, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.85f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration |
                                   ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##notices", nullptr, flags)) {
        ImGui::PushTextWrapPos(vp->WorkSize.x * 0.6f - 2 * pad);
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
