// The Image panel: which picture, how it is shown, saving, and how results reach GL.
#include <imgui.h>

#include <cmath>

#include "app/image_panels.hpp"

namespace clviz {

namespace {

const ImVec4 kWarning(1.0f, 0.75f, 0.3f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

// ImGui 1.86 has no SeparatorText.
void section(const char* title) {
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextColored(kDim, "%s", title);
}

std::string sizeText(ImageSize s) {
    return s.empty() ? "-" : std::to_string(s.width) + " x " + std::to_string(s.height);
}

}  // namespace

void drawImagePanel(bool* open, ImageLabControls& controls, const ImagePanelFacts& facts,
                    PathField& loadField, PathField& saveField, ImagePanelRequests& requests) {
    ImGui::SetNextWindowPos(ImVec2(10, 32), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Image", open)) {
        ImGui::End();
        return;
    }

    // --- file
    ImGui::TextWrapped("%s", facts.imageLabel.empty() ? "(no image)" : facts.imageLabel.c_str());
    if (!facts.imageNote.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("%s", facts.imageNote.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Text("source %s   result %s", sizeText(facts.source).c_str(),
                sizeText(facts.result).c_str());
    ImGui::SetNextItemWidth(-60);
    const bool enter =
        ImGui::InputTextWithHint("##file", "image file (or drop one here)", loadField.data(),
                                 loadField.size(), ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Open") || enter) requests.load = std::string(loadField.data());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC, PNM; or drop a file on the "
            "window");

    // --- view
    section("View");
    int mode = controls.view.mode == ImageViewMode::Split ? 1 : 0;
    ImGui::RadioButton("side by side", &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("split", &mode, 1);
    controls.view.mode = mode == 1 ? ImageViewMode::Split : ImageViewMode::SideBySide;
    if (controls.view.mode == ImageViewMode::Split)
        ImGui::SliderFloat("divider", &controls.view.split, 0.0f, 1.0f, "%.2f");

    float zoomPercent = controls.view.zoom * 100.0f;
    if (ImGui::SliderFloat("zoom", &zoomPercent, ImageViewState::kMinZoom * 100.0f,
                           ImageViewState::kMaxZoom * 100.0f, "%.0f%% of fit",
                           ImGuiSliderFlags_Logarithmic))
        controls.view.zoom = zoomPercent / 100.0f;
    if (ImGui::Button("Fit (0)")) {
        controls.view.zoom = 1.0f;
        controls.view.panX = controls.view.panY = 0.0f;
    }
    ImGui::SameLine();
    if (ImGui::Button("1:1 (1)")) {
        controls.view.zoom = facts.actualSizeZoom;
        controls.view.panX = controls.view.panY = 0.0f;
    }
    ImGui::SameLine();
    ImGui::TextColored(kDim, "drag: pan, wheel: zoom");
    int mag = controls.view.magnification == Magnification::Nearest ? 0 : 1;
    ImGui::RadioButton("nearest", &mag, 0);
    ImGui::SameLine();
    ImGui::RadioButton("linear", &mag, 1);
    ImGui::SameLine();
    ImGui::TextColored(kDim, "magnification");
    controls.view.magnification = mag == 0 ? Magnification::Nearest : Magnification::Linear;
    ImGui::Checkbox("run every frame", &controls.continuous);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "On: the chain runs each frame, so the timings stay live.\n"
            "Off: it runs only after a change.");

    // --- save
    section("Save result");
    ImGui::SetNextItemWidth(-60);
    const bool saveEnter =
        ImGui::InputTextWithHint("##save", "out.png or out.jpg", saveField.data(), saveField.size(),
                                 ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Save") || saveEnter) requests.save = std::string(saveField.data());

    // --- interop
    section("Interop");
    static const char* kRequests[] = {"auto", "gl-sharing", "host-copy", "external-memory"};
    int req = static_cast<int>(controls.interop);
    ImGui::SetNextItemWidth(160);
    if (ImGui::Combo("path", &req, kRequests, IM_ARRAYSIZE(kRequests))) {
        controls.interop = static_cast<InteropRequest>(req);
        requests.interopChanged = true;
    }
    ImGui::Text("active: %s", interopPathName(facts.interop.path));
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("%s", facts.interop.reason.c_str());
    ImGui::PopStyleColor();
    if (!facts.textureFallback.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("%s", facts.textureFallback.c_str());
        ImGui::PopStyleColor();
    }
    if (ImGui::TreeNode("capabilities")) {
        ImGui::TextWrapped("%s", facts.caps.c_str());
        ImGui::Text("GL_MAX_TEXTURE_SIZE %d", facts.glMaxTextureSize);
        ImGui::TreePop();
    }
    ImGui::End();
}

}  // namespace clviz
