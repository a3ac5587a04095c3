#include "compute/nbody/multi/step_timeline.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "compute/core/command_names.hpp"

namespace clviz {

namespace {

double nanoseconds(std::chrono::steady_clock::time_point t) {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

double hostNanoseconds() {
    return nanoseconds(std::chrono::steady_clock::now());
}

// Host clock minus this queue's device clock, in ns.
double clockOffset(cl::CommandQueue& queue) {
    cl::Event marker;
    const double before = hostNanoseconds();
    queue.enqueueMarkerWithWaitList(nullptr, &marker);
    const double after = hostNanoseconds();
    marker.wait();
    const auto queued = marker.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
    return 0.5 * (before + after) - static_cast<double>(queued);
}

}  // namespace

NbodyStepTimeline stepTimeline(const std::vector<NbodyDeviceEvents>& devices) {
    NbodyStepTimeline t;
    struct Raw {
        NbodyTimelineSpan span;
        double startNs;
    };
    std::vector<Raw> raw;
    double first = std::numeric_limits<double>::infinity();
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const NbodyDeviceEvents& dev = devices[d];
        t.devices.push_back(dev.name);
        for (const auto& [lane, events] : dev.lanes)
            for (const NbodyLaneEvent& e : events)
                e.event.wait();
        cl::CommandQueue queue = dev.queue;
        const double offset = clockOffset(queue);
        for (const auto& [lane, events] : dev.lanes)
            for (const NbodyLaneEvent& e : events) {
                cl_ulong start = 0, end = 0;
                try {
                    start = e.event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
                    end = e.event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
                } catch (const cl::Error& e) {
                    if (e.err() == CL_PROFILING_INFO_NOT_AVAILABLE)
                        continue;  // an unprofiled queue
                    throw;
                }
                Raw r;
                r.span.device = d;
                r.span.lane = lane;
                r.span.name = e.name;
                r.span.bytes = e.bytes;
                r.span.command = e.command.empty()
                                     ? commandTypeName(e.event.getInfo<CL_EVENT_COMMAND_TYPE>())
                                     : e.command;
                r.startNs = static_cast<double>(start) + offset;
                r.span.durationUs = end > start ? static_cast<double>(end - start) * 1e-3 : 0.0;
                first = std::min(first, r.startNs);
                raw.push_back(std::move(r));
            }
        for (const NbodyHostSpan& h : dev.host) {
            Raw r;
            r.span.device = d;
            r.span.lane = "host";
            r.span.name = h.name;
            r.startNs = nanoseconds(h.start);
            r.span.durationUs = std::max(0.0, (nanoseconds(h.end) - r.startNs) * 1e-3);
            first = std::min(first, r.startNs);
            raw.push_back(std::move(r));
        }
    }
    std::sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) {
        return a.span.device != b.span.device ? a.span.device < b.span.device
                                              : a.startNs < b.startNs;
    });
    for (Raw& r : raw) {
        r.span.startUs = (r.startNs - first) * 1e-3;
        t.spans.push_back(std::move(r.span));
    }
    return t;
}

}  // namespace clviz
