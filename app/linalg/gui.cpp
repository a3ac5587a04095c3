// LinalgDemo's GUI: the Demo menu entries, the GEMM panel (variant, shape, transposes, tile
// parameters as the settings table names them), the matrices between the panels, and the
// roofline, size and reduction panels in their stacks.
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "app/gui/layout.hpp"
#include "app/linalg/demo.hpp"
#include "compute/core/kernel_run_log.hpp"

namespace clviz {

namespace {

// A row's edit: applied through the settings table once the rows are drawn, so the panel and
// --set agree on what is valid.
using PanelEdit = std::optional<std::pair<std::string, std::string>>;

void intRow(const char* label, const char* key, int value, int step, PanelEdit& edit) {
    int v = value;
    ImGui::SetNextItemWidth(130);
    if (ImGui::InputInt(label, &v, step, step * 8, ImGuiInputTextFlags_EnterReturnsTrue) &&
        v != value)
        edit.emplace(key, std::to_string(v));
}

void onOffRow(const char* label, const char* key, bool value, PanelEdit& edit) {
    bool v = value;
    if (ImGui::Checkbox(label, &v)) edit.emplace(key, v ? "on" : "off");
}

}  // namespace

void LinalgDemo::demoMenu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Demo")) {
        ImGui::Separator();
        ImGui::MenuItem("GEMM panel", nullptr, &panels_.gemm);
        ImGui::MenuItem("Roofline panel", nullptr, &panels_.roofline);
        ImGui::MenuItem("GFLOP/s vs size panel", nullptr, &panels_.sizes);
        ImGui::MenuItem("Reduction panel", nullptr, &panels_.reduction);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void LinalgDemo::gemmPanel() {
    if (!ImGui::Begin("GEMM", &panels_.gemm)) {
        ImGui::End();
        return;
    }
    PanelEdit edit;
    const LinalgVariantInfo& current = gemmVariantInfo(controls_.variant);
    ImGui::SetNextItemWidth(240);
    if (ImGui::BeginCombo("variant", current.name)) {
        for (int v = 0; v < kGemmVariantCount; ++v) {
            const auto& info = gemmVariantInfo(GemmVariant(v));
            if (ImGui::Selectable(info.name, GemmVariant(v) == controls_.variant))
                edit.emplace("variant", info.id);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", info.id, info.description);
        }
        ImGui::EndCombo();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", current.description);
    ImGui::PopStyleColor();
    const GemmShape& s = controls_.shape;
    intRow("M", "m", s.m, 1, edit);
    intRow("N", "n", s.n, 1, edit);
    intRow("K", "k", s.k, 1, edit);
    onOffRow("A transposed", "trans-a", s.transA, edit);
    ImGui::SameLine();
    onOffRow("B transposed", "trans-b", s.transB, edit);
    // The tile parameters this variant reads (its table's tunables), 0 for its default.
    const std::string tunables = current.tunables;
    if (!tunables.empty() && ImGui::TreeNodeEx("Tile parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
        const GemmTuning resolved =
            gemm_ ? gemm_->gemm().resolvedFor(controls_.variant, controls_.tuning, s)
                  : GemmTuning{};
        ImGui::TextDisabled("in use: %s", resolved.key().c_str());
        struct Field {
            const char* define;
            const char* label;
            const char* key;
            int GemmTuning::*field;
        };
        static const Field fields[] = {{"TS", "tile TS", "tile", &GemmTuning::tile},
                                       {"BM", "block BM", "block-m", &GemmTuning::blockM},
                                       {"BN", "block BN", "block-n", &GemmTuning::blockN},
                                       {"BK", "block BK", "block-k", &GemmTuning::blockK},
                                       {"TM", "thread TM", "thread-m", &GemmTuning::threadM},
                                       {"TN", "thread TN", "thread-n", &GemmTuning::threadN},
                                       {"WM", "warp WM", "thread-m", &GemmTuning::threadM},
                                       {"WN", "warp WN", "thread-n", &GemmTuning::threadN}};
        for (const Field& f : fields)
            if (tunables.find(f.define) != std::string::npos)
                intRow(f.label, f.key, controls_.tuning.*f.field, 1, edit);
        ImGui::TreePop();
    }
    onOffRow("run every frame", "continuous", controls_.continuous, edit);
    ImGui::SameLine();
    onOffRow("error overlay", "error-overlay", controls_.errorOverlay, edit);
    onOffRow("all variants", "all-variants", controls_.allVariants, edit);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Time every variant at this shape for the roofline");
    ImGui::SameLine();
    onOffRow("size sweep", "sweep", controls_.sweep, edit);
    if (edit) app_.attempt([&] { set(edit->first, edit->second); });

    ImGui::Separator();
    if (lastRun_) {
        const GemmRun& r = *lastRun_;
        ImGui::Text("%.3f ms  %s  (%s)", r.ms, formatFlopRate(r.gflops()).c_str(),
                    r.tensorPath ? "tensor cores, mma.sync TF32" : "FP32");
    }
    if (!runError_.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.45f, 1), "%s", runError_.c_str());
    if (gemm_) {
        switch (gemm_->reference()) {
            case GemmLab::Reference::TooLarge:
                ImGui::TextDisabled("no CPU reference above 2048^3 multiply-adds");
                break;
            case GemmLab::Reference::Computing:
                ImGui::TextDisabled("computing the CPU reference (double)...");
                break;
            case GemmLab::Reference::Ready:
                if (const auto& e = gemm_->error())
                    ImGui::TextWrapped("vs CPU (double): max |err| %.3g, relative Frobenius %.3g%s",
                                       e->maxAbs, e->relFrobenius,
                                       e->finite ? "" : " (non-finite C)");
                break;
        }
        if (!gemm_->gemm().ptxNote().empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", gemm_->gemm().ptxNote().c_str());
            ImGui::PopStyleColor();
        }
    }
    for (const auto& [v, why] : refusals_)
        if (GemmVariant(v) != controls_.variant)
            ImGui::TextDisabled("%s: %s", gemmVariantInfo(GemmVariant(v)).id, why.c_str());
    if (!skipNote_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", skipNote_.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::End();
}

void LinalgDemo::drawMatrices() {
    if (!texC_.texture && !texA_.texture) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = ImGui::GetMainViewport()->WorkPos.y + 8;
    float x0 = insetLeft_ + 8, x1 = display.x - insetRight_ - 8;
    if (x1 - x0 < 0.2f * display.x) x0 = 8, x1 = display.x - 8;  // too little room: use it all
    const float y1 = display.y - 40;
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    // A over B on the left, C (with the error over it) larger on the right.
    const float gap = 12, labelH = ImGui::GetTextLineHeight() + 4;
    const float colW = (x1 - x0 - gap) / 3;
    auto place = [&](const MatrixTexture& t, float ax, float ay, float aw, float ah,
                     const std::string& label, const MatrixTexture* over) {
        if (!t.texture || t.rows <= 0 || t.cols <= 0 || aw < 20 || ah < 20) return;
        const float scale = std::min(aw / float(t.cols), (ah - labelH) / float(t.rows));
        const float w = float(t.cols) * scale, h = float(t.rows) * scale;
        const ImVec2 p0(ax, ay + labelH), p1(ax + w, ay + labelH + h);
        const ImVec2 uv1(float(t.cols) / float(t.texture->capacityWidth()),
                         float(t.rows) / float(t.texture->capacityHeight()));
        dl->AddText(ImVec2(ax, ay), IM_COL32(230, 230, 230, 255), label.c_str());
        dl->AddImage(reinterpret_cast<ImTextureID>(std::uintptr_t(t.texture->texture())), p0, p1,
                     ImVec2(0, 0), uv1);
        if (over && over->texture && over->rows == t.rows && over->cols == t.cols) {
            const ImVec2 ouv1(float(over->cols) / float(over->texture->capacityWidth()),
                              float(over->rows) / float(over->texture->capacityHeight()));
            dl->AddImage(reinterpret_cast<ImTextureID>(std::uintptr_t(over->texture->texture())),
                         p0, p1, ImVec2(0, 0), ouv1);
        }
        dl->AddRect(p0, p1, IM_COL32(160, 160, 170, 255));
        if (over && over->texture)
            dl->AddText(ImVec2(p0.x, p1.y + 4), IM_COL32(240, 220, 90, 255),
                        "yellow: |C - CPU| / max|CPU|, 1e-8 .. 1e-2");
    };
    const GemmShape& s = controls_.shape;
    const float halfH = (y1 - top - gap) / 2;
    place(texA_, x0, top, colW, halfH,
          "A " + std::to_string(texA_.rows) + "x" + std::to_string(texA_.cols) +
              (s.transA ? " (op: its transpose)" : "") + ", +-1",
          nullptr);
    place(texB_, x0, top + halfH + gap, colW, halfH,
          "B " + std::to_string(texB_.rows) + "x" + std::to_string(texB_.cols) +
              (s.transB ? " (op: its transpose)" : "") + ", +-1",
          nullptr);
    const bool overlay = controls_.errorOverlay && errorDrawn_ && texError_.texture;
    place(
        texC_, x0 + colW + gap, top, 2 * colW, y1 - top - labelH,
        "C " + std::to_string(texC_.rows) + "x" + std::to_string(texC_.cols) + ", colour +-sqrt(K)",
        overlay ? &texError_ : nullptr);
}

void LinalgDemo::gui(const FrameInfo& frame) {
    demoMenu();
    if (job_.running()) {  // the panels read the lab, which the start is making
        drawJobProgress(frame, "##linalg-progress", progressLine(),
                        "the lab comes up when this is done; a first build takes longest");
        return;
    }
    stacks_.beginFrame();
    insetLeft_ = insetRight_ = 0;
    // Whichever column a panel ended up in (a stack that is full spills into the other one).
    auto measure = [&](const char* name, bool) {
        const float width = ImGui::GetIO().DisplaySize.x;
        for (const GuiWindowRect& w : drawnGuiWindows())
            if (w.name == name && !w.collapsed) {
                if (w.x + w.width / 2 < width / 2)
                    insetLeft_ = std::max(insetLeft_, w.x + w.width);
                else
                    insetRight_ = std::max(insetRight_, width - w.x);
            }
    };
    if (panels_.gemm) {
        stacks_.place("GEMM", PanelSide::Left, 340);
        gemmPanel();
        measure("GEMM", true);
    }
    if (panels_.reduction && reduce_) {
        stacks_.place("Reduction", PanelSide::Left, 340);
        std::string next;
        drawReductionPanel(&panels_.reduction, reduce_->points(),
                           reduceVariantInfo(reduce_->variant()).id, ceilings_.bandwidthGBs, &next);
        if (!next.empty())
            controls_.reduceVariant =
                ReduceVariant((int(controls_.reduceVariant) + 1) % kReduceVariantCount);
        measure("Reduction", true);
    }
    if (panels_.roofline) {
        stacks_.place("Roofline", PanelSide::Right, 470);
        drawRooflinePanel(&panels_.roofline, ceilings_, rooflineMarks());
        measure("Roofline", false);
    }
    if (panels_.sizes) {
        stacks_.place("GFLOP/s vs size", PanelSide::Right, 470);
        drawSizePanel(&panels_.sizes, bySize_, gemmVariantInfo(controls_.variant).id,
                      ceilings_.fp32Gflops);
        measure("GFLOP/s vs size", false);
    }
    drawMatrices();
}

}  // namespace clviz
