#pragma once
// One step of an N-body system split over devices, as each device ran it: its kernels and its
// copies on one clock (the host's), to see where a device waited (`clviz-bench --timeline`).
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

struct NbodyTimelineSpan {
    std::size_t device = 0;
    std::string lane;    // "kernels", "slice copies", "split build copies"
    std::string name;    // the kernel's stage or the copy's
    double startUs = 0;  // since the step's first command began, on the host's clock
    double durationUs = 0;
    std::size_t bytes = 0;     // a copy's, where the caller knew them (0: a kernel, or not known)
    std::string command = {};  // a kernel's function name, else the command's type ("read buffer")
};

struct NbodyStepTimeline {
    std::vector<std::string> devices;  // names, by index
    std::vector<NbodyTimelineSpan> spans;
};

// Work the host did for one device (the split build's exchange phases, each walk piece enqueued),
// on the host's clock.
struct NbodyHostSpan {
    std::string name;
    std::chrono::steady_clock::time_point start, end;
};

// A command of one lane: a kernel's stage or a copy's name, its event, and a copy's bytes where
// known.
struct NbodyLaneEvent {
    std::string name;
    cl::Event event;
    std::size_t bytes = 0;
    std::string command = {};  // the kernel it ran, where known (empty: its command type)
};

// What one device ran, by lane, its events complete, and the host's work for it (lane "host").
struct NbodyDeviceEvents {
    std::string name;
    cl::CommandQueue queue;  // profiled; its clock is the events' clock
    std::vector<std::pair<std::string, std::vector<NbodyLaneEvent>>> lanes;
    std::vector<NbodyHostSpan> host;
};

// The devices' events on the host's clock: each device's profiling clock is tied to the host's by
// a marker, whose queued time is read against the host's clock when it is enqueued (a few
// microseconds apart on an idle queue). Waits for the events. Throws cl::Error.
NbodyStepTimeline stepTimeline(const std::vector<NbodyDeviceEvents>& devices);

}  // namespace clviz
