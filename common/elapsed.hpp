#pragma once
// Wall time since a steady-clock instant, in milliseconds: the host-side timings of the compute
// features and the benchmarks.
#include <chrono>

namespace clviz {

inline double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace clviz
