// The Image panel: which picture, how it is shown, saving, and how results reach GL.
#include <imgui.h>

#include <cmath>

#include "app/image/panels.hpp"
#include "compute/image/io/image_io.hpp"

namespace clviz {

namespace {

const ImVec4 kWarning(1.0f, 0.75f, 0.3f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

std::string sizeText(ImageSize s) {
    return s.empty() ? "-" : std::to_string(s.width) + " x " + std::to_string(s.height);
}

}  // namespace

void drawImagePanel(bool* open, ImageLabControls& controls, const ImagePanelFacts& facts,
                    PathField& loadField, PathField& saveField, ImagePanelRequests& requests) {
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
    ImGui::Text("%s  ->  %s", sizeText(facts.source).c_str(), sizeText(facts.result).c_str());
    ImGui::SetNextItemWidth(-60);
    const bool enter =
        ImGui::InputTextWithHint("##file", "image file (or drop one here)", loadField.data(),
                                 loadField.size(), ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Open") || enter) requests.load = std::string(loadField.data());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s; or drop a file on the window", supportedImageFormats());

    // --- view
    ImGui::Separator();
    int mode = controls.view.mode == ImageViewMode::Split ? 1 : 0;
    ImGui::RadioButton("side by side", &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("split", &mode, 1);
    controls.view.mode = mode == 1 ? ImageViewMode::Split : ImageViewMode::SideBySide;
    ImGui::SameLine(0, 24);
    int mag = controls.view.magnification == Magnification::Nearest ? 0 : 1;
    ImGui::RadioButton("nearest", &mag, 0);
    ImGui::SameLine();
    ImGui::RadioButton("linear", &mag, 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("magnification (N)");
    controls.view.magnification = mag == 0 ? Magnification::Nearest : Magnification::Linear;

    float zoomPercent = controls.view.zoom * 100.0f;
    ImGui::SetNextItemWidth(-110);
    if (ImGui::SliderFloat("##zoom", &zoomPercent, ImageViewState::kMinZoom * 100.0f,
                           ImageViewState::kMaxZoom * 100.0f, "zoom %.0f%% of fit",
                           ImGuiSliderFlags_Logarithmic))
        controls.view.zoom = zoomPercent / 100.0f;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("wheel: zoom about the cursor, drag: pan");
    ImGui::SameLine();
    if (ImGui::Button("Fit")) {
        controls.view.zoom = 1.0f;
        controls.view.panX = controls.view.panY = 0.0f;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("key 0");
    ImGui::SameLine();
    if (ImGui::Button("1:1")) {
        controls.view.zoom = facts.actualSizeZoom;
        controls.view.panX = controls.view.panY = 0.0f;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one screen pixel per image pixel (key 1)");
    if (controls.view.mode == ImageViewMode::Split) {
        ImGui::SetNextItemWidth(-110);
        ImGui::SliderFloat("##divider", &controls.view.split, 0.0f, 1.0f, "divider %.2f");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("or drag the divider in the view");
    }

    // --- save
    ImGui::Separator();
    ImGui::SetNextItemWidth(-60);
    const bool saveEnter =
        ImGui::InputTextWithHint("##save", "out.png or out.jpg", saveField.data(), saveField.size(),
                                 ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Save") || saveEnter) requests.save = std::string(saveField.data());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write the result as PNG or JPEG (by extension)");

    // --- interop (closed by default: the path is in the header, the details one click away)
    ImGui::Spacing();
    const std::string header =
        std::string("Interop: ") + interopPathName(facts.interop.path) + "###interop";
    if (ImGui::CollapsingHeader(header.c_str())) {
        static const char* kRequests[] = {"auto", "gl-sharing", "host-copy", "external-memory"};
        int req = static_cast<int>(controls.interop);
        ImGui::SetNextItemWidth(160);
        if (ImGui::Combo("request", &req, kRequests, IM_ARRAYSIZE(kRequests))) {
            controls.interop = static_cast<InteropRequest>(req);
            requests.interopChanged = true;
        }
        ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        ImGui::TextWrapped("%s", facts.interop.reason.c_str());
        ImGui::TextWrapped("%s", facts.caps.c_str());
        ImGui::Text("GL_MAX_TEXTURE_SIZE %d", facts.glMaxTextureSize);
        ImGui::PopStyleColor();
    }
    if (!facts.textureFallback.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("%s", facts.textureFallback.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::End();
}

}  // namespace clviz
