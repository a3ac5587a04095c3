#include "common/frame_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "common/error.hpp"
#include "common/median.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

const char* framePhaseName(FramePhase phase) {
    switch (phase) {
        case FramePhase::Input:
            return "input";
        case FramePhase::Gui:
            return "gui";
        case FramePhase::Step:
            return "step";
        case FramePhase::Draw:
            return "draw";
        case FramePhase::BeforePresent:
            return "before_present";
        case FramePhase::Present:
            return "present";
        case FramePhase::FrameEnd:
            return "frame_end";
        case FramePhase::Count:
            break;
    }
    return "?";
}

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
    const FramePhaseMs& parts = phases_[static_cast<std::size_t>(s.maxFrame)];
    const auto part = std::max_element(parts.begin(), parts.end());
    if (*part > 0) s.maxFramePhase = static_cast<FramePhase>(part - parts.begin());
    return s;
}

void FrameTrace::writeCsv(const std::string& path) const {
    std::ofstream out(path);
    out << "frame,ms";
    for (std::size_t p = 0; p < kFramePhases; ++p)
        out << ',' << framePhaseName(static_cast<FramePhase>(p)) << "_ms";
    out << '\n';
    char field[32];
    for (std::size_t i = 0; i < ms_.size(); ++i) {
        std::snprintf(field, sizeof field, "%zu,%.4f", i, ms_[i]);
        out << field;
        for (double ms : phases_[i]) {
            std::snprintf(field, sizeof field, ",%.4f", ms);
            out << field;
        }
        out << '\n';
    }
    out.flush();
    if (!out) throw Error("cannot write the frame trace to " + quotedPath(path));
}

std::string describe(const FrameTraceSummary& s, std::size_t skip) {
    if (s.frames == 0) return "frame trace: no frames after the first " + std::to_string(skip);
    std::string where;
    if (s.maxFramePhase != FramePhase::Count)
        where = std::string(", most of it in ") + framePhaseName(s.maxFramePhase);
    char text[320];
    std::snprintf(text, sizeof text,
                  "frame trace: %zu frames after the first %zu, median %.3f ms, max %.3f ms "
                  "(frame %lld%s), max / median %.2f",
                  s.frames, skip, s.medianMs, s.maxMs, s.maxFrame, where.c_str(), s.maxOverMedian);
    return text;
}

}  // namespace clviz
