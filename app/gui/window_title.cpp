#include "app/gui/window_title.hpp"

#include <cstdio>

namespace clviz {

std::string windowTitle(const std::string& demoTitle, double fps, const std::string& status) {
    std::string title = "clviz";
    if (!demoTitle.empty()) title += " - " + demoTitle;
    if (fps > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " | %.1f FPS", fps);
        title += buf;
    }
    if (!status.empty()) title += " | " + status;
    return title;
}

}  // namespace clviz
