// The Filters panel: the ordered chain (toggle, move up / down) and each filter's parameters.
#include <imgui.h>

#include <cmath>
#include <utility>

#include "app/image/panels.hpp"

namespace clviz {

namespace {

const ImVec4 kWarning(1.0f, 0.75f, 0.3f, 1.0f);
const ImVec4 kError(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

void tooltip(const char* text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

bool rotateControls(FilterStep& step, ImageLabControls& controls, const ImagePipeline& pipeline) {
    bool changed = false;
    RotateParams& p = step.rotate;

    float degrees = static_cast<float>(p.degrees);
    ImGui::SetNextItemWidth(-90);
    if (ImGui::SliderFloat("angle", &degrees, -180.0f, 180.0f, "%.1f deg")) {
        p.degrees = degrees;
        changed = true;
    }
    bool spin = controls.spinDegreesPerSecond != 0;
    if (ImGui::Checkbox("spin", &spin)) {
        controls.spinDegreesPerSecond = spin ? 30.0 : 0.0;
        changed = true;
    }
    if (spin) {
        ImGui::SameLine();
        float speed = static_cast<float>(controls.spinDegreesPerSecond);
        ImGui::SetNextItemWidth(-90);
        if (ImGui::SliderFloat("deg/s", &speed, -360.0f, 360.0f, "%.0f")) {
            // Zero would switch the spin off under the user's hand; keep it barely moving.
            controls.spinDegreesPerSecond = speed == 0.0f ? 0.1 : speed;
            changed = true;
        }
    }

    static const char* kAccess[] = {"buffer", "image + sampler", "forward (course original)"};
    int access = static_cast<int>(rotateAccess(p.variant));
    ImGui::SetNextItemWidth(-90);
    if (ImGui::Combo("variant", &access, kAccess, IM_ARRAYSIZE(kAccess))) {
        p.variant = makeRotateVariant(
            static_cast<RotateAccess>(access),
            rotateBilinear(p.variant) || rotateAccess(p.variant) == RotateAccess::Forward);
        changed = true;
    }
    tooltip(rotateVariantInfo(p.variant).description);

    const bool forward = rotateAccess(p.variant) == RotateAccess::Forward;
    ImGui::BeginDisabled(forward);
    int bilinear = rotateBilinear(p.variant) ? 1 : 0;
    bool samplingChanged = ImGui::RadioButton("nearest", &bilinear, 0);
    ImGui::SameLine();
    samplingChanged |= ImGui::RadioButton("bilinear", &bilinear, 1);
    ImGui::EndDisabled();
    if (samplingChanged && !forward) {
        p.variant = makeRotateVariant(rotateAccess(p.variant), bilinear == 1);
        changed = true;
    }
    if (forward) {
        ImGui::SameLine();
        ImGui::TextColored(kDim, "(scatter)");
    }

    int fit = p.fit == RotateFit::Expand ? 1 : 0;
    bool fitChanged = ImGui::RadioButton("crop", &fit, 0);
    ImGui::SameLine();
    fitChanged |= ImGui::RadioButton("expand to fit", &fit, 1);
    if (fitChanged) {
        p.fit = fit == 1 ? RotateFit::Expand : RotateFit::Crop;
        changed = true;
    }

    float colour[4] = {p.background.r / 255.0f, p.background.g / 255.0f, p.background.b / 255.0f,
                       p.background.a / 255.0f};
    if (ImGui::ColorEdit4("background", colour,
                          ImGuiColorEditFlags_AlphaBar | ImGuiColorEditFlags_AlphaPreviewHalf |
                              ImGuiColorEditFlags_Uint8)) {
        auto byte = [](float v) {
            return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
        };
        p.background = {byte(colour[0]), byte(colour[1]), byte(colour[2]), byte(colour[3])};
        changed = true;
    }

    std::string why;
    if (!pipeline.rotateAvailable(p.variant, &why)) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
        ImGui::TextWrapped("%s is unavailable: %s", rotateVariantInfo(p.variant).name, why.c_str());
        ImGui::PopStyleColor();
    }
    return changed;
}

bool equalizeControls(FilterStep& step) {
    bool changed = false;
    static const char* kModes[] = {"luma (hues kept)", "per channel"};
    int mode = step.equalize.mode == EqualizeMode::PerChannel ? 1 : 0;
    ImGui::SetNextItemWidth(-90);
    if (ImGui::Combo("mode", &mode, kModes, IM_ARRAYSIZE(kModes))) {
        step.equalize.mode = mode == 1 ? EqualizeMode::PerChannel : EqualizeMode::Luma;
        changed = true;
    }
    int variant = static_cast<int>(step.equalize.histogram);
    ImGui::SetNextItemWidth(-90);
    if (ImGui::BeginCombo("histogram", histogramVariantInfo(step.equalize.histogram).name)) {
        for (int i = 0; i < kHistogramVariantCount; ++i) {
            const auto& info = histogramVariantInfo(static_cast<HistogramVariant>(i));
            if (ImGui::Selectable(info.name, i == variant)) {
                step.equalize.histogram = static_cast<HistogramVariant>(i);
                changed = true;
            }
            tooltip(info.description);
        }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

bool drawFiltersPanel(bool* open, ImageLabControls& controls, const ImagePipeline& pipeline,
                      const std::string& runError) {
    if (!ImGui::Begin("Filters", open)) {
        ImGui::End();
        return false;
    }
    bool changed = false;
    ImGui::TextColored(kDim, "applied top to bottom; arrows reorder");
    auto& steps = controls.steps;
    int moveFrom = -1, moveTo = -1;
    for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
        FilterStep& step = steps[i];
        const VariantInfo& info = filterKindInfo(step.kind);
        ImGui::PushID(i);
        changed |= ImGui::Checkbox("##enabled", &step.enabled);
        tooltip("run this filter");
        ImGui::SameLine();
        ImGui::BeginDisabled(i == 0);
        if (ImGui::ArrowButton("##up", ImGuiDir_Up)) moveFrom = i, moveTo = i - 1;
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(i + 1 == static_cast<int>(steps.size()));
        if (ImGui::ArrowButton("##down", ImGuiDir_Down)) moveFrom = i, moveTo = i + 1;
        ImGui::EndDisabled();
        ImGui::SameLine();
        const bool hasParams = step.kind == FilterKind::Rotate || step.kind == FilterKind::Equalize;
        if (!step.enabled) ImGui::PushStyleColor(ImGuiCol_Text, kDim);
        bool expanded = false;
        if (hasParams)
            expanded = ImGui::TreeNodeEx(
                info.name, step.kind == FilterKind::Rotate ? ImGuiTreeNodeFlags_DefaultOpen : 0);
        else
            ImGui::TextUnformatted(info.name);
        if (!step.enabled) ImGui::PopStyleColor();
        tooltip(info.description);
        if (expanded) {
            if (step.kind == FilterKind::Rotate)
                changed |= rotateControls(step, controls, pipeline);
            if (step.kind == FilterKind::Equalize) changed |= equalizeControls(step);
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (moveFrom >= 0) {
        std::swap(steps[moveFrom], steps[moveTo]);
        changed = true;
    }
    if (ImGui::Button("Reset chain")) {
        steps = ImagePipeline::defaultSteps();
        controls.spinDegreesPerSecond = 0;
        changed = true;
    }
    ImGui::SameLine();
    ImGui::TextColored(kDim, "%s", filterList(steps).c_str());
    if (!runError.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kError);
        ImGui::TextWrapped("cannot run: %s", runError.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::End();
    return changed;
}

}  // namespace clviz
