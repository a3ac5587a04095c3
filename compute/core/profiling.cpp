#include "compute/core/profiling.hpp"

#include <algorithm>

namespace clviz {

double eventMilliseconds(const cl::Event& event) {
    event.wait();
    const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return static_cast<double>(end - start) * 1e-6;
}

double spanMilliseconds(const cl::Event& first, const cl::Event& last) {
    last.wait();
    const auto start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const auto end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return static_cast<double>(end - start) * 1e-6;
}

}  // namespace clviz
