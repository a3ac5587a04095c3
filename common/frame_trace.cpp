#include "common/frame_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "common/error.hpp"
#include "common/median.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

FrameTraceSummary FrameTrace::summary(std::size_t skip) const {
    FrameTraceSummary s;
    if (skip >= ms_.size()) return s;
    const auto first = ms_.begin() + static_cast<std::ptrdiff_t>(skip);
    s.frames = static_cast<std::size_t>(ms_.end() - first);
    const auto longest = std::max_element(first, ms_.end());
    s.maxMs = *longest;
    s.maxFrame = longest - ms_.begin();
    s.medianMs = median(std::vector<double>(first, ms_.end()));
    s.maxOverMedian = s.medianMs > 0 ? s.maxMs / s.medianMs : 0;
    return s;
}

void FrameTrace::writeCsv(const std::string& path) const {
    std::ofstream out(path);
    out << "frame,ms\n";
    char line[64];
    for (std::size_t i = 0; i < ms_.size(); ++i) {
        std::snprintf(line, sizeof line, "%zu,%.4f\n", i, ms_[i]);
        out << line;
    }
    out.flush();
    if (!out) throw Error("cannot write the frame trace to " + quotedPath(path));
}

std::string describe(const FrameTraceSummary& s, std::size_t skip) {
    if (s.frames == 0) return "frame trace: no frames after the first " + std::to_string(skip);
    char text[256];
    std::snprintf(text, sizeof text,
                  "frame trace: %zu frames after the first %zu, median %.3f ms, max %.3f ms "
                  "(frame %lld), max / median %.2f",
                  s.frames, skip, s.medianMs, s.maxMs, s.maxFrame, s.maxOverMedian);
    return text;
}

}  // namespace clviz
