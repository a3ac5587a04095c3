#pragma once
// The host waiting for a device: by testing a command's status, with a pause between tests or
// none. A blocking wait (clFinish, clWaitForEvents) returned up to a quarter of a millisecond
// after a GPU was done on the lent machines (issue 32, session 20's timelines), and every such
// wait of a multi-device step lies on its critical path.
#include "compute/core/cl.hpp"
#include "compute/core/device_info.hpp"

namespace clviz {

// Microseconds between tests: 0 (back to back) where the device is not a CPU, whose host cores
// idle meanwhile; 20 where it computes on the CPU (PoCL), whose cores the polling would take.
inline int exchangePollMicroseconds(bool deviceIsCpu) {
    return deviceIsCpu ? 20 : 0;
}
inline int hostPollMicroseconds(const DeviceInfo& device) {
    return exchangePollMicroseconds(device.kind == DeviceKind::Cpu);
}

// Returns once `event` completed, testing it every `pollMicroseconds` (0: back to back, yielding
// the core between tests). Throws cl::Error as cl::Event::wait() does when it failed.
void waitPolling(const cl::Event& event, int pollMicroseconds);

// cl::CommandQueue::finish() by waitPolling on a marker behind everything `queue` holds.
void finishPolling(cl::CommandQueue& queue, int pollMicroseconds);

}  // namespace clviz
