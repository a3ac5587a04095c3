// The Interop panel: which path hands positions to GL, why, what the machine offers, and a live
// switch between paths.
#include <imgui.h>

#include "app/nbody/demo.hpp"
#include "app/nbody/format.hpp"

namespace clviz {

void NbodyDemo::interopPanel() {
    ImGui::Text("active: %s", interopPathName(choice_.path));
    ImGui::TextWrapped("why: %s", choice_.reason.c_str());
    if (!fallback_.empty())
        ImGui::TextColored(ImVec4(1, 0.55f, 0.3f, 1), "run-time fallback: %s", fallback_.c_str());
    if (positions_) ImGui::TextDisabled("%s", positions_->description().c_str());

    ImGui::Separator();
    ImGui::TextUnformatted("force a path:");
    for (InteropRequest r : {InteropRequest::Auto, InteropRequest::GlSharing,
                             InteropRequest::HostCopy, InteropRequest::ExternalMemory}) {
        ImGui::SameLine();
        if (ImGui::RadioButton(interopRequestName(r), request_ == r) && request_ != r) {
            app_.attempt([&] { set("interop", interopRequestName(r)); });
        }
    }
    bool pipelined = latency_ == 1;
    if (ImGui::Checkbox("overlap compute and drawing (1 frame latency)", &pipelined))
        app_.attempt([&] { set("latency", pipelined ? "1" : "0"); });
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "GL draws the previous frame's positions while the device computes "
            "the next: a frame costs max(compute, draw) instead of the sum");

    if (positions_ && positions_->ordersOnGpu()) {
        bool turns = takeTurns_;
        if (ImGui::Checkbox("GL and CL take turns on the GPU", &turns))
            app_.attempt([&] { set("take-turns", turns ? "on" : "off"); });
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "The next steps wait on the GPU for this frame's drawing, and the drawing for "
                "the steps' copy: no time-slicing between the GL and CL contexts");
    }

    ImGui::Separator();
    // "131.07 kB", not "131.07 k  B" (a unit on its own item, after ImGui's item spacing).
    ImGui::Text("last hand-over: device %s, host %s, %sB", formatMs(lastCopy_.deviceMs).c_str(),
                formatMs(lastCopy_.hostMs).c_str(),
                formatUnitPrefix(double(lastCopy_.bytes)).c_str());
    if (lastCopy_.deviceMs > 0)
        ImGui::Text(
            "  = %sB/s",
            formatUnitPrefix(double(lastCopy_.bytes) / (lastCopy_.deviceMs * 1e-3)).c_str());

    ImGui::Separator();
    ImGui::TextWrapped("%s", describeInteropCaps(caps_).c_str());
    ImGui::TextWrapped("CL context: %s", app_.clContextSharesGlReason.empty()
                                             ? (caps_.clContextSharesGl ? "shares GL" : "plain")
                                             : app_.clContextSharesGlReason.c_str());
}

}  // namespace clviz
