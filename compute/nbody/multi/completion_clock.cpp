#include "compute/nbody/multi/completion_clock.hpp"

#include <thread>

#include "compute/core/cl_boundary.hpp"

namespace clviz {

std::vector<double> CompletionClock::wait() {
    return clBoundary("an N-body exchange transfer failed", [&] {
        using namespace std::chrono;
        const auto now = [&] {
            return duration<double, std::milli>(steady_clock::now() - start_).count();
        };
        std::vector<double> doneMs(events_.size(), -1.0);
        std::size_t pending = 0;
        for (std::size_t i = 0; i < events_.size(); ++i)
            if (events_[i]())
                ++pending;
            else
                doneMs[i] = now();
        while (pending > 0) {
            for (std::size_t i = 0; i < events_.size(); ++i) {
                if (doneMs[i] >= 0) continue;
                if (pending == 1) {
                    events_[i].wait();  // the last one: block (throws when it failed)
                } else {
                    const cl_int status = events_[i].getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
                    if (status < 0) throw cl::Error(status, "clEnqueueReadBuffer");
                    if (status != CL_COMPLETE) continue;
                }
                doneMs[i] = now();
                --pending;
            }
            if (pending > 1) std::this_thread::sleep_for(microseconds(50));
        }
        return doneMs;
    });
}

}  // namespace clviz
