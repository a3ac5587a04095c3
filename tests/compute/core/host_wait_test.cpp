// The host's polling waits: they return only once the command is done (a user event completed by
// another thread later, a queue's copy), and report a command that failed as the blocking wait
// does; the poll interval is 0 only where the device is not a CPU.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "compute/core/host_wait.hpp"
#include "tests/support/device_context.hpp"

using namespace clviz;
using namespace std::chrono;

namespace {

// Completes `event` with `status` after `delay`, from a thread of its own.
std::thread completeLater(cl::UserEvent& event, milliseconds delay, cl_int status) {
    return std::thread([&event, delay, status] {
        std::this_thread::sleep_for(delay);
        event.setStatus(status);
    });
}

}  // namespace

TEST(HostWait, PollsAPendingEventUntilItCompletes) {
    for (int pollUs : {0, 20}) {
        SCOPED_TRACE(pollUs);
        cl::UserEvent event(test::context().context());
        const auto start = steady_clock::now();
        std::thread done = completeLater(event, milliseconds(40), CL_COMPLETE);
        waitPolling(event, pollUs);
        const auto waited = steady_clock::now() - start;
        done.join();
        EXPECT_GE(waited, milliseconds(35));
        EXPECT_EQ(event.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(), CL_COMPLETE);
    }
}

TEST(HostWait, ReportsAFailedCommandAsTheBlockingWaitDoes) {
    cl::UserEvent event(test::context().context());
    std::thread failed = completeLater(event, milliseconds(10), -1);
    EXPECT_THROW(waitPolling(event, 0), cl::Error);
    failed.join();
}

TEST(HostWait, FinishesAQueueBehindACommandThatWaits) {
    ComputeContext& cc = test::context();
    cl::UserEvent gate(cc.context());
    const std::vector<int> from(1 << 16, 7);
    std::vector<int> into(from.size(), 0);
    cl::Buffer buffer(cc.context(), CL_MEM_READ_WRITE, from.size() * sizeof(int));
    cc.queue().enqueueWriteBuffer(buffer, CL_FALSE, 0, from.size() * sizeof(int), from.data());
    const std::vector<cl::Event> afterGate = {gate};
    cc.queue().enqueueReadBuffer(buffer, CL_FALSE, 0, into.size() * sizeof(int), into.data(),
                                 &afterGate);
    const auto start = steady_clock::now();
    std::thread open = completeLater(gate, milliseconds(30), CL_COMPLETE);
    finishPolling(cc.queue(), hostPollMicroseconds(cc.info()));
    const auto waited = steady_clock::now() - start;
    open.join();
    EXPECT_GE(waited, milliseconds(25));
    EXPECT_EQ(into, from);
}

TEST(HostWait, SpinsOnlyWhereTheDeviceIsNotTheCpu) {
    DeviceInfo device;
    device.kind = DeviceKind::Gpu;
    EXPECT_EQ(hostPollMicroseconds(device), 0);
    device.kind = DeviceKind::Cpu;
    EXPECT_GT(hostPollMicroseconds(device), 0);
}
