#include "app/gui/layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the window list: ImGui has no public API for it

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace clviz {

std::vector<GuiWindowRect> drawnGuiWindows() {
    std::vector<GuiWindowRect> drawn;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || w->Hidden) continue;
        if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip)) continue;
        drawn.push_back({w->Name, w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, w->Collapsed,
                         (w->Flags & ImGuiWindowFlags_Popup) != 0});
    }
    return drawn;
}

std::string guiLayoutText() {
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    std::ostringstream out;
    for (const GuiWindowRect& w : drawnGuiWindows())
        out << w.name << '\t' << std::lround(w.x * scale.x) << '\t' << std::lround(w.y * scale.y)
            << '\t' << std::lround(w.width * scale.x) << '\t' << std::lround(w.height * scale.y)
            << '\t' << (w.collapsed ? "collapsed" : "open") << '\n';
    return out.str();
}

void writeGuiLayout(const std::string& path) {
    std::ofstream f(path);
    f << guiLayoutText();
    if (!f.flush()) throw Error("cannot write the GUI layout to '" + path + "'");
}

}  // namespace clviz
