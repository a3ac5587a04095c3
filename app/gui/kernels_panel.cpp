#include "app/gui/kernels_panel.hpp"

#include "app/gui/panel_stacks.hpp"

#include <imgui.h>

#include <cctype>
#include <sstream>

#include "compute/core/kernel_source.hpp"

namespace clviz {

namespace {

const ImVec4 kErrorColour(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarningColour(1.0f, 0.8f, 0.3f, 1.0f);
const ImVec4 kOkColour(0.5f, 0.9f, 0.5f, 1.0f);

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// Line `n` (1-based) of kernels/<file> as the running directory has it, or "". Log positions
// are in the file itself (headers are spliced in behind #line directives), so read it unexpanded.
std::string sourceLine(const std::string& file, int n) {
    std::string source;
    try {
        source = kernelFile(file);
    } catch (const std::exception&) {
        return "";
    }
    const auto all = lines(source);
    return n >= 1 && n <= static_cast<int>(all.size()) ? all[n - 1] : "";
}

void drawLog(const std::string& log, const std::string& file) {
    for (const std::string& line : lines(log)) {
        const LogMark mark = parseLogLine(line);
        if (mark.line == 0) {
            ImGui::TextUnformatted(line.c_str());
            continue;
        }
        ImGui::PushStyleColor(ImGuiCol_Text, mark.error ? kErrorColour : kWarningColour);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopStyleColor();
        const std::string& named = mark.file.empty() ? file : mark.file;  // a header, say
        if (!named.empty())
            if (const std::string code = sourceLine(named, mark.line); !code.empty()) {
                const std::string prefix = "  " + named + ":" + std::to_string(mark.line) + " | ";
                ImGui::TextDisabled("%s%s", prefix.c_str(), code.c_str());
                // A caret under the column the compiler names (measured in the panel's font).
                if (mark.column >= 1 && std::size_t(mark.column) <= code.size() + 1) {
                    const std::string before =
                        prefix + code.substr(0, std::size_t(mark.column) - 1);
                    ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                                         ImGui::CalcTextSize(before.c_str()).x);
                    ImGui::TextColored(mark.error ? kErrorColour : kWarningColour, "^");
                }
            }
    }
}

}  // namespace

// Compilers put the position in different places: clang and PoCL "error: FILE:6:30: ...",
// NVIDIA "<kernel>:6:30: error: ...". Takes the first ":LINE:COL:" (or ":LINE:") in the line.
LogMark parseLogLine(const std::string& line) {
    const bool error = line.find("error") != std::string::npos;
    if (!error && line.find("warning") == std::string::npos) return {};
    auto digitsAt = [&](std::size_t i) {
        std::size_t e = i;
        while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e])))
            ++e;
        return e;
    };
    for (std::size_t i = line.find(':'); i != std::string::npos; i = line.find(':', i + 1)) {
        const std::size_t end = digitsAt(i + 1);
        if (end == i + 1 || end >= line.size() || line[end] != ':') continue;
        LogMark mark;
        mark.line = std::stoi(line.substr(i + 1, end - i - 1));
        mark.error = error;
        // The file is the word before the position, when it is one of kernels/.
        const std::size_t word = line.find_last_of(" \t", i);
        const std::string path = line.substr(word == std::string::npos ? 0 : word + 1,
                                             i - (word == std::string::npos ? 0 : word + 1));
        if (path.rfind("kernels/", 0) == 0) mark.file = path.substr(8);
        if (const std::size_t colEnd = digitsAt(end + 1);
            colEnd > end + 1 && colEnd < line.size() && line[colEnd] == ':')
            mark.column = std::stoi(line.substr(end + 1, colEnd - end - 1));
        return mark.line > 0 ? mark : LogMark{};
    }
    return {};
}

KernelsPanelActions drawKernelsPanel(bool* open, const KernelsPanelModel& m) {
    KernelsPanelActions a;
    if (m.stacks)
        m.stacks->place("Kernels", PanelSide::Left, ImGui::GetFontSize() * 32);
    else
        ImGui::SetNextWindowSize(ImVec2(640, 420), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Kernels", open)) {
        ImGui::End();
        return a;
    }
    ImGui::Text("Kernel sources: %s", m.kernelDir.empty() ? "embedded" : m.kernelDir.c_str());
    if (!m.kernelWatch.empty())
        ImGui::TextDisabled("watched (%s)%s", m.kernelWatch.c_str(),
                            m.building ? "; rebuilding in the background..." : "");
    ImGui::Text("Shaders: %s", m.shaderDir.empty() ? "embedded" : m.shaderDir.c_str());
    ImGui::TextDisabled("Binary cache: %s",
                        m.binaryCacheDir.empty() ? "off" : m.binaryCacheDir.c_str());

    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    const float height = ImGui::GetTextLineHeightWithSpacing() * 8;
    if (ImGui::BeginTable("##programs", 5, flags, ImVec2(0, height))) {
        ImGui::TableSetupColumn("file");
        ImGui::TableSetupColumn("status");
        ImGui::TableSetupColumn("build ms");
        ImGui::TableSetupColumn("from");
        ImGui::TableSetupColumn("options", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableHeadersRow();
        for (const auto& p : m.programs) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(p.file.c_str());
            ImGui::TableSetColumnIndex(1);
            if (!p.failure.empty())
                ImGui::TextColored(kErrorColour, "edit failed: old build runs");
            else if (p.reloads > 0)
                ImGui::TextColored(kOkColour, "reloaded x%d", p.reloads);
            else
                ImGui::TextUnformatted("built");
            if (!p.log.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.log.c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::Text("%.0f", p.buildMs);
            ImGui::TableSetColumnIndex(3);
            ImGui::TextUnformatted(p.origin == ProgramOrigin::BinaryCache ? "cache" : "source");
            ImGui::TableSetColumnIndex(4);
            ImGui::TextUnformatted(p.options.empty() ? "(none)" : p.options.c_str());
        }
        ImGui::EndTable();
    }

    ImGui::BeginDisabled(!m.demoHasCheck);
    if (ImGui::Button("Check against the CPU reference")) a.runCheck = true;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("A small sample of the current state against the CPU reference");
    if (!m.check.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(m.checkOk ? kOkColour : kErrorColour, "%s", m.check.c_str());
        ImGui::PopTextWrapPos();
    }

    for (const auto* failure : {&m.failure, &m.shaderFailure}) {
        if (failure->empty()) continue;
        ImGui::Separator();
        ImGui::TextColored(kErrorColour, "%s",
                           failure == &m.failure ? "Last kernel build failed (old build runs):"
                                                 : "Shaders failed to build (old ones run):");
        // Tall enough for the error line and its source (a 0 height gave 2.5 lines in a panel
        // that fits its content).
        const float logLines = std::min<float>(14, float(lines(*failure).size()) * 2 + 1);
        ImGui::BeginChild(failure == &m.failure ? "##klog" : "##slog",
                          ImVec2(ImGui::GetFontSize() * 36,
                                 ImGui::GetTextLineHeightWithSpacing() * std::max(logLines, 4.0f)),
                          true, ImGuiWindowFlags_HorizontalScrollbar);
        drawLog(*failure, failure == &m.failure ? m.failureFile : "");
        ImGui::EndChild();
    }
    ImGui::End();
    return a;
}

}  // namespace clviz
