#pragma once
// When, on the host's clock, each of a set of OpenCL commands finished: device clocks of different
// devices cannot be compared, so the idle time at an exchange is measured here.
//
// wait() polls the events' status and blocks on the last one. Event callbacks were tried first:
// NVIDIA's driver delivers them up to ~20 ms late after a long kernel, which cost 7% of the step
// on two H200s at N = 1M (docs/scaling.md); clWaitForEvents returns promptly, and a poll every
// 50 us bounds the error of the other timestamps.
#include <chrono>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

class CompletionClock {
  public:
    explicit CompletionClock(std::size_t slots) : events_(slots) {}
    // The command whose end `slot` records (an empty event counts as done at wait()).
    void watch(std::size_t slot, const cl::Event& event) { events_.at(slot) = event; }
    // Waits for every watched event; returns each slot's finish time in ms since construction.
    // Throws clviz::Error when a command failed.
    std::vector<double> wait();

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::vector<cl::Event> events_;
};

}  // namespace clviz
