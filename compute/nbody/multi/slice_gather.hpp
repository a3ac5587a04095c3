#pragma once
// Every device's slice of a buffer to every other device of one process, through pinned host
// memory, in chunks: a chunk goes on to the other devices as soon as it reaches the host, on each
// device's second (transfer) queue, so the copies to the host (each device's own queue) and from
// it (the transfer queues) run at the same time instead of one after the other. Device contexts
// differ, so no event can join them: the host polls the chunks and passes them on.
#include <cstddef>
#include <functional>
#include <vector>

#include "compute/core/cl.hpp"
#include "compute/nbody/for_each_device.hpp"
#include "compute/nbody/multi/slice_plan.hpp"

namespace clviz {

class ComputeContext;

class SliceGather {
  public:
    // Waits for the last run's copies into the devices (which read the host area): before that
    // area is freed or reused for something else.
    void finish();

    // Bytes per chunk: small enough to overlap, large enough for full-speed copies.
    static constexpr std::size_t kChunkBytes = std::size_t{4} << 20;

    // One transfer queue per device (the contexts must outlive this object).
    explicit SliceGather(const std::vector<ComputeContext*>& devices,
                         std::size_t chunkBytes = kChunkBytes);

    // buffers[d]: device d's buffer, whose slices[d] (bytesPerBody a body, at its place) is its
    // own and whose other slices it receives; host: pinned memory of every body's bytes, used at
    // the same places. Enqueues everything and returns once every chunk is on the host and passed
    // on; each device's own queue then waits (a barrier) for its incoming copies, so its next
    // commands see them. events[d] gets device d's copies (out and in), for their device time.
    // Returns when (ms on the host clock since the call) each device's last chunk reached the
    // host (0 for an empty slice). Throws cl::Error.
    std::vector<double> run(const std::vector<const cl::Buffer*>& buffers,
                            const std::vector<BodySlice>& slices, std::size_t bytesPerBody,
                            char* host, std::vector<std::vector<cl::Event>>& events);

    // run() for slices that are still being computed: each device's slice is cut into `pieces`
    // (cutIntoPieces: even, or halving), produce(d, begin, count) enqueues on device d's own queue
    // the commands that write bodies begin .. begin + count - 1 of buffers[d] (and nothing else of
    // it) and returns the event of the last; each piece goes out on a third queue per device as
    // soon as that event completes, while the device computes the next piece and the other
    // devices' chunks come in. The incoming copies wait only for what device d's queue held
    // before this call. Returns as run() does.
    // arrived(d, begin, count, copied), where given, is told of every chunk enqueued into device
    // d (bodies begin .. begin + count - 1, in `copied`) and may enqueue what uses it after that
    // event; d's own queue then waits for what it returns too.
    using Producer =
        std::function<cl::Event(std::size_t device, std::size_t begin, std::size_t count)>;
    // forEach, where given, runs task(d) for every device at once and returns when all have: the
    // pieces are then enqueued on every device at the same time (one after the other, the last
    // device's first piece waited for the others' enqueueing).
    using Arrival = std::function<cl::Event(std::size_t device, std::size_t begin,
                                            std::size_t count, const cl::Event& copied)>;
    std::vector<double> run(const std::vector<const cl::Buffer*>& buffers,
                            const std::vector<BodySlice>& slices, std::size_t bytesPerBody,
                            char* host, std::vector<std::vector<cl::Event>>& events,
                            std::size_t pieces, const Producer& produce, bool halving = false,
                            const Arrival& arrived = {}, const ForEachDevice& forEach = {});

  private:
    struct Chunk {
        std::size_t from, bytes;
        cl::Event read;
    };
    // Marks what each device's queue holds now: the incoming copies come after it.
    std::vector<std::vector<cl::Event>> markReady();
    // Passes every chunk on as it reaches the host, then orders each device's queue after its
    // incoming copies; returns when each device's last chunk reached the host.
    std::vector<double> forward(const std::vector<const cl::Buffer*>& buffers,
                                std::vector<std::vector<Chunk>>& chunks, char* host,
                                const std::vector<std::vector<cl::Event>>& ready,
                                std::vector<std::vector<cl::Event>>& events,
                                std::size_t bytesPerBody = 1, const Arrival& arrived = {});

    std::vector<ComputeContext*> devices_;
    std::size_t chunkBytes_;
    std::vector<cl::CommandQueue> transfer_;
    std::vector<cl::CommandQueue> out_;  // the produced pieces' copies to the host
};

}  // namespace clviz
