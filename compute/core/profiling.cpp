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

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) {
        m = (m + *std::max_element(values.begin(), values.begin() + mid)) / 2.0;
    }
    return m;
}

}  // namespace clviz
