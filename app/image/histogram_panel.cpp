// The Histogram panel: R, G, B and luma histograms from the device, linear or log, with their
// statistics, and the histogram kernel variant.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/layout.hpp"
#include "app/image/panels.hpp"

namespace clviz {

namespace {

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

ImVec4 channelColour(int channel) {
    switch (channel) {
        case kRed:
            return ImVec4(0.92f, 0.30f, 0.28f, 1.0f);
        case kGreen:
            return ImVec4(0.35f, 0.82f, 0.35f, 1.0f);
        case kBlue:
            return ImVec4(0.35f, 0.55f, 0.98f, 1.0f);
        default:
            return ImVec4(0.85f, 0.85f, 0.85f, 1.0f);
    }
}

}  // namespace

std::array<float, kHistogramBins> histogramPlotValues(const Histogram& h, int channel,
                                                      HistogramScale scale) {
    std::array<float, kHistogramBins> out{};
    if (channel < 0 || channel >= kHistogramChannels) return out;
    for (int i = 0; i < kHistogramBins; ++i) {
        const double count = h.bins[channel][i];
        out[i] = static_cast<float>(scale == HistogramScale::Log ? std::log10(1.0 + count) : count);
    }
    return out;
}

bool drawHistogramPanel(bool* open, ImageLabControls& controls,
                        const std::optional<Histogram>& histogram, double histogramMs) {
    if (!ImGui::Begin("Histogram", open)) {
        ImGui::End();
        return false;
    }
    bool changed = false;
    HistogramSettings& hs = controls.histogram;
    int of = !hs.enabled ? 2 : hs.of == HistogramOf::Source ? 0 : 1;
    bool ofChanged = ImGui::RadioButton("source", &of, 0);
    ImGui::SameLine();
    ofChanged |= ImGui::RadioButton("result", &of, 1);
    ImGui::SameLine();
    ofChanged |= ImGui::RadioButton("off", &of, 2);
    ImGui::SameLine(0, 24);
    int scale = controls.histogramScale == HistogramScale::Log ? 1 : 0;
    ImGui::RadioButton("linear", &scale, 0);
    ImGui::SameLine();
    ImGui::RadioButton("log", &scale, 1);
    controls.histogramScale = scale == 1 ? HistogramScale::Log : HistogramScale::Linear;
    if (ofChanged) {
        hs.enabled = of != 2;
        if (of != 2) hs.of = of == 0 ? HistogramOf::Source : HistogramOf::Result;
        changed = true;
    }

    ImGui::SetNextItemWidth(-80);
    if (ImGui::BeginCombo("##variant", histogramVariantInfo(hs.variant).name)) {
        for (int i = 0; i < kHistogramVariantCount; ++i) {
            const auto v = static_cast<HistogramVariant>(i);
            if (ImGui::Selectable(histogramVariantInfo(v).name, v == hs.variant)) {
                hs.variant = v;
                changed = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", histogramVariantInfo(v).description);
        }
        ImGui::EndCombo();
    }
    if (hs.enabled && histogramMs > 0) {
        ImGui::SameLine();
        ImGui::TextColored(kDim, "%.3f ms", histogramMs);
    }

    if (!hs.enabled) {
        ImGui::TextColored(kDim, "histogram off");
    } else if (!histogram) {
        ImGui::TextColored(kDim, "no histogram yet");
    } else {
        const float width = ImGui::GetContentRegionAvail().x;
        for (int c = 0; c < kHistogramChannels; ++c) {
            const auto values = histogramPlotValues(*histogram, c, controls.histogramScale);
            const float top = *std::max_element(values.begin(), values.end());
            const ChannelStats st = histogram->stats(c);
            ImGui::PushID(c);
            ImGui::PushStyleColor(ImGuiCol_PlotHistogram, channelColour(c));
            // The caption goes above the plot, on the window's dark background: drawn over the
            // bars (ImGui's overlay text) it was unreadable on the light-grey luma bars.
            ImGui::BeginGroup();
            ImGui::TextColored(channelColour(c), "%s", histogramChannelName(c));
            ImGui::SameLine();
            ImGui::TextColored(kDim, "min %d  max %d  mean %.1f  median %d", st.min, st.max,
                               st.mean, st.median);
            ImGui::EndGroup();
            noteGuiItem(std::string("Histogram/") + histogramChannelName(c) + " caption");
            // Four lines tall at any GUI scale (a fixed 40 px was 35 px of bars), with its axes:
            // the value range below, the tallest bin's height at the right.
            ImGui::PlotHistogram("##bins", values.data(), kHistogramBins, 0, nullptr, 0.0f,
                                 top > 0 ? top * 1.05f : 1.0f,
                                 ImVec2(width, ImGui::GetFontSize() * 4));
            ImGui::PopStyleColor();
            char peak[64];
            if (controls.histogramScale == HistogramScale::Log)
                std::snprintf(peak, sizeof peak, "tallest bin: log10(1 + count) = %.2f",
                              double(top));
            else
                std::snprintf(peak, sizeof peak, "tallest bin: %.0f pixels", double(top));
            const float x0 = ImGui::GetCursorPosX();
            ImGui::TextColored(kDim, "0");
            ImGui::SameLine(x0 + (width - ImGui::CalcTextSize(peak).x) / 2);
            ImGui::TextColored(kDim, "%s", peak);
            ImGui::SameLine(x0 + width - ImGui::CalcTextSize("255").x);
            ImGui::TextColored(kDim, "255");
            ImGui::PopID();
        }
    }
    ImGui::End();
    return changed;
}

}  // namespace clviz
