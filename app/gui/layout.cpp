#include "app/gui/layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the window list: ImGui has no public API for it

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

struct NotedItem {
    std::string name;
    ImVec2 min, max;
    const ImGuiContext* context = nullptr;  // the frame it was drawn in: the layout lists the
    int frame = 0;                          // last frame's items only
    bool current() const {
        return context == ImGui::GetCurrentContext() && frame == ImGui::GetFrameCount();
    }
};
std::vector<NotedItem> notedItems;

// A destroyed context's items go with it (a new context may get its address).
void forgetItemsOf(ImGuiContext* context, ImGuiContextHook*) {
    std::erase_if(notedItems, [&](const NotedItem& i) { return i.context == context; });
}

}  // namespace

void noteGuiItem(const std::string& name) {
    ImGuiContext* context = ImGui::GetCurrentContext();
    if (std::none_of(context->Hooks.begin(), context->Hooks.end(),
                     [](const ImGuiContextHook& h) { return h.Callback == forgetItemsOf; })) {
        ImGuiContextHook hook;
        hook.Type = ImGuiContextHookType_Shutdown;
        hook.Callback = forgetItemsOf;
        ImGui::AddContextHook(context, &hook);
    }
    std::erase_if(notedItems, [&](const NotedItem& i) { return !i.current() || i.name == name; });
    notedItems.push_back(
        {name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), context, ImGui::GetFrameCount()});
}

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
    auto line = [&](const std::string& name, ImVec2 pos, ImVec2 size, const char* state) {
        out << name << '\t' << std::lround(pos.x * scale.x) << '\t' << std::lround(pos.y * scale.y)
            << '\t' << std::lround(size.x * scale.x) << '\t' << std::lround(size.y * scale.y)
            << '\t' << state << '\n';
    };
    for (const GuiWindowRect& w : drawnGuiWindows())
        line(w.name, ImVec2(w.x, w.y), ImVec2(w.width, w.height),
             w.collapsed ? "collapsed" : "open");
    for (const NotedItem& i : notedItems)
        if (i.current()) line(i.name, i.min, ImVec2(i.max.x - i.min.x, i.max.y - i.min.y), "item");
    return out.str();
}

void writeGuiLayout(const std::string& path) {
    errno = 0;
    std::ofstream f(path);
    f << guiLayoutText();
    if (!f.flush())
        throw Error("cannot write the GUI layout to " + quotedPath(path) +
                    (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

}  // namespace clviz
