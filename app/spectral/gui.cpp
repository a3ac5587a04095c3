// SpectralDemo's GUI: the Demo menu entries, the lab panel (cube, settings rows, noise
// rectangle), the images window (original and denoised side by side, hover and Shift+drag), the
// eigenvalue plot, the spectrum plot and the timings.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/layout.hpp"
#include "app/spectral/demo.hpp"
#include "compute/interop/texture_share.hpp"
#include "compute/spectral/mnf.hpp"

namespace clviz {

namespace {

const ImU32 kPlotBg = IM_COL32(20, 22, 28, 255);
const ImU32 kGrid = IM_COL32(70, 74, 86, 255);
const ImU32 kOriginal = IM_COL32(120, 180, 255, 255);
const ImU32 kDenoised = IM_COL32(255, 170, 60, 255);
const ImU32 kFloor = IM_COL32(230, 80, 80, 255);
const ImU32 kCut = IM_COL32(120, 230, 120, 255);

bool intSlider(const char* label, int& v, int lo, int hi) {
    hi = std::max(lo, hi);
    return ImGui::SliderInt(label, &v, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp);
}

}  // namespace

void SpectralDemo::demoMenu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Demo")) {
        ImGui::Separator();
        ImGui::MenuItem("Spectral panel", nullptr, &panels_.lab);
        ImGui::MenuItem("Images", nullptr, &panels_.images);
        ImGui::MenuItem("Eigenvalues", nullptr, &panels_.eigen);
        ImGui::MenuItem("Spectrum", nullptr, &panels_.spectrum);
        ImGui::MenuItem("MNF timings", nullptr, &panels_.timings);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void SpectralDemo::labPanel() {
    if (!ImGui::Begin("Spectral", &panels_.lab)) {
        ImGui::End();
        return;
    }
    const CubeShape& sh = cube_.shape;
    ImGui::TextWrapped("%s", label_.empty() ? "(no cube)" : label_.c_str());
    ImGui::Text("%s, %s%s", describeShape(sh).c_str(), cubeTypeName(cube_.type),
                mnf_ && mnf_->exactIntegerPath() ? " (exact integer C_D)" : "");
    ImGui::InputText("##cube", loadField_.data(), loadField_.size());
    ImGui::SameLine();
    if (ImGui::Button("Open")) {
        app_.attempt([&] { openCube(loadField_.data()); });
    }
    ImGui::InputText("##save", saveField_.data(), saveField_.size());
    ImGui::SameLine();
    if (ImGui::Button("Save MNF")) {
        app_.attempt([&] { save(saveField_.data()); });
    }
    ImGui::Separator();

    // The settings rows, the same keys as --set.
    auto apply = [&](const char* key, const std::string& value) {
        app_.attempt([&] { set(key, value); });
    };
    int noise = int(controls_.noise);
    const char* noiseNames[] = {"diff (lower-right differences)", "mean3 (3x3 mean residual x9/8)",
                                "median3 (3x3 median residual)"};
    if (ImGui::Combo("noise", &noise, noiseNames, 3))
        apply("noise", noiseEstimateName(NoiseEstimate(noise)));
    int m = componentsM();
    if (intSlider("components m", m, 1, sh.bands)) apply("components", std::to_string(m));
    int k = keepK();
    if (intSlider("denoise k", k, 0, sh.bands)) apply("keep", std::to_string(k));
    int view = int(controls_.view);
    ImGui::RadioButton("band", &view, 0);
    ImGui::SameLine();
    ImGui::RadioButton("3 bands", &view, 1);
    ImGui::SameLine();
    ImGui::RadioButton("3 MNF", &view, 2);
    if (view != int(controls_.view)) apply("view", spectralViewName(SpectralViewMode(view)));
    if (controls_.view == SpectralViewMode::Band) {
        int b = clampBand(controls_.band);
        if (intSlider("band", b, 0, sh.bands - 1)) apply("band", std::to_string(b));
        ImGui::TextUnformatted(bandLabel(b).c_str());
    } else if (controls_.view == SpectralViewMode::BandRgb) {
        std::array<int, 3> rgb = {clampBand(controls_.rgbBands[0]),
                                  clampBand(controls_.rgbBands[1]),
                                  clampBand(controls_.rgbBands[2])};
        bool changed = false;
        const char* names[] = {"red", "green", "blue"};
        for (int c = 0; c < 3; ++c) {
            changed |= intSlider(names[c], rgb[c], 0, sh.bands - 1);
            if (rgb[c] < int(meta_.wavelength.size())) {
                ImGui::SameLine();
                ImGui::TextDisabled("%.0f", meta_.wavelength[rgb[c]]);
            }
        }
        if (changed)
            apply("rgb", std::to_string(rgb[0]) + "," + std::to_string(rgb[1]) + "," +
                             std::to_string(rgb[2]));
    } else {
        std::array<int, 3> c3 = controls_.mnfRgb;
        bool changed = false;
        const char* names[] = {"red MNF", "green MNF", "blue MNF"};
        for (int c = 0; c < 3; ++c) {
            c3[c] = std::clamp(c3[c], 0, componentsM() - 1);
            changed |= intSlider(names[c], c3[c], 0, componentsM() - 1);
        }
        if (changed)
            apply("mnf-rgb", std::to_string(c3[0]) + "," + std::to_string(c3[1]) + "," +
                                 std::to_string(c3[2]));
    }
    ImGui::Separator();
    const CubeRect r = clampRect(controls_.noiseRect, sh);
    if (isWholeCube(controls_.noiseRect, sh)) {
        ImGui::TextUnformatted("noise from: the whole cube");
    } else {
        ImGui::Text("noise from: %d x %d at (%d, %d)", r.samples, r.lines, r.sample0, r.line0);
        ImGui::SameLine();
        if (ImGui::SmallButton("whole cube")) apply("noise-rect", "all");
    }
    ImGui::TextDisabled("Shift+drag on the left image: noise rectangle");
    if (job_.running()) {  // a recompute or a load: the panels show the previous result
        ImGui::TextColored(ImVec4(1, 0.85f, 0.3f, 1), "%s", progressLine().c_str());
        noteGuiItem("##spectral-job/text");
    } else if (!runError_.empty()) {
        ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", runError_.c_str());
    } else if (shown_.result.basis.bands > 0) {
        ImGui::Text("%d components with SNR > 10", componentsWithSnr(shown_.result.basis, 10));
    }
    ImGui::End();
}

void SpectralDemo::imagesWindow() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    // Below the main menu bar even on the first frame, before the viewport's work area knows it.
    const float top = std::max(vp->WorkPos.y, vp->Pos.y + ImGui::GetFrameHeight()) + 8;
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + 372, top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(
        ImVec2(std::max(200.0f, vp->WorkSize.x - 744), std::max(150.0f, vp->WorkSize.y * 0.62f)),
        ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Images", &panels_.images)) {
        ImGui::End();
        return;
    }
    if (!original_) {
        ImGui::TextUnformatted("no cube");
        ImGui::End();
        return;
    }
    const CubeShape& sh = cube_.shape;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = 8;
    const float scale = std::max(
        0.05f, std::min((avail.x - gap) / 2 / float(sh.samples),
                        (avail.y - 2 * ImGui::GetTextLineHeightWithSpacing()) / float(sh.lines)));
    const ImVec2 size(float(sh.samples) * scale, float(sh.lines) * scale);
    const std::string leftTitle = controls_.view == SpectralViewMode::Band
                                      ? "original, " + bandLabel(clampBand(controls_.band))
                                  : controls_.view == SpectralViewMode::BandRgb
                                      ? "original, 3 bands as RGB"
                                      : "MNF components as RGB";
    ImGui::BeginGroup();
    ImGui::TextUnformatted(leftTitle.c_str());
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Image((ImTextureID)(intptr_t)original_->texture(), size);
    const bool hovered = ImGui::IsItemHovered();
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    if (shown_.m > 0)
        ImGui::Text("denoised, k = %d", shown_.k);
    else
        ImGui::TextUnformatted("denoised: no MNF yet");
    if (runError_.empty())
        ImGui::Image((ImTextureID)(intptr_t)denoised_->texture(), size);
    else
        ImGui::Dummy(size);
    ImGui::EndGroup();

    // The pixel under the mouse, and the Shift+drag rectangle (in cube pixels).
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    auto pixelAt = [&](ImVec2 p) {
        return std::array<int, 2>{std::clamp(int((p.x - origin.x) / scale), 0, sh.samples - 1),
                                  std::clamp(int((p.y - origin.y) / scale), 0, sh.lines - 1)};
    };
    if (hovered) cursorPixel_ = pixelAt(mouse);
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && ImGui::GetIO().KeyShift)
        dragStart_ = dragEnd_ = pixelAt(mouse);
    if (dragStart_) {
        dragEnd_ = pixelAt(mouse);
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            const int x0 = std::min((*dragStart_)[0], (*dragEnd_)[0]),
                      x1 = std::max((*dragStart_)[0], (*dragEnd_)[0]);
            const int y0 = std::min((*dragStart_)[1], (*dragEnd_)[1]),
                      y1 = std::max((*dragStart_)[1], (*dragEnd_)[1]);
            dragStart_.reset();
            const std::string rect = std::to_string(x0) + "," + std::to_string(y0) + "," +
                                     std::to_string(x1 - x0 + 1) + "," +
                                     std::to_string(y1 - y0 + 1);
            app_.attempt([&] { set("noise-rect", rect); });
        }
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto outline = [&](int x0, int y0, int w, int h, ImU32 colour) {
        dl->AddRect(ImVec2(origin.x + x0 * scale, origin.y + y0 * scale),
                    ImVec2(origin.x + (x0 + w) * scale, origin.y + (y0 + h) * scale), colour, 0, 0,
                    2);
    };
    if (dragStart_) {
        const int x0 = std::min((*dragStart_)[0], (*dragEnd_)[0]),
                  y0 = std::min((*dragStart_)[1], (*dragEnd_)[1]);
        outline(x0, y0, std::abs((*dragEnd_)[0] - (*dragStart_)[0]) + 1,
                std::abs((*dragEnd_)[1] - (*dragStart_)[1]) + 1, IM_COL32(255, 255, 0, 255));
    } else if (!isWholeCube(controls_.noiseRect, sh)) {
        const CubeRect r = clampRect(controls_.noiseRect, sh);
        outline(r.sample0, r.line0, r.samples, r.lines, IM_COL32(255, 255, 0, 200));
    }
    if (cursorPixel_) {
        ImGui::Text("pixel (%d, %d)", (*cursorPixel_)[0], (*cursorPixel_)[1]);
    }
    ImGui::End();
}

void SpectralDemo::eigenvaluePanel() {
    if (!ImGui::Begin("Eigenvalues", &panels_.eigen)) {
        ImGui::End();
        return;
    }
    const bool have = runError_.empty() && shown_.result.basis.bands > 0;
    if (!have) {
        ImGui::TextUnformatted("no MNF yet");
        ImGui::End();
        return;
    }
    const std::vector<double>& ev = shown_.result.basis.eigenvalues;
    const int n = int(ev.size()), m = componentsM();
    ImGui::TextWrapped("lambda = 1 + SNR (log scale); red: noise floor 1; green: the cut at m = %d",
                       m);
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 150);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("eigenvalue plot", size);
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 p1(p0.x + size.x, p0.y + size.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, p1, kPlotBg);
    double lo = 0.5, hi = 10;
    for (double v : ev) {
        if (v > 0) lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
    auto y = [&](double v) {
        const double t = (std::log10(std::max(v, std::pow(10.0, l0))) - l0) / (l1 - l0);
        return float(p1.y - 4 - t * (size.y - 8));
    };
    auto x = [&](double i) { return float(p0.x + 34 + (i + 0.5) / n * (size.x - 40)); };
    for (double d = l0; d <= l1; d += 1) {
        const float yy = y(std::pow(10.0, d));
        dl->AddLine(ImVec2(p0.x + 34, yy), ImVec2(p1.x, yy), kGrid);
        char t[16];
        std::snprintf(t, sizeof t, "1e%d", int(d));
        dl->AddText(ImVec2(p0.x + 2, yy - 7), kGrid, t);
    }
    dl->AddLine(ImVec2(p0.x + 34, y(1)), ImVec2(p1.x, y(1)), kFloor, 1.5f);
    const float cut = (x(m - 1) + x(m)) / 2;
    dl->AddLine(ImVec2(cut, p0.y), ImVec2(cut, p1.y), kCut, 1.5f);
    for (int i = 1; i < n; ++i)
        dl->AddLine(ImVec2(x(i - 1), y(ev[i - 1])), ImVec2(x(i), y(ev[i])), kOriginal, 1.5f);
    for (int i = 0; i < std::min(n, 64); ++i)
        dl->AddCircleFilled(ImVec2(x(i), y(ev[i])), 2.0f, kOriginal);
    if (hovered) {
        const int i =
            std::clamp(int((ImGui::GetIO().MousePos.x - p0.x - 34) / (size.x - 40) * n), 0, n - 1);
        ImGui::SetTooltip("component %d: lambda %.4g (SNR %.4g)", i + 1, ev[i], ev[i] - 1);
    }
    ImGui::End();
}

void SpectralDemo::spectrumPanel() {
    if (!ImGui::Begin("Spectrum", &panels_.spectrum)) {
        ImGui::End();
        return;
    }
    const CubeShape& sh = cube_.shape;
    if (sh.values() == 0) {
        ImGui::End();
        return;
    }
    const std::array<int, 2> px =
        cursorPixel_.value_or(std::array<int, 2>{sh.samples / 2, sh.lines / 2});
    const int B = sh.bands;
    std::vector<double> orig(B), den;
    for (int b = 0; b < B; ++b)
        orig[b] = cube_.at(px[1], px[0], b);
    const bool haveDenoised = runError_.empty() && int(denoiseMatrix_.size()) == B * B &&
                              int(shown_.result.mean.size()) == B;
    if (haveDenoised) {
        const std::vector<double>& mu = shown_.result.mean;
        den.assign(mu.begin(), mu.end());
        for (int j = 0; j < B; ++j) {
            const double c = orig[j] - mu[j];
            for (int i = 0; i < B; ++i)
                den[i] += denoiseMatrix_[std::size_t(j) * B + i] * c;
        }
    }
    ImGui::Text("pixel (%d, %d)%s", px[0], px[1],
                cursorPixel_ ? "" : " (the centre: hover the image)");
    ImGui::TextColored(ImColor(kOriginal), "original");
    ImGui::SameLine();
    if (shown_.m > 0)
        ImGui::TextColored(ImColor(kDenoised), "denoised, k = %d", shown_.k);
    else
        ImGui::TextColored(ImColor(kDenoised), "denoised: no MNF yet");
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 120);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("spectrum plot", size);
    const ImVec2 p1(p0.x + size.x, p0.y + size.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, p1, kPlotBg);
    double lo = orig[0], hi = orig[0];
    for (double v : orig)
        lo = std::min(lo, v), hi = std::max(hi, v);
    for (double v : den)
        lo = std::min(lo, v), hi = std::max(hi, v);
    if (hi <= lo) hi = lo + 1;
    auto x = [&](int b) {
        return float(p0.x + 4 + (B > 1 ? double(b) / (B - 1) : 0.5) * (size.x - 8));
    };
    auto y = [&](double v) { return float(p1.y - 4 - (v - lo) / (hi - lo) * (size.y - 8)); };
    for (int b = 1; b < B; ++b) {
        dl->AddLine(ImVec2(x(b - 1), y(orig[b - 1])), ImVec2(x(b), y(orig[b])), kOriginal, 1.2f);
        if (!den.empty())
            dl->AddLine(ImVec2(x(b - 1), y(den[b - 1])), ImVec2(x(b), y(den[b])), kDenoised, 1.2f);
    }
    const float bx = x(clampBand(controls_.view == SpectralViewMode::Band ? controls_.band
                                                                          : controls_.rgbBands[0]));
    dl->AddLine(ImVec2(bx, p0.y), ImVec2(bx, p1.y), kGrid);
    if (ImGui::IsItemHovered()) {
        const int b = std::clamp(
            int(std::lround((ImGui::GetIO().MousePos.x - p0.x - 4) / (size.x - 8) * (B - 1))), 0,
            B - 1);
        ImGui::SetTooltip("%s\noriginal %.5g%s", bandLabel(b).c_str(), orig[b],
                          den.empty() ? "" : ("\ndenoised " + std::to_string(den[b])).c_str());
    }
    ImGui::End();
}

void SpectralDemo::timingsPanel() {
    if (!ImGui::Begin("MNF timings", &panels_.timings)) {
        ImGui::End();
        return;
    }
    if (!mnf_) {
        ImGui::End();
        return;
    }
    const MnfTimings& t = shown_.timings;
    const struct {
        const char* name;
        double ms;
    } rows[] = {{"1 filter (noise residuals)", t.filterMs},
                {"2 C_N", t.noiseCovMs},
                {"4 C_D", t.dataCovMs},
                {"3,5-7 eigen (host)", t.eigenMs},
                {"8 transform", t.transformMs},
                {"denoise (shown bands)", t.denoiseMs},
                {"pictures", pictureMs_},
                {"to GL (device + host)", transferMs_}};
    double biggest = 0.001;
    for (const auto& r : rows)
        biggest = std::max(biggest, r.ms);
    for (const auto& r : rows) {
        ImGui::Text("%-26s %9.3f ms", r.name, r.ms);
        ImGui::SameLine(300);
        ImGui::ProgressBar(float(r.ms / biggest), ImVec2(-1, ImGui::GetTextLineHeight()), "");
    }
    ImGui::Text("steps 1-7 wall time: %.3f ms", t.wallMs);
    ImGui::TextDisabled("device times from OpenCL events; eigen is host time");
    ImGui::End();
}

void SpectralDemo::gui(const FrameInfo& frame) {
    demoMenu();
    // The panels read the cube and the MNF, which the start is making. A recompute or a load
    // leaves the shown ones alone: the panels stay, with its progress line in the lab panel.
    if (job_.running() && jobKind_ == JobKind::Start) {
        drawJobProgress(frame, "##spectral-progress", progressLine(),
                        "the lab comes up when this is done; a first build takes longest");
        return;
    }
    stacks_.beginFrame();
    if (panels_.lab) {
        stacks_.place("Spectral", PanelSide::Left, 360);
        labPanel();
    }
    if (panels_.images) imagesWindow();
    if (panels_.eigen) {
        stacks_.place("Eigenvalues", PanelSide::Right, 360);
        eigenvaluePanel();
    }
    if (panels_.spectrum) {
        stacks_.place("Spectrum", PanelSide::Right, 360);
        spectrumPanel();
    }
    if (panels_.timings) {
        stacks_.place("MNF timings", PanelSide::Right, 360, 300);
        timingsPanel();
    }
}

}  // namespace clviz
