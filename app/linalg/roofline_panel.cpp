// The Roofline window: log-log axes (FLOP/byte, GFLOP/s), the memory slope and each compute
// ceiling as measured at start-up, every timed kernel as a point, and a legend that says where
// each point is against its bound. Runs with bytes but no flops (the image filters) have no
// place on the FLOP/s axes: they are listed with their bandwidth against the memory ceiling.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/layout.hpp"
#include "app/linalg/log_chart.hpp"
#include "app/linalg/panels.hpp"
#include "compute/core/device_info.hpp"

namespace clviz {

ImU32 markColour(const std::string& group) {
    if (group == "GEMM") return IM_COL32(90, 170, 255, 255);
    if (group == "reduction") return IM_COL32(110, 220, 120, 255);
    if (group == "N-body") return IM_COL32(255, 160, 60, 255);
    return IM_COL32(200, 200, 200, 255);
}

namespace {

constexpr ImU32 kCeiling = IM_COL32(240, 80, 80, 255);
constexpr ImU32 kTensor = IM_COL32(220, 120, 240, 255);

}  // namespace

void drawRooflinePanel(bool* open, const DeviceCeilings& ceilings,
                       const std::vector<RooflineMark>& marks) {
    if (!ImGui::Begin("Roofline", open)) {
        ImGui::End();
        return;
    }
    const RooflineCeilings c = ceilings.roofline();
    const double bw = c.bandwidthGBs;
    const double peak = c.peakGflops();
    // The axes hold every ceiling's ridge, with a decade each side, and every placed point.
    std::vector<double> xs, ys;
    for (const auto& ceil : c.compute) {
        const double ridge = ridgeIntensity(bw, ceil.gflops);
        xs.push_back(ridge / 10);
        xs.push_back(ridge * 10);
        ys.push_back(ceil.gflops * 2);
    }
    for (const auto& m : marks)
        if (placeable(m.run)) {
            // A third of a decade's margin, so a point is never on the frame.
            xs.push_back(intensity(m.run) * 2);
            xs.push_back(intensity(m.run) / 2);
            ys.push_back(gflopsPerSecond(m.run) * 2);
            ys.push_back(gflopsPerSecond(m.run) / 2);
        }
    const LogAxis x = logAxisCovering(xs, {0.1, 1000});
    std::vector<double> yRange = ys;
    yRange.push_back(attainableGflops(bw, peak, x.lo));
    const LogAxis y = logAxisCovering(yRange, {1, 1e5});

    ImGui::TextWrapped(
        "Ceilings measured at start-up in %.2f s: memory %s (copy, read + write), "
        "FP32 %s (FMA loop)%s",
        ceilings.probeSeconds, formatByteRate(ceilings.bandwidthGBs).c_str(),
        formatFlopRate(ceilings.fp32Gflops).c_str(),
        ceilings.tf32Gflops
            ? (", TF32 " + formatFlopRate(*ceilings.tf32Gflops) + " (mma.sync loop)").c_str()
            : "");
    LogChart chart(x, y, "arithmetic intensity (FLOP/byte)", "GFLOP/s", 230);
    noteGuiItem("Roofline/chart");
    if (bw > 0 && peak > 0) {
        // The memory slope up to the highest ceiling, then each compute ceiling from its ridge.
        const double ridgeTop = ridgeIntensity(bw, peak);
        chart.line(x.lo, bw * x.lo, ridgeTop, peak, kCeiling);
        chart.label(x.lo, bw * x.lo * 3, "memory " + formatByteRate(bw), kCeiling, 6, -18);
        for (const auto& ceil : c.compute) {
            const double ridge = ridgeIntensity(bw, ceil.gflops);
            const ImU32 colour = ceil.name == kTf32CeilingName ? kTensor : kCeiling;
            chart.line(ridge, ceil.gflops, x.hi, ceil.gflops, colour);
            chart.label(x.hi, ceil.gflops, ceil.name + " " + formatFlopRate(ceil.gflops), colour,
                        -400, -18);
        }
    }
    for (const auto& m : marks) {
        if (!placeable(m.run)) continue;
        chart.point(intensity(m.run), gflopsPerSecond(m.run), markColour(m.group),
                    m.current ? 7.0f : 4.5f, true);
        if (m.current)
            chart.label(intensity(m.run), gflopsPerSecond(m.run), m.run.name, markColour(m.group),
                        10, -8);
    }
    if (!ceilings.tf32Gflops) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", ceilings.tensorNote.c_str());
        ImGui::PopStyleColor();
    }

    // The legend: where each point stands against its bound at its intensity (tensor-core runs
    // against the tensor ceiling, the rest against FP32's).
    if (ImGui::BeginTable(
            "##points", 5,
            ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
            ImVec2(0, 130))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("kernel");
        ImGui::TableSetupColumn("FLOP/byte");
        ImGui::TableSetupColumn("GFLOP/s");
        ImGui::TableSetupColumn("GB/s");
        ImGui::TableSetupColumn("of bound");
        ImGui::TableHeadersRow();
        for (const auto& m : marks) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, markColour(m.group));
            ImGui::TextUnformatted(m.run.name.c_str());
            ImGui::PopStyleColor();
            if (ImGui::IsItemHovered() && !m.run.note.empty())
                ImGui::SetTooltip("%s: %s", m.group.c_str(), m.run.note.c_str());
            ImGui::TableNextColumn();
            if (placeable(m.run))
                ImGui::Text("%.3g", intensity(m.run));
            else
                ImGui::TextDisabled("no flops");
            ImGui::TableNextColumn();
            if (placeable(m.run))
                ImGui::Text("%.4g", gflopsPerSecond(m.run));
            else
                ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            ImGui::Text("%.4g", gigabytesPerSecond(m.run));
            ImGui::TableNextColumn();
            const std::string share = shareOfBound(m.run, c, kFp32CeilingName);
            if (share.empty())
                ImGui::TextDisabled("-");
            else
                ImGui::TextUnformatted(share.c_str());
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

void drawSizePanel(bool* open, const std::map<std::string, std::map<double, double>>& bySize,
                   const std::string& current, double fp32Ceiling) {
    if (!ImGui::Begin("GFLOP/s vs size", open)) {
        ImGui::End();
        return;
    }
    std::vector<double> xs, ys;
    for (const auto& [id, points] : bySize)
        for (const auto& [size, gflops] : points) {
            xs.push_back(size);
            ys.push_back(gflops);
        }
    if (fp32Ceiling > 0) ys.push_back(fp32Ceiling * 1.5);
    LogChart chart(logAxisCovering(xs, {10, 1000}), logAxisCovering(ys, {1, 1000}),
                   "size: cube root of M*N*K", "GFLOP/s", 160);
    noteGuiItem("GFLOP/s vs size/chart");
    // The lines' names and the ceiling's, moved apart where several end near each other.
    std::vector<LogChart::Label> names;
    if (fp32Ceiling > 0) {
        const LogAxis x = logAxisCovering(xs, {10, 1000});
        chart.line(x.lo, fp32Ceiling, x.hi, fp32Ceiling, IM_COL32(240, 80, 80, 255), 1.5f);
        names.push_back({x.hi, fp32Ceiling, "FP32 FMA " + formatFlopRate(fp32Ceiling),
                         IM_COL32(240, 80, 80, 255), 0, 4});
    }
    // Variants in a fixed palette; the current one brighter and last (on top).
    static const ImU32 palette[] = {IM_COL32(120, 120, 255, 255), IM_COL32(90, 200, 200, 255),
                                    IM_COL32(200, 200, 90, 255),  IM_COL32(230, 130, 200, 255),
                                    IM_COL32(160, 230, 120, 255), IM_COL32(230, 160, 90, 255)};
    int i = 0;
    for (const auto& [id, points] : bySize) {
        std::vector<std::pair<double, double>> line(points.begin(), points.end());
        const ImU32 colour = palette[i++ % 6];
        chart.polyline(line, id == current ? IM_COL32(255, 255, 255, 255) : colour);
        if (!line.empty())
            names.push_back({line.back().first, line.back().second, id,
                             id == current ? IM_COL32(255, 255, 255, 255) : colour, -60, 4});
    }
    chart.labels(names);
    ImGui::End();
}

void drawReductionPanel(bool* open, const std::vector<ReducePoint>& points,
                        const std::string& variantId, double copyBandwidthGBs,
                        std::string* variantChoice) {
    if (!ImGui::Begin("Reduction", open)) {
        ImGui::End();
        return;
    }
    ImGui::Text("float sum, %s; one size a frame", variantId.c_str());
    if (variantChoice) {
        ImGui::SameLine();
        if (ImGui::SmallButton("next variant")) *variantChoice = "next";
    }
    std::vector<double> xs, ys;
    std::vector<std::pair<double, double>> line;
    int checked = 0, measured = 0;
    std::string problem;
    for (const auto& p : points) {
        xs.push_back(double(p.bytes));
        if (p.ms <= 0) continue;
        ++measured;
        checked += p.checked;
        if (!p.checked && problem.empty()) problem = formatBytes(p.bytes) + ": " + p.problem;
        line.emplace_back(double(p.bytes), p.gigabytesPerSecond());
        ys.push_back(p.gigabytesPerSecond());
    }
    if (copyBandwidthGBs > 0) ys.push_back(copyBandwidthGBs * 1.5);
    const LogAxis x = logAxisCovering(xs, {1024, 1 << 24});
    LogChart chart(x, logAxisCovering(ys, {0.1, 100}), "bytes reduced", "GB/s (bytes read / time)",
                   160);
    noteGuiItem("Reduction/chart");
    if (copyBandwidthGBs > 0) {
        chart.line(x.lo, copyBandwidthGBs, x.hi, copyBandwidthGBs, IM_COL32(240, 80, 80, 255),
                   1.5f);
        chart.label(x.hi, copyBandwidthGBs,
                    "copy " + formatByteRate(copyBandwidthGBs) + " (read + write)",
                    IM_COL32(240, 80, 80, 255), 0, 4);
    }
    chart.polyline(line, markColour("reduction"));
    ImGui::Text("%d of %d sizes measured, %d checked against the CPU sum (double)", measured,
                int(points.size()), checked);
    if (!problem.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "WRONG %s", problem.c_str());
    ImGui::End();
}

}  // namespace clviz
