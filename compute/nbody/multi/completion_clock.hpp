#pragma once
// When, on the host's clock, each of a set of OpenCL commands finished: device clocks of different
// devices cannot be compared, so the idle time at an exchange is measured here. Event callbacks
// record the time; wait() blocks until every callback ran (clWaitForEvents may return before a
// callback has been called).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

class CompletionClock {
  public:
    explicit CompletionClock(std::size_t slots);
    ~CompletionClock();  // waits for callbacks still due (they point into this object)
    CompletionClock(const CompletionClock&) = delete;
    CompletionClock& operator=(const CompletionClock&) = delete;
    // Records when `event` completes into `slot` (an empty event counts as done now).
    void watch(std::size_t slot, cl::Event& event);
    // Waits for every watched event; returns each slot's finish time in ms since construction
    // (slots never watched: 0). Throws clviz::Error when a command failed.
    std::vector<double> wait();

  private:
    static void CL_CALLBACK done(cl_event, cl_int status, void* user);
    struct Slot {
        CompletionClock* clock;
        std::size_t index;
    };
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Slot> slots_;
    std::vector<double> doneMs_;
    int pending_ = 0;
    int failedStatus_ = 0;
};

}  // namespace clviz
