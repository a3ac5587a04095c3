#include "app/gui/panel_stacks.hpp"

#include <imgui_internal.h>  // FindWindowByName: where a panel is now, and how tall

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace clviz {

namespace {
float margin() {
    return ImGui::GetFontSize() * 0.75f;
}

bool differ(ImVec2 a, ImVec2 b) {
    return std::abs(a.x - b.x) > 0.5f || std::abs(a.y - b.y) > 0.5f;  // ImGui rounds positions
}

// Not where it was put: dragged (or resized from a left or top edge).
bool movedByUser(const ImGuiWindow& w, ImVec2 placedAt) {
    return differ(w.Pos, placedAt);
}

// Resized with a grip since the last frame. Panels that fit their content resize themselves, so
// only a change while the user holds something in the window counts.
bool resizedByUser(const ImGuiWindow& w, ImVec2 lastSize) {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    return !(w.Flags & ImGuiWindowFlags_AlwaysAutoResize) && g.ActiveId != 0 &&
           g.ActiveIdWindow == &w && differ(w.SizeFull, lastSize);
}
}  // namespace

float statusStripHeight() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImGui::GetTextLineHeight() + 2 * style.WindowPadding.y + 2 * margin();
}

void PanelStacks::beginFrame() {
    ++frame_;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    top_[0] = top_[1] = vp->WorkPos.y + margin();
    // The overlay sits in the top-right corner; the right column starts below it.
    if (const ImGuiWindow* overlay = ImGui::FindWindowByName("##overlay");
        overlay && overlay->Active)
        top_[1] = std::max(top_[1], overlay->Pos.y + overlay->Size.y + margin());
    bottom_ = vp->WorkPos.y + vp->WorkSize.y - statusStripHeight();
}

void PanelStacks::place(const char* name, PanelSide side, float width, float collapseBelowHeight) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float m = margin();
    Placed& p = placed_[name];
    const ImGuiWindow* window = ImGui::FindWindowByName(name);
    const bool wasOpen = p.frame == frame_ - 1;
    if (!wasOpen) {
        p.movedByUser = false;  // (re)opened: back in its column
        p.framesOpen = 0;
    } else if (window && (movedByUser(*window, p.pos) || resizedByUser(*window, p.size))) {
        p.movedByUser = true;
    }
    p.frame = frame_;
    if (collapseBelowHeight > 0 && vp->WorkSize.y < collapseBelowHeight)
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
    // Height 0 fits the content, which ImGui does on a window's first frames only. A demo's first
    // panels come before its first step (the frame runs in Dear ImGui's order), when there is
    // nothing to plot yet: keep fitting a little longer, so that a panel opens as tall as its
    // content once there is some, not as a scrolling sliver. (AlwaysAutoResize panels fit anyway.)
    if (window && p.framesOpen < kFitFrames && !p.movedByUser && !window->Collapsed &&
        !(window->Flags & ImGuiWindowFlags_AlwaysAutoResize))
        ImGui::SetNextWindowSize(ImVec2(window->SizeFull.x, 0), ImGuiCond_Always);
    else
        ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_FirstUseEver);
    ++p.framesOpen;
    if (p.movedByUser) return;

    // A column with too little room left hands the panel to the other one; where both are that
    // full, it goes to the roomier one, as short as it must (it scrolls; the user may move it).
    const float enough = ImGui::GetFrameHeight() * 4, titleBar = ImGui::GetFrameHeight();
    int column = side == PanelSide::Left ? 0 : 1;
    const float roomHere = bottom_ - top_[column], roomThere = bottom_ - top_[1 - column];
    if (roomHere < enough && (roomThere >= enough || roomThere > roomHere)) column = 1 - column;
    float& top = top_[column];
    const float w = window ? window->SizeFull.x : width;  // panels may fit their content
    const float x = column == 0 ? vp->WorkPos.x + m : vp->WorkPos.x + vp->WorkSize.x - m - w;
    p.pos = ImFloor(ImVec2(x, std::max(vp->WorkPos.y, std::min(top, bottom_ - titleBar))));
    ImGui::SetNextWindowPos(p.pos, ImGuiCond_Always);
    const float room = std::max(bottom_ - p.pos.y, titleBar);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(FLT_MAX, room));
    // Its height from the last frame (a new panel measures itself in its first, hidden frame).
    const float height =
        window ? std::min(window->Collapsed ? window->TitleBarHeight() : window->Size.y, room) : 0;
    top = p.pos.y + height + m;
    if (window) p.size = window->SizeFull;
}

}  // namespace clviz
