#pragma once
// Where the particle drawing's GPU time goes, pass by pass, for diagnosis only: with
// CLVIZ_DRAW_PROFILE=1 in the environment each mark() waits for the GPU (glFinish) and charges
// the wall time since the previous mark to its name; every 200 frames the means go to stderr as
// "draw profile: name ms, ...". The waits slow the frame, so the viewer's own figures are not
// comparable while it is on. Off (the default) it does nothing.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace clviz {

class DrawProfile {
  public:
    DrawProfile();
    bool enabled() const { return enabled_; }
    void begin();                 // a frame's drawing starts (waits for earlier GPU work)
    void mark(const char* name);  // the work issued since the last mark ends here
    void end();                   // the frame's drawing ends: count it, report now and then

  private:
    bool enabled_ = false;
    std::chrono::steady_clock::time_point last_;
    std::vector<std::pair<std::string, double>> sums_;  // ms, in order of first appearance
    int frames_ = 0;
};

}  // namespace clviz
