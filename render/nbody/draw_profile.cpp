#include "render/nbody/draw_profile.hpp"

#include <glad/gl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace clviz {

DrawProfile::DrawProfile() {
    const char* v = std::getenv("CLVIZ_DRAW_PROFILE");
    enabled_ = v && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
}

void DrawProfile::begin() {
    if (!enabled_) return;
    glFinish();
    last_ = std::chrono::steady_clock::now();
}

void DrawProfile::mark(const char* name) {
    if (!enabled_) return;
    glFinish();
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    for (auto& s : sums_)
        if (s.first == name) {
            s.second += ms;
            return;
        }
    sums_.emplace_back(name, ms);
}

void DrawProfile::end() {
    if (!enabled_ || ++frames_ < 200) return;
    std::string line = "draw profile (mean of 200 frames):";
    for (const auto& s : sums_) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " %s %.3f ms,", s.first.c_str(), s.second / frames_);
        line += buf;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    sums_.clear();
    frames_ = 0;
}

}  // namespace clviz
