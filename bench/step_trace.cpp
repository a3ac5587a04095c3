#include "bench/step_trace.hpp"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz::bench {

void writeStepTraces(const std::string& path,
                     const std::vector<std::pair<std::string, NbodyStepTimeline>>& rows) {
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    int pid = 0;
    for (const auto& [label, timeline] : rows) {
        const int firstPid = pid;
        for (std::size_t d = 0; d < timeline.devices.size(); ++d)
            events.push_back({{"ph", "M"},
                              {"name", "process_name"},
                              {"pid", firstPid + static_cast<int>(d)},
                              {"args",
                               {{"name", label + ": device " + std::to_string(d) + " (" +
                                             timeline.devices[d] + ")"}}}});
        std::map<std::pair<int, std::string>, int> lanes;  // (pid, lane) -> tid
        for (const NbodyTimelineSpan& s : timeline.spans) {
            const int p = firstPid + static_cast<int>(s.device);
            auto [it, added] = lanes.emplace(std::make_pair(p, s.lane), int(lanes.size()));
            if (added)
                events.push_back({{"ph", "M"},
                                  {"name", "thread_name"},
                                  {"pid", p},
                                  {"tid", it->second},
                                  {"args", {{"name", s.lane}}}});
            nlohmann::ordered_json span = {
                {"ph", "X"},         {"name", s.name},  {"cat", s.lane},      {"pid", p},
                {"tid", it->second}, {"ts", s.startUs}, {"dur", s.durationUs}};
            if (!s.command.empty()) span["args"]["command"] = s.command;  // its kernel, or its type
            if (s.bytes) {  // a copy's size and rate (bytes per microsecond = MB/s)
                span["args"]["bytes"] = s.bytes;
                if (s.durationUs > 0) span["args"]["GB/s"] = s.bytes / s.durationUs * 1e-3;
            }
            events.push_back(std::move(span));
        }
        pid += static_cast<int>(timeline.devices.size());
    }
    const nlohmann::ordered_json doc = {
        {"displayTimeUnit", "ms"},
        {"otherData",
         {{"clock",
           "host steady clock, microseconds from each row's first command; each "
           "device's profiling clock tied to it by a marker's queued time"}}},
        {"traceEvents", events}};
    std::ofstream out(path);
    if (!out) throw Error("cannot write the timeline to " + quotedPath(path));
    out << doc.dump(1) << "\n";
    if (!out) throw Error("cannot write the timeline to " + quotedPath(path));
}

}  // namespace clviz::bench
