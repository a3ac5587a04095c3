// Compare variants: every force variant at the current N, timed on the device one per frame,
// shown as bars and exported as CSV or JSON. The scene and the running variant come back after.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/nbody/demo.hpp"
#include "app/nbody/engine.hpp"
#include "app/nbody/format.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {
constexpr int kTimedSteps = 3;  // after one untimed step that builds and warms the kernel

// A new file in the working directory, never one that exists: "clviz-compare-<time>[-k].csv".
std::filesystem::path freshExportPath(const std::string& extension) {
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::filesystem::path dir = std::filesystem::current_path();
    std::filesystem::path path = dir / ("clviz-compare-" + std::string(stamp) + "." + extension);
    for (int k = 2; std::filesystem::exists(path); ++k)
        path = dir /
               ("clviz-compare-" + std::string(stamp) + "-" + std::to_string(k) + "." + extension);
    return std::filesystem::absolute(path);
}
}  // namespace

void NbodyDemo::startComparison() {
    if (!sim_ || !system_) throw Error("no simulation is running");
    if (system_->deviceCount() != 1 || mpi_)
        throw Error("compare runs on one device (the bodies are split now)");
    compareQueue_ = allNbodyVariants();
    compareQueue_.push_back(NbodyVariant::Pairs);
    compareQueue_.push_back(NbodyVariant::Tree);
    compareNext_ = 0;
    comparison_.clear();
    compareSaved_ = sim_->kernelConfig();
    compareBodies_ = system_->readBodies();
    deferredSteps_ = 0;
}

void NbodyDemo::compareNextVariant() {
    const NbodyVariant v = compareQueue_[compareNext_++];
    VariantRun r;
    r.variant = variantName(v);
    try {
        NbodyKernelConfig c;
        c.variant = v;
        sim_->setKernelConfig(c);
        sim_->step(1);
        sim_->step(kTimedSteps);
        const NbodyStepTimings t = sim_->lastStepTimings();
        r.stepMs = t.steps > 0 ? t.kernelMs / t.steps : 0;
        r.interactionsPerSecond = t.interactionsPerSecond();
        r.gflops = t.gflops();
        r.fp64 = t.fp64;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    comparison_.push_back(r);
    if (comparing()) return;
    // Done: the variant and the scene as they were before the comparison.
    try {
        sim_->setKernelConfig(compareSaved_);
        system_->load(compareBodies_);
    } catch (const std::exception& e) {
        app_.error(std::string("after comparing variants: ") + e.what());
    }
    compareBodies_.clear();
    needsPublish_ = true;
    app_.notice("compared " + std::to_string(comparison_.size()) +
                " variants at N = " + std::to_string(n_));
}

std::string NbodyDemo::comparisonText(const std::string& format) const {
    std::ostringstream out;
    out.precision(9);
    if (format == "csv") {
        out << "variant,n,step_ms,interactions_per_s,gflops,precision,error\n";
        for (const VariantRun& r : comparison_) {
            std::string error = r.error;
            std::replace(error.begin(), error.end(), '"', '\'');
            out << r.variant << "," << n_ << ",";
            if (r.error.empty())
                out << r.stepMs << "," << r.interactionsPerSecond << "," << r.gflops << ",";
            else
                out << ",,,";
            out << (r.fp64 ? "fp64" : "fp32") << ",\"" << error << "\"\n";
        }
        return out.str();
    }
    out << "{\n  \"n\": " << n_ << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < comparison_.size(); ++i) {
        const VariantRun& r = comparison_[i];
        std::string error;
        for (char ch : r.error)
            error += ch == '"' || ch == '\\'                 ? std::string("\\") + ch
                     : static_cast<unsigned char>(ch) < 0x20 ? std::string(" ")
                                                             : std::string(1, ch);
        out << "    {\"variant\": \"" << r.variant << "\", ";
        if (r.error.empty())
            out << "\"step_ms\": " << r.stepMs
                << ", \"interactions_per_s\": " << r.interactionsPerSecond
                << ", \"gflops\": " << r.gflops << ", ";
        out << "\"precision\": \"" << (r.fp64 ? "fp64" : "fp32") << "\", \"error\": \"" << error
            << "\"}" << (i + 1 < comparison_.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
    return out.str();
}

void NbodyDemo::comparePanel() {
    if (comparing()) ImGui::SetNextItemOpen(true);  // its progress line shows
    if (!ImGui::CollapsingHeader("Compare variants")) return;
    if (comparing()) {
        ImGui::Text("comparing: %s, %zu of %zu", variantName(compareQueue_[compareNext_]),
                    compareNext_ + 1, compareQueue_.size());
    } else if (ImGui::Button("Compare variants")) {
        app_.attempt([&] { startComparison(); });
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Times every force variant at N = %zu (one step to build, %d timed), "
            "one per frame; the scene and variant come back after",
            n_, kTimedSteps);
    if (comparison_.empty()) return;
    double slowest = 0;
    for (const VariantRun& r : comparison_)
        slowest = std::max(slowest, r.stepMs);
    const float barWidth = ImGui::GetFontSize() * 12;
    for (const VariantRun& r : comparison_) {
        ImGui::TextUnformatted(r.variant.c_str());
        ImGui::SameLine(ImGui::GetFontSize() * 6);
        if (!r.error.empty()) {
            ImGui::TextDisabled("did not run");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.error.c_str());
            continue;
        }
        ImGui::ProgressBar(slowest > 0 ? float(r.stepMs / slowest) : 0, ImVec2(barWidth, 0),
                           formatMs(r.stepMs).c_str());
        ImGui::SameLine();
        ImGui::Text("%s interactions/s, %.1f GFLOP/s %s",
                    formatCount(r.interactionsPerSecond).c_str(), r.gflops,
                    r.fp64 ? "fp64" : "fp32");
    }
    if (comparing()) return;
    for (const char* format : {"csv", "json"}) {
        const std::string label = std::string("Export ") + (format[0] == 'c' ? "CSV" : "JSON");
        if (format[0] == 'j') ImGui::SameLine();
        if (!ImGui::Button(label.c_str())) continue;
        const std::filesystem::path path = freshExportPath(format);
        std::ofstream out(path);
        out << comparisonText(format);
        if (out)
            app_.notice("wrote " + quotedPath(path.string()));
        else
            app_.error("cannot write " + quotedPath(path.string()));
    }
}

}  // namespace clviz
