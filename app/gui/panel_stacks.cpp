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

PanelStacks::Shared& PanelStacks::shared() {
    static Shared s;  // ImGui runs on one thread, one frame at a time
    return s;
}

void PanelStacks::take(const ImRect& r) {
    taken_.push_back(r);
    shared().taken.push_back(r);
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
    taken_.clear();
    last_ = std::move(current_);
    current_.clear();
    if (const ImGuiWindow* overlay = ImGui::FindWindowByName("##overlay");
        overlay && overlay->Active)
        taken_.push_back(overlay->Rect());
    // What the stacks before this one took this frame (the app's windows, for a demo's panels).
    Shared& s = shared();
    if (s.frame != ImGui::GetFrameCount()) {
        s.frame = ImGui::GetFrameCount();
        s.taken.clear();
    }
    taken_.insert(taken_.end(), s.taken.begin(), s.taken.end());
}

bool PanelStacks::findSpot(int column, float& w, float h, ImVec2& pos, float& room) const {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float m = margin(), titleBar = ImGui::GetFrameHeight();
    float x = column == 0 ? vp->WorkPos.x + m
                          : std::max(vp->WorkPos.x + m, vp->WorkPos.x + vp->WorkSize.x - m - w);
    // The column's top, then below whatever overlaps [x, x + w] there, until the panel (or as much
    // of it as asks for a scroll rather than a title bar alone) fits above the next obstacle.
    float y = top_[column];
    const float need = std::min(h, ImGui::GetFrameHeight() * 4);
    // A panel a little too wide to pass beside something at its column's top (the overlay, at
    // 200%) is narrowed to pass rather than pushed below it: its right end is cut, not all of it.
    for (const ImRect& r : taken_) {
        const bool acrossY = y < r.Max.y + m && r.Min.y < y + std::max(need, titleBar);
        if (!acrossY) continue;
        if (column == 0 && r.Min.x - m > x + 0.85f * w && r.Min.x - m < x + w) w = r.Min.x - m - x;
        if (column == 1 && r.Max.x + m < x + 0.15f * w && r.Max.x + m > x) {
            w -= r.Max.x + m - x;
            x = r.Max.x + m;
        }
    }
    for (bool moved = true; moved;) {
        moved = false;
        for (const ImRect& r : taken_) {
            const bool acrossX = x < r.Max.x + m && r.Min.x < x + w + m;
            const bool acrossY = y < r.Max.y + m && r.Min.y < y + std::max(need, titleBar);
            if (acrossX && acrossY) {
                y = r.Max.y + m;
                moved = true;
            }
        }
    }
    float limit = bottom_;
    for (const ImRect& r : taken_)
        if (x < r.Max.x + m && r.Min.x < x + w + m && r.Min.y >= y)
            limit = std::min(limit, r.Min.y - m);
    pos = ImFloor(ImVec2(x, y));
    room = limit - pos.y;
    // An open window is never shorter than ImGui's minimum size: less room than that, and it
    // would cover what lies below.
    return room >= std::max(titleBar, ImGui::GetStyle().WindowMinSize.y);
}

bool PanelStacks::findShelf(float& w, ImVec2& pos) const {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float m = margin(), titleBar = ImGui::GetFrameHeight(), em = ImGui::GetFontSize();
    const float left = vp->WorkPos.x + m, right = vp->WorkPos.x + vp->WorkSize.x - m;
    for (float y = bottom_ - titleBar; y >= vp->WorkPos.y + m; y -= titleBar + m) {
        // Left to right past whatever is in the way; the slot narrows to what is left of the row,
        // down to 6 em (a short title and its arrow).
        for (float x = left;;) {
            const float width = std::min({w, em * 16, right - x});
            if (width < std::min(w, em * 6)) break;
            const ImRect slot(ImVec2(x, y), ImVec2(x + width, y + titleBar));
            float past = x;
            for (const ImRect& r : taken_)
                if (slot.Min.x < r.Max.x + m && r.Min.x < slot.Max.x + m &&
                    slot.Min.y < r.Max.y + m && r.Min.y < slot.Max.y + m)
                    past = std::max(past, r.Max.x + m);
            if (past == x) {
                pos = ImFloor(slot.Min);
                w = width;
                return true;
            }
            x = past;
        }
    }
    return false;
}

void PanelStacks::place(const char* name, PanelSide side, float width, float collapseBelowHeight) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float m = margin();
    Placed& p = placed_[name];
    const ImGuiWindow* window = ImGui::FindWindowByName(name);
    const bool wasOpen = p.frame == frame_ - 1;
    if (!wasOpen) {
        p.movedByUser = false;  // (re)opened: back in its column
        p.collapsedForRoom = false;
        p.framesOpen = 0;
    } else if (window && (movedByUser(*window, p.pos) || resizedByUser(*window, p.size))) {
        p.movedByUser = true;
    }
    p.frame = frame_;
    if (collapseBelowHeight > 0 && vp->WorkSize.y < collapseBelowHeight) {
        if (!window) p.collapsedForHeight = true;  // its first use: ImGui collapses it below
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
    } else if (p.collapsedForHeight && window && window->Collapsed) {
        // Collapsed because the window was short; it is tall enough now (issue 27: Timings
        // stayed collapsed after the window was made larger).
        ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
        p.collapsedForHeight = false;
    }
    if (window && !window->Collapsed) p.collapsedForHeight = false;  // opened: the user's now
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
    // Never wider than the window (a panel that fits its content could grow past its edge).
    const float maxWidth = std::max(vp->WorkSize.x - 2 * m, 1.0f);
    if (p.movedByUser) {
        if (window) take(window->Rect());  // others keep clear of where the user put it
        ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(maxWidth, FLT_MAX));
        return;
    }

    const float titleBar = ImGui::GetFrameHeight();
    // Its natural width: what its content asks for, even where it was narrowed last frame.
    const float natural =
        !window ? width
        : window->Flags & ImGuiWindowFlags_AlwaysAutoResize
            ? std::max(window->SizeFull.x,
                       window->ContentSize.x + 2 * ImGui::GetStyle().WindowPadding.x)
            : window->SizeFull.x;
    const float w = std::min(natural, maxWidth);
    // Its height from the last frame (a new panel measures itself in its first, hidden frame).
    const float wanted =
        window ? (window->Collapsed ? window->TitleBarHeight() : window->SizeFull.y) : titleBar;
    // Its own column first; the other where its own has less room than the panel wants.
    const int own = side == PanelSide::Left ? 0 : 1;
    ImVec2 pos[2];
    float room[2] = {0, 0}, widths[2] = {w, w};
    bool fits[2];
    for (int c : {own, 1 - own})
        fits[c] = findSpot(c, widths[c], wanted, pos[c], room[c]);
    int column = own;
    if (!fits[own] ||
        (room[own] < std::min(wanted, ImGui::GetFrameHeight() * 4) && room[1 - own] > room[own]))
        column = fits[1 - own] || room[1 - own] > room[own] ? 1 - own : own;
    if (!fits[column]) {
        // No room anywhere: collapsed once, at the bottom of the column (the user may open it
        // again, over the others: their choice).
        if (!p.collapsedForRoom && window && !window->Collapsed)
            ImGui::SetNextWindowCollapsed(true, ImGuiCond_Always);
        p.collapsedForRoom = true;
        // In the first free title-bar slot, rows from the bottom up (narrowed to fit one): panels
        // collapsed for room all went to one spot and covered each other.
        if (!findShelf(widths[column], pos[column]))
            pos[column].y = std::max(vp->WorkPos.y, bottom_ - titleBar);
        room[column] = titleBar;
    }
    // Room for the title bars of the panels that came after this one last frame in its x range.
    const float x0 = pos[column].x, x1 = pos[column].x + widths[column];
    bool after = false;
    for (const auto& [other, r] : last_) {
        if (after && x0 < r.Max.x && r.Min.x < x1 && r.Min.y >= pos[column].y)
            room[column] -= titleBar + m;
        after = after || other == name;
    }
    p.pos = pos[column];
    ImGui::SetNextWindowPos(p.pos, ImGuiCond_Always);
    const float cap = std::max(room[column], titleBar);
    ImGui::SetNextWindowSizeConstraints(
        ImVec2(0, 0), ImVec2(widths[column] < w || !fits[column] ? widths[column] : maxWidth, cap));
    const float height = std::min(wanted, cap);
    top_[column] = p.pos.y + height + m;
    take(ImRect(p.pos, ImVec2(p.pos.x + widths[column], p.pos.y + height)));
    current_.push_back({name, taken_.back()});
    if (window) p.size = window->SizeFull;
}

void PanelStacks::placeDrawn(const char* name, PanelSide side, float width) {
    ImGuiWindow* window = ImGui::FindWindowByName(name);
    if (!window || !window->Active) return;  // closed this frame
    ImGuiContext& g = *ImGui::GetCurrentContext();
    // place() says where through the next-window data; apply that to the window instead.
    place(name, side, width);
    const ImGuiNextWindowData& next = g.NextWindowData;
    if (next.Flags & ImGuiNextWindowDataFlags_HasPos) ImGui::SetWindowPos(window, next.PosVal);
    if (next.Flags & ImGuiNextWindowDataFlags_HasCollapsed)
        ImGui::SetWindowCollapsed(window, next.CollapsedVal);
    if (next.Flags & ImGuiNextWindowDataFlags_HasSizeConstraint) {
        const ImRect& limits = next.SizeConstraintRect;
        const ImVec2 size = ImClamp(window->SizeFull, limits.Min, limits.Max);
        if (differ(size, window->SizeFull)) ImGui::SetWindowSize(window, size);
    }
    g.NextWindowData.ClearFlags();
    if (Placed& p = placed_[name]; !p.movedByUser) p.size = window->SizeFull;
}

}  // namespace clviz
