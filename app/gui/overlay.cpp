#include "app/gui/overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

namespace clviz {

namespace {

// Byte offsets where each UTF-8 character of `s` starts, plus s.size() at the end.
std::vector<std::size_t> characterStarts(const std::string& s) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
    starts.push_back(s.size());
    return starts;
}

float textWidth(const std::string& s) {
    return ImGui::CalcTextSize(s.c_str()).x;
}

void fittedText(const std::string& text, float width, TextCut cut, bool disabled = false) {
    const std::string shown = fitToWidth(text, width, cut);
    if (disabled)
        ImGui::TextDisabled("%s", shown.c_str());
    else
        ImGui::TextUnformatted(shown.c_str());
}

void tooltipIfHovered(const std::string& text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace

std::string fitToWidth(const std::string& text, float width, TextCut cut) {
    if (textWidth(text) <= width) return text;
    const std::vector<std::size_t> at = characterStarts(text);
    const std::size_t chars = at.size() - 1;
    // Keep `kept` characters (the first ones, or the first and last halves), most that fit.
    for (std::size_t kept = chars; kept-- > 0;) {
        const std::size_t head = cut == TextCut::End ? kept : (kept + 1) / 2;
        const std::size_t tail = kept - head;
        const std::string s = text.substr(0, at[head]) + "..." + text.substr(at[chars - tail]);
        if (textWidth(s) <= width) return s;
    }
    return "...";
}

void drawOverlay(const OverlayInfo& info) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float em = ImGui::GetFontSize();
    const float width = em * 18;  // the content width: the frame-time plot's
    const float windowWidth = width + 2 * style.WindowPadding.x;
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - style.WindowPadding.x,
                                   vp->WorkPos.y + style.WindowPadding.x),
                            ImGuiCond_Always, ImVec2(1, 0));
    ImGui::SetNextWindowSizeConstraints(ImVec2(windowWidth, 0), ImVec2(windowWidth, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
        ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    if (ImGui::Begin("##overlay", nullptr, flags)) {
        const FrameStats& s = *info.stats;
        char line[128];
        std::snprintf(line, sizeof line, "%d x %d, vsync %s", info.framebufferWidth,
                      info.framebufferHeight, info.vsync ? "on" : "off");
        const float sizeWidth = textWidth(line);
        fittedText(info.demoTitle.empty() ? "no demo" : info.demoTitle, width - sizeWidth - em,
                   TextCut::End);
        ImGui::SameLine(ImGui::GetCursorPosX() + width - sizeWidth);
        ImGui::TextDisabled("%s", line);
        ImGui::Separator();
        ImGui::Text("%6.1f FPS  %6.2f ms/frame", s.fps(), s.meanMs());
        std::snprintf(line, sizeof line, "min %.2f  max %.2f ms", s.minMs(), s.maxMs());
        fittedText(line, width, TextCut::End, true);
        tooltipIfHovered("over the last " + std::to_string(s.count()) + " frames");
        // Scale so a 60 Hz frame sits mid-plot and spikes stay visible.
        const float top = static_cast<float>(std::max(33.4, s.maxMs() * 1.1));
        ImGui::PlotLines("##frametime", s.plotData(), s.plotCount(), s.plotOffset(), nullptr, 0.0f,
                         top, ImVec2(width, em * 3));
        ImGui::Separator();
        // The device's name is cut in the middle: its start (the driver's prefix) and its end
        // (the model, the platform) say the most.
        fittedText("OpenCL: " + info.clDevice, width, TextCut::Middle);
        tooltipIfHovered(info.clDeviceFull + "\n" + info.clReason);
        fittedText(info.clReason, width, TextCut::End, true);
        tooltipIfHovered(info.clReason);
        if (info.glFellBack) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
        fittedText(info.gl, width, TextCut::End);
        if (info.glFellBack) ImGui::PopStyleColor();
        tooltipIfHovered(info.gl);
    }
    ImGui::End();
}

}  // namespace clviz
