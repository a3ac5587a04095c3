#pragma once
// Per-demo state of the ImGui windows a demo draws. ImGui knows a window by its name alone, so two
// demos that both draw "Timings" shared one window: collapsing it in one collapsed it in the other
// (issue 27). The shell notes which windows each demo draws and, on a switch, keeps the leaving
// demo's window state (place, size, collapsed) and gives the arriving demo its own, or a fresh
// window where it has none yet. No demo needs to do anything for it.
#include <map>
#include <set>
#include <string>

#include <imgui.h>

namespace clviz {

class DemoWindows {
  public:
    // Around the active demo's gui(): windows first drawn between the two calls are its own.
    void beginDemoGui();
    void endDemoGui(int demo);
    // Between frames, when demo `from` (-1: none) gives way to demo `to`.
    void switchDemo(int from, int to);

  private:
    struct Saved {
        ImVec2 pos, size;
        bool collapsed = false;
    };
    std::set<std::string> activeBefore_;
    std::map<int, std::set<std::string>> names_;  // per demo: the windows it draws
    std::map<int, std::map<std::string, Saved>> saved_;
};

}  // namespace clviz
