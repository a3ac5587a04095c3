#include "app/gui_overlay.hpp"

#include <imgui.h>

#include <algorithm>

namespace clviz {

void drawOverlay(const OverlayInfo& info) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float pad = ImGui::GetStyle().WindowPadding.x;
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - pad, vp->WorkPos.y + pad),
                            ImGuiCond_Always, ImVec2(1, 0));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
        ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    if (ImGui::Begin("##overlay", nullptr, flags)) {
        const FrameStats& s = *info.stats;
        ImGui::Text("%s", info.demoTitle.empty() ? "no demo" : info.demoTitle.c_str());
        ImGui::Separator();
        ImGui::Text("%6.1f FPS  %6.2f ms/frame", s.fps(), s.meanMs());
        ImGui::TextDisabled("min %.2f  max %.2f ms over %zu frames", s.minMs(), s.maxMs(),
                            s.count());
        // Scale so a 60 Hz frame sits mid-plot and spikes stay visible.
        const float top = static_cast<float>(std::max(33.4, s.maxMs() * 1.1));
        ImGui::PlotLines("##frametime", s.plotData(), s.plotCount(), s.plotOffset(), nullptr, 0.0f,
                         top, ImVec2(ImGui::GetFontSize() * 18, ImGui::GetFontSize() * 3));
        ImGui::Separator();
        ImGui::Text("OpenCL: %s", info.clDevice.c_str());
        ImGui::TextDisabled("  %s", info.clReason.c_str());
        if (info.glFellBack)
            ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s", info.gl.c_str());
        else
            ImGui::Text("%s", info.gl.c_str());
        ImGui::TextDisabled("%d x %d, vsync %s", info.framebufferWidth, info.framebufferHeight,
                            info.vsync ? "on" : "off");
    }
    ImGui::End();
}

}  // namespace clviz
