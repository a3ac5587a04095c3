#include "app/gui_layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the window list: ImGui has no public API for it

#include <cmath>
#include <fstream>
#include <sstream>

#include "compute/error.hpp"

namespace clviz {

std::string guiLayoutText() {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImVec2 scale = g.IO.DisplayFramebufferScale;
    std::ostringstream out;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden) continue;
        if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip)) continue;
        out << w->Name << '\t' << std::lround(w->Pos.x * scale.x) << '\t'
            << std::lround(w->Pos.y * scale.y) << '\t' << std::lround(w->Size.x * scale.x) << '\t'
            << std::lround(w->Size.y * scale.y) << '\t' << (w->Collapsed ? "collapsed" : "open")
            << '\n';
    }
    return out.str();
}

void writeGuiLayout(const std::string& path) {
    std::ofstream f(path);
    f << guiLayoutText();
    if (!f.flush()) throw Error("cannot write the GUI layout to '" + path + "'");
}

}  // namespace clviz
