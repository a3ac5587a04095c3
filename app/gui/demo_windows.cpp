#include "app/gui/demo_windows.hpp"

#include <imgui_internal.h>  // the window list and each window's state

namespace clviz {

namespace {
std::set<std::string> activeWindows() {
    std::set<std::string> out;
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (const ImGuiWindow* w : g.Windows)
        if (w->LastFrameActive == g.FrameCount && !(w->Flags & ImGuiWindowFlags_ChildWindow))
            out.insert(w->Name);
    return out;
}
}  // namespace

void DemoWindows::beginDemoGui() {
    activeBefore_ = activeWindows();
}

void DemoWindows::endDemoGui(int demo) {
    for (const std::string& name : activeWindows())
        if (!activeBefore_.count(name)) names_[demo].insert(name);
}

void DemoWindows::switchDemo(int from, int to) {
    if (from == to) return;
    std::set<std::string> touched;
    if (from >= 0)
        for (const std::string& name : names_[from]) {
            ImGuiWindow* w = ImGui::FindWindowByName(name.c_str());
            if (!w) continue;
            saved_[from][name] = {w->Pos, w->SizeFull, w->Collapsed};
            touched.insert(name);
        }
    for (const std::string& name : touched) {
        ImGuiWindow* w = ImGui::FindWindowByName(name.c_str());
        const auto& mine = saved_[to];
        if (const auto it = mine.find(name); it != mine.end()) {
            w->Pos = it->second.pos;
            w->Size = w->SizeFull = it->second.size;
            w->Collapsed = it->second.collapsed;
        } else {
            // Not one of the arriving demo's yet: as if new, so its first-use place, size and
            // collapsed state apply.
            w->Collapsed = false;
            w->SetWindowPosAllowFlags = w->SetWindowSizeAllowFlags =
                w->SetWindowCollapsedAllowFlags = ImGuiCond_Always | ImGuiCond_Once |
                                                  ImGuiCond_FirstUseEver | ImGuiCond_Appearing;
        }
    }
}

}  // namespace clviz
