#pragma once
// Default places for a demo's panels: two columns along the work area's left and right edges,
// filled top to bottom (the right one below the app's overlay), ending above a strip kept free
// for the status line. Fixed coordinates piled the panels on top of each other in an 800x500
// window; a stack adapts to the window's size and to how tall each panel is. A panel follows its
// spot until the user moves or resizes it, then stays where the user put it (until it is closed).
// No two spots overlap, and none leaves the window: at GUI scale 200-300% panels wider than half
// the window went on top of each other (issue 27). A panel goes below anything already in its way,
// into the other column where its own has no room, and collapsed where neither has room for more
// than its title bar; it is never wider than the window.
// Every PanelStacks of a frame keeps clear of the spots the others took earlier in that frame: the
// app's own windows (Kernels, OpenCL devices, Keys) go through one, drawn before the demo's, so a
// demo's panels stack around them instead of opening under them.
#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include <map>
#include <string>
#include <vector>

namespace clviz {

enum class PanelSide { Left, Right };

class PanelStacks {
  public:
    // Starts a frame; call before the first place().
    void beginFrame();
    // Call just before ImGui::Begin(name): sets its spot (the next one in its column) and caps its
    // height to the room left there, so it scrolls rather than covering the status line. Where the
    // window is shorter than `collapseBelowHeight` pixels it starts collapsed (first use only).
    void place(const char* name, PanelSide side, float width, float collapseBelowHeight = 0);
    // For a window that sets its own position before Begin (so place() cannot go first): call
    // just after its End. It moves (and caps) the window as place() would have placed it, from
    // the next frame on; in the frame it opens it shows where it put itself.
    void placeDrawn(const char* name, PanelSide side, float width);

  private:
    struct Placed {
        ImVec2 pos, size;  // where it was put, and its size then
        bool movedByUser = false;
        bool collapsedForRoom = false;    // collapsed once because no column had room for it
        bool collapsedForHeight = false;  // collapsed at first use in a short window
        int frame = -1;  // the last frame it was placed in: a closed panel forgets being moved
        int framesOpen = 0;
    };
    static constexpr int kFitFrames = 4;  // frames a newly opened panel fits its content
    // Where a panel of width w and wanted height h can go in `column`, below its top and clear of
    // everything taken this frame; false when not even its title bar fits there.
    // May narrow `w` to pass beside something (at most 15%).
    bool findSpot(int column, float& w, float h, ImVec2& pos, float& room) const;
    // A free slot for a collapsed panel's title bar (at most 16 em wide, narrowing `w`), rows from
    // the bottom of the work area up; false when there is none.
    bool findShelf(float& w, ImVec2& pos) const;
    std::map<std::string, Placed> placed_;
    std::vector<ImRect> taken_;  // this frame: the overlay and the panels placed so far
    // Spots taken by every PanelStacks in the ImGui frame `frame`, in order.
    struct Shared {
        int frame = -1;
        std::vector<ImRect> taken;
    };
    static Shared& shared();
    void take(const ImRect& r);
    // Last frame's panels in order, where they went: a panel leaves room below it for the title
    // bars of the panels after it in the same x range, so they are not pushed out of the window.
    std::vector<std::pair<std::string, ImRect>> last_, current_;
    float top_[2] = {0, 0};
    float bottom_ = 0;
    int frame_ = 0;
};

// The height kept free at the bottom of the work area for a one-line status window.
float statusStripHeight();

}  // namespace clviz
