#pragma once
// Kernel timings from OpenCL profiling events, and small statistics used by the overlays and
// the benchmark.
#include <vector>

#include "common/median.hpp"  // median, which every user of these timings needs
#include "compute/core/cl.hpp"

namespace clviz {

// Device time between CL_PROFILING_COMMAND_START and _END, in milliseconds. Waits for the event.
double eventMilliseconds(const cl::Event& event);

// Device time from the start of `first` to the end of `last`, in milliseconds.
double spanMilliseconds(const cl::Event& first, const cl::Event& last);

}  // namespace clviz
