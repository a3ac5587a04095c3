#include "app/gui/device_panel.hpp"

namespace clviz {

namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(0.95f, 0.5f, 0.45f, 1.0f);
const ImVec4 kChosen(0.45f, 0.8f, 1.0f, 1.0f);

void row(const char* label, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", label);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(value.c_str());
}

void extensionFlag(const DeviceInfo& d, const char* ext) {
    const bool has = d.hasExtension(ext);
    ImGui::TextColored(has ? kGood : kBad, "%s %s", has ? "[yes]" : "[no] ", ext);
}

}  // namespace

bool isInteropExtension(const std::string& name) {
    return name == "cl_khr_gl_sharing" || name == "cl_khr_gl_event" ||
           name.rfind("cl_khr_external_memory", 0) == 0;
}

// The active demo's device set (the N-body's --devices): a checkbox per device, the drawing
// device always on; applying asks the demo's setting for the new set.
void DevicePanel::deviceSetChooser(const DevicePanelModel& m) {
    const std::vector<std::pair<int, int>>& now = m.deviceSet->devices;
    if (shown_ != now) {
        shown_ = now;
        checked_ = std::set<std::pair<int, int>>(now.begin(), now.end());
    }
    ImGui::Separator();
    if (!ImGui::TreeNode(m.deviceSet->title.c_str())) return;
    const auto& platforms = *m.platforms;
    for (std::size_t p = 0; p < platforms.size(); ++p)
        for (std::size_t d = 0; d < platforms[p].devices.size(); ++d) {
            const std::pair<int, int> id{static_cast<int>(p), static_cast<int>(d)};
            const bool drawing = id == std::pair{m.choice.platform, m.choice.device};
            bool on = drawing || checked_.count(id) > 0;
            const std::string label = std::to_string(p) + "." + std::to_string(d) + " " +
                                      platforms[p].devices[d].name + (drawing ? " (draws)" : "");
            ImGui::BeginDisabled(drawing);
            if (ImGui::Checkbox(label.c_str(), &on)) {
                if (on)
                    checked_.insert(id);
                else
                    checked_.erase(id);
            }
            ImGui::EndDisabled();
        }
    const auto id = [](int p, int d) { return std::to_string(p) + '.' + std::to_string(d); };
    std::string spec = id(m.choice.platform, m.choice.device);
    for (const auto& [p, d] : checked_)
        if (std::pair{p, d} != std::pair{m.choice.platform, m.choice.device}) {
            spec += ',';
            spec += id(p, d);
        }
    if (ImGui::Button("Run on these")) request_ = spec;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Sets %s=%s (restarts the demo on that set)",
                          m.deviceSet->settingKey.c_str(), spec.c_str());
    ImGui::TreePop();
}

void DevicePanel::draw(bool* open, const DevicePanelModel& m) {
    const float em = ImGui::GetFontSize();
    ImGui::SetNextWindowSize(ImVec2(em * 36, em * 34), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowPos(ImVec2(em * 2, em * 4), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("OpenCL devices", open)) {
        ImGui::End();
        return;
    }
    const auto& platforms = *m.platforms;
    const DeviceInfo* chosen = nullptr;
    if (m.choice.platform >= 0 && m.choice.platform < static_cast<int>(platforms.size()) &&
        m.choice.device >= 0 &&
        m.choice.device < static_cast<int>(platforms[m.choice.platform].devices.size()))
        chosen = &platforms[m.choice.platform].devices[m.choice.device];

    if (chosen) {
        ImGui::TextColored(kChosen, "Using device %d.%d: %s", m.choice.platform, m.choice.device,
                           chosen->name.c_str());
        ImGui::TextWrapped("Why: %s", m.choice.reason.c_str());
    }
    ImGui::TextWrapped("GL device query: %s", m.glDeviceDetail.c_str());
    ImGui::TextColored(m.clContextSharesGl ? kGood : kBad, "CL context shares GL: %s",
                       m.clContextSharesGl ? "yes" : "no");
    if (!m.clContextSharesGlReason.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", m.clContextSharesGlReason.c_str());
    }
    ImGui::TextWrapped("%s", m.gl.c_str());
    if (m.deviceSet) deviceSetChooser(m);
    ImGui::Separator();
    filter_.Draw("Filter extensions", em * 14);
    ImGui::Separator();

    ImGui::BeginChild("##platforms");
    for (std::size_t p = 0; p < platforms.size(); ++p) {
        const PlatformInfo& pl = platforms[p];
        ImGui::PushID(static_cast<int>(p));
        const std::string header = "Platform " + std::to_string(p) + ": " + pl.name + " (" +
                                   pl.version + ")" + (pl.devices.empty() ? " - no devices" : "");
        if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::TextDisabled("vendor %s", pl.vendor.c_str());
            for (std::size_t d = 0; d < pl.devices.size(); ++d) {
                const DeviceInfo& dev = pl.devices[d];
                ImGui::PushID(static_cast<int>(d));
                const bool isChosen = &dev == chosen;
                const std::string label = "Device " + std::to_string(p) + "." + std::to_string(d) +
                                          ": " + dev.name + " [" + deviceKindName(dev.kind) + "]" +
                                          (isChosen ? "  <- in use" : "");
                if (isChosen) ImGui::PushStyleColor(ImGuiCol_Text, kChosen);
                const bool expanded =
                    ImGui::TreeNodeEx(label.c_str(), isChosen ? ImGuiTreeNodeFlags_DefaultOpen : 0);
                if (isChosen) ImGui::PopStyleColor();
                if (expanded) {
                    if (ImGui::BeginTable("##limits", 2,
                                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
                        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, em * 9);
                        row("type", deviceKindName(dev.kind));
                        row("vendor", dev.vendor);
                        row("version", dev.version);
                        row("driver", dev.driverVersion);
                        row("OpenCL C", dev.openclCVersion);
                        row("compute units", std::to_string(dev.computeUnits));
                        row("clock", std::to_string(dev.clockMHz) + " MHz");
                        row("global memory", formatBytes(dev.globalMemBytes));
                        row("local memory", formatBytes(dev.localMemBytes));
                        row("max allocation", formatBytes(dev.maxAllocBytes));
                        row("max work-group", std::to_string(dev.maxWorkGroupSize));
                        row("images", dev.imageSupport
                                          ? "yes, 2D up to " + std::to_string(dev.image2dMaxWidth) +
                                                " x " + std::to_string(dev.image2dMaxHeight)
                                          : std::string("no"));
                        ImGui::EndTable();
                    }
                    extensionFlag(dev, "cl_khr_gl_sharing");
                    extensionFlag(dev, "cl_khr_gl_event");
                    extensionFlag(dev, "cl_khr_external_memory");
                    const std::string extLabel =
                        "Extensions (" + std::to_string(dev.extensions.size()) + ")";
                    // Typing a filter opens every list so matches show at once.
                    if (filter_.IsActive()) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
                    if (ImGui::TreeNode(extLabel.c_str())) {
                        int shown = 0;
                        for (const auto& ext : dev.extensions) {
                            if (!filter_.PassFilter(ext.c_str())) continue;
                            ++shown;
                            if (isInteropExtension(ext))
                                ImGui::TextColored(kGood, "%s  (GL interop)", ext.c_str());
                            else
                                ImGui::TextUnformatted(ext.c_str());
                        }
                        if (shown == 0) ImGui::TextDisabled("no extension matches the filter");
                        ImGui::TreePop();
                    }
                    ImGui::TreePop();
                }
                ImGui::PopID();
            }
        }
        ImGui::PopID();
    }
    if (platforms.empty()) ImGui::TextColored(kBad, "No OpenCL platform found.");
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace clviz
