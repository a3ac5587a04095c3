#pragma once
// Default places for a demo's panels: two columns along the work area's left and right edges,
// filled top to bottom (the right one below the app's overlay), ending above a strip kept free
// for the status line. Fixed coordinates piled the panels on top of each other in an 800x500
// window; a stack adapts to the window's size and to how tall each panel is. A panel follows its
// spot until the user moves or resizes it, then stays where the user put it (until it is closed).
#include <imgui.h>

#include <map>
#include <string>

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

  private:
    struct Placed {
        ImVec2 pos, size;  // where it was put, and its size then
        bool movedByUser = false;
        int frame = 0;  // the last frame it was placed in: a closed panel forgets being moved
        int framesOpen = 0;
    };
    static constexpr int kFitFrames = 4;  // frames a newly opened panel fits its content
    std::map<std::string, Placed> placed_;
    float top_[2] = {0, 0};
    float bottom_ = 0;
    int frame_ = 0;
};

// The height kept free at the bottom of the work area for a one-line status window.
float statusStripHeight();

}  // namespace clviz
