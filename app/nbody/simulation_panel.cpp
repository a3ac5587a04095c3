// The Simulation panel: scene (N, preset, random seed), kernel choice, integrator and parameters,
// run control, and how bodies are drawn. Every change goes through set(), the same path as the
// command line, so the panel and --set can never disagree.
#include <imgui.h>

#include <string>
#include <vector>

#include "app/nbody/demo.hpp"
#include "app/nbody/format.hpp"
#include "app/nbody/fp64_box.hpp"
#include "compute/core/compute_context.hpp"

namespace clviz {

namespace {

// Wrapped, so a long help line stays on the screen (theta's ran off it).
void tooltip(const char* text) {
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// The help line of a setting, from the table --set and --help-settings read.
void settingTooltip(const char* key) {
    const auto& docs = NbodyDemo::settings().docs();
    if (const int i = findSetting(docs, key); i >= 0) tooltip(docs[std::size_t(i)].help.c_str());
}

// A combo over integer choices where 0 reads "auto".
bool intCombo(const char* label, int current, const std::vector<int>& choices, int* picked) {
    const std::string preview = current == 0 ? "auto" : std::to_string(current);
    bool changed = false;
    if (ImGui::BeginCombo(label, preview.c_str())) {
        for (int c : choices) {
            const std::string text = c == 0 ? "auto" : std::to_string(c);
            if (ImGui::Selectable(text.c_str(), c == current)) {
                *picked = c;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

void NbodyDemo::applyFromPanel(const std::string& key, const std::string& value) {
    app_.attempt([&] { set(key, value); });
}

void NbodyDemo::simulationPanel() {
    sceneSection();
    kernelSection();
    integrationSection();
    runControls();
    drawingSection();
}

// --- scene ---
void NbodyDemo::sceneSection() {
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
        const NbodyPresetInfo& current = presetInfo(preset_);
        // After a snapshot load the box names the file, not the preset that was there before.
        if (ImGui::BeginCombo("preset", sceneLabel().c_str())) {
            for (const NbodyPresetInfo& p : allNbodyPresets()) {
                if (ImGui::Selectable(p.name, p.preset == preset_))
                    applyFromPanel("preset", p.name);
                tooltip(p.description);
            }
            ImGui::EndCombo();
        }
        tooltip(loadedScene_.empty() ? current.description
                                     : "Loaded from a snapshot; pick a preset to replace it");
        int n = int(n_);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        if (ImGui::InputInt("##n", &n, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue))
            applyFromPanel("n", std::to_string(n));
        tooltip("Number of bodies; press Enter to rebuild the scene");
        ImGui::SameLine();
        if (ImGui::Button("/2") && n_ > 1) applyFromPanel("n", std::to_string(n_ / 2));
        ImGui::SameLine();
        if (ImGui::Button("x2")) applyFromPanel("n", std::to_string(n_ * 2));
        ImGui::SameLine();
        ImGui::TextUnformatted("N");
        int seed = int(seed_);
        if (ImGui::InputInt("random seed", &seed, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) &&
            seed >= 0)
            applyFromPanel("seed", std::to_string(seed));
        settingTooltip("seed");
    }
}

// --- kernel ---
void NbodyDemo::kernelSection() {
    if (ImGui::CollapsingHeader("Force kernel", ImGuiTreeNodeFlags_DefaultOpen)) {
        const NbodyKernelConfig cfg = sim_->kernelConfig();
        if (ImGui::BeginCombo("variant", variantName(cfg.variant))) {
            for (NbodyVariant v : nbodyVariantChoices()) {
                if (ImGui::Selectable(variantName(v), v == cfg.variant))
                    applyFromPanel("variant", variantName(v));
                tooltip(variantDescription(v));
            }
            ImGui::EndCombo();
        }
        tooltip(variantDescription(cfg.variant));
        const bool pickAuto = cfg.variant == NbodyVariant::Auto;
        const bool tree = cfg.variant == NbodyVariant::Tree;
        if (tree) {
            float theta = sim_->params().theta;
            if (ImGui::SliderFloat("theta", &theta, 0.0f, 1.2f, "%.2f"))
                applyFromPanel("theta", std::to_string(theta));
            settingTooltip("theta");
            float thetaFar = sim_->params().thetaFar;
            if (ImGui::SliderFloat("theta-far", &thetaFar, 0.0f, 0.95f, "%.2f"))
                applyFromPanel("theta-far", std::to_string(thetaFar));
            settingTooltip("theta-far");
        }
        // Exactly the settings this variant's kernel reads (none under auto: the tune picks).
        const NbodyTunables uses = tunablesOf(cfg.variant);
        std::vector<int> wgs{0};
        for (int w : sim_->workGroupSizeChoices())
            wgs.push_back(w);
        int picked = 0;
        auto tunable = [&](bool shown, const char* label, const char* key, int current,
                           const std::vector<int>& choices) {
            if (!shown) return;
            if (intCombo(label, current, choices, &picked))
                applyFromPanel(key, std::to_string(picked));
            settingTooltip(key);
        };
        tunable(uses.workGroupSize, "work-group size", "wg", cfg.workGroupSize, wgs);
        tunable(uses.unroll, "unroll", "unroll", cfg.unroll, {0, 1, 2, 4, 8, 16, 32});
        tunable(uses.bodiesPerItem, "bodies per item", "bpi", cfg.bodiesPerItem, {0, 1, 2, 4, 8});
        tunable(uses.split, "split", "split", cfg.split, {0, 1, 2, 4, 8, 16, 32});
        std::string effective = "?";
        try {  // a setting changed in this frame's panel is built off the frame, not here
            effective = sim_->forceKernelReady() ? describe(sim_->effectiveKernelConfig())
                                                 : std::string("building...");
        } catch (const std::exception& e) {
            effective = e.what();
        }
        ImGui::TextDisabled("running: %s", effective.c_str());
        if (pickAuto && !sim_->autoChoice().empty())
            ImGui::TextWrapped("%s", sim_->autoChoice().c_str());
        if (!sim_->kernelNote().empty())
            ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s", sim_->kernelNote().c_str());
        if (!tree) {  // the tree's launch shapes are fixed by the tree code
            if (ImGui::Button("Auto-tune work-group size")) applyFromPanel("autotune", "3");
            tooltip(
                "Times candidate launch configurations for this variant and N (about 3 s, with "
                "a progress line), then uses the fastest");
        }
        if (!autotuneLog_.empty() && ImGui::TreeNode("auto-tune log")) {
            ImGui::TextUnformatted(autotuneLog_.c_str());
            ImGui::TreePop();
        }
    }
}

// --- integration ---
void NbodyDemo::integrationSection() {
    if (ImGui::CollapsingHeader("Integration", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (ImGui::BeginCombo("integrator", integratorName(sim_->integrator()))) {
            for (NbodyIntegrator i : {NbodyIntegrator::Leapfrog, NbodyIntegrator::Taylor}) {
                if (ImGui::Selectable(integratorName(i), i == sim_->integrator()))
                    applyFromPanel("integrator", integratorName(i));
                tooltip(integratorDescription(i));
            }
            ImGui::EndCombo();
        }
        {
            const std::string unavailable = fp64Unavailable(cc_->info().name, sim_->supportsFp64(),
                                                            sim_->kernelConfig().variant);
            bool fp64 = sim_->precision() == NbodyPrecision::Double;
            ImGui::BeginDisabled(!unavailable.empty());
            if (ImGui::Checkbox("double precision (fp64)", &fp64))
                applyFromPanel("precision", fp64 ? "double" : "float");
            ImGui::EndDisabled();
            if (!unavailable.empty()) tooltip(unavailable.c_str());
        }
        NbodyParams p = sim_->params();
        if (ImGui::SliderFloat("dt", &p.dt, 1e-5f, 0.1f, "%.5f", ImGuiSliderFlags_Logarithmic) &&
            p.dt > 0)
            applyFromPanel("dt", std::to_string(p.dt));
        if (ImGui::SliderFloat("softening", &p.softening, 1e-4f, 1.0f, "%.4f",
                               ImGuiSliderFlags_Logarithmic))
            applyFromPanel("softening", std::to_string(p.softening));
        if (ImGui::SliderFloat("damping", &p.damping, 0.9f, 1.0f, "%.4f") && p.damping > 0)
            applyFromPanel("damping", std::to_string(p.damping));
        settingTooltip("damping");
        int steps = stepsPerFrame_;
        if (ImGui::SliderInt("steps per frame", &steps, 1, 50))
            applyFromPanel("steps", std::to_string(steps));
    }
}

// --- run control ---
void NbodyDemo::runControls() {
    if (ImGui::Button(paused_ ? "Run  (Space)" : "Pause (Space)"))
        applyFromPanel("pause", paused_ ? "off" : "on");
    ImGui::SameLine();
    if (ImGui::Button("Step (S)")) applyFromPanel("step", "1");
    ImGui::SameLine();
    if (ImGui::Button("Reset (R)")) resetScene();  // set("reset") without the notice
    ImGui::Text("t = %.3f   steps = %lld", sim_->time(), sim_->stepsTaken());
}

// --- drawing ---
void NbodyDemo::drawingSection() {
    if (ImGui::CollapsingHeader("Drawing")) {
        if (ImGui::BeginCombo("colour", particleColourName(style_.colour))) {
            for (ParticleColour c :
                 {ParticleColour::Speed, ParticleColour::Mass, ParticleColour::Fixed})
                if (ImGui::Selectable(particleColourName(c), c == style_.colour))
                    applyFromPanel("colour", particleColourName(c));
            ImGui::EndCombo();
        }
        if (style_.colour == ParticleColour::Fixed) {
            ImGui::ColorEdit3("fixed colour", style_.fixedColour);
        } else if (ImGui::BeginCombo("colour map", colourMapName(style_.map))) {
            for (ColourMap m : {ColourMap::Inferno, ColourMap::Viridis, ColourMap::Ice})
                if (ImGui::Selectable(colourMapName(m), m == style_.map))
                    applyFromPanel("colourmap", colourMapName(m));
            ImGui::EndCombo();
        }
        std::string shown = particleDrawName(style_.draw);
        if (style_.draw == ParticleDraw::Auto && renderer_)
            shown += std::string(" (") + particleDrawName(renderer_->lastDraw()) + ")";
        if (ImGui::BeginCombo("particles", shown.c_str())) {
            for (ParticleDraw d : {ParticleDraw::Auto, ParticleDraw::Splat, ParticleDraw::Sprites})
                if (ImGui::Selectable(particleDrawName(d), d == style_.draw))
                    applyFromPanel("particles", particleDrawName(d));
            ImGui::EndCombo();
        }
        if (renderer_ && style_.draw != ParticleDraw::Sprites &&
            !renderer_->splatUnavailable().empty())
            ImGui::TextWrapped("drawn as sprites: %s", renderer_->splatUnavailable().c_str());
        float size = sizeFactor_;
        if (ImGui::SliderFloat("size", &size, 0.1f, 10.0f, "%.2f", ImGuiSliderFlags_Logarithmic))
            applyFromPanel("size", std::to_string(size));
        float brightness = brightness_;
        if (ImGui::SliderFloat("brightness", &brightness, 0.05f, 20.0f, "%.2f",
                               ImGuiSliderFlags_Logarithmic))
            applyFromPanel("brightness", std::to_string(brightness));
        if (ImGui::Button("Reset camera (C)")) applyFromPanel("camera", "reset");
        ImGui::SameLine();
        ImGui::TextDisabled("drag rotate, right/shift-drag pan, wheel zoom");
    }
}

}  // namespace clviz
