#include "compute/core/host_wait.hpp"

#include <chrono>
#include <thread>

namespace clviz {

void waitPolling(const cl::Event& event, int pollMicroseconds) {
    for (;;) {
        const cl_int status = event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
        if (status == CL_COMPLETE) return;
        if (status < 0) {
            event.wait();  // throws the error the blocking wait reports
            return;
        }
        if (pollMicroseconds > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(pollMicroseconds));
        else
            std::this_thread::yield();
    }
}

void finishPolling(cl::CommandQueue& queue, int pollMicroseconds) {
    cl::Event marker;
    queue.enqueueMarkerWithWaitList(nullptr, &marker);
    queue.flush();
    waitPolling(marker, pollMicroseconds);
    queue.finish();  // nothing left: returns at once (and reports a failure the marker hid)
}

}  // namespace clviz
