#include "compute/nbody/multi/slice_gather.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "compute/core/compute_context.hpp"

namespace clviz {

SliceGather::SliceGather(const std::vector<ComputeContext*>& devices, std::size_t chunkBytes)
    : devices_(devices), chunkBytes_(std::max<std::size_t>(1, chunkBytes)) {
    for (ComputeContext* cc : devices_) {
        transfer_.emplace_back(cc->context(), cc->device(), CL_QUEUE_PROFILING_ENABLE);
        out_.emplace_back(cc->context(), cc->device(), CL_QUEUE_PROFILING_ENABLE);
    }
}

void SliceGather::finish() {
    // One wait a transfer queue (in order: its last copy is its last command), not one an event
    // copied: hundreds of event waits held the next step's first walk back by about a millisecond
    // on four GPUs (issue 32, session 13).
    for (cl::CommandQueue& q : transfer_)
        q.finish();
}

std::vector<std::vector<cl::Event>> SliceGather::markReady() {
    std::vector<std::vector<cl::Event>> ready(devices_.size(), std::vector<cl::Event>(1));
    for (std::size_t d = 0; d < devices_.size(); ++d)
        devices_[d]->queue().enqueueMarkerWithWaitList(nullptr, &ready[d][0]);
    return ready;
}

std::vector<double> SliceGather::run(const std::vector<const cl::Buffer*>& buffers,
                                     const std::vector<BodySlice>& slices, std::size_t bytesPerBody,
                                     char* host, std::vector<std::vector<cl::Event>>& events,
                                     std::size_t pieces, const Producer& produce, bool halving,
                                     const Arrival& arrived, const ForEachDevice& forEach) {
    const std::size_t p = devices_.size();
    finish();  // the host area is free again
    const std::vector<std::vector<cl::Event>> ready = markReady();

    // Each piece produced on the device's own queue, then read out in chunks on its out queue
    // (in order there) once the piece's last command is done.
    std::vector<std::vector<Chunk>> chunks(p);
    const std::size_t chunkBodies = std::max<std::size_t>(1, chunkBytes_ / bytesPerBody);
    const auto enqueuePieces = [&](std::size_t d) {  // touches device d's things only
        for (const BodySlice& piece : cutIntoPieces(slices[d], pieces, halving)) {
            const std::size_t b = piece.begin, e = piece.end();
            const std::vector<cl::Event> written{produce(d, b, e - b)};
            devices_[d]->queue().flush();  // the device starts on the piece now
            for (std::size_t c = b; c < e; c += chunkBodies) {
                Chunk ch{c * bytesPerBody, std::min(chunkBodies, e - c) * bytesPerBody, {}};
                out_[d].enqueueReadBuffer(*buffers[d], CL_FALSE, ch.from, ch.bytes, host + ch.from,
                                          &written, &ch.read);
                events[d].push_back(ch.read);
                chunks[d].push_back(ch);
            }
            out_[d].flush();
        }
    };
    if (forEach) {
        forEach(enqueuePieces);
    } else {
        for (std::size_t d = 0; d < p; ++d)
            enqueuePieces(d);
    }
    return forward(buffers, chunks, host, ready, events, bytesPerBody, arrived);
}

std::vector<double> SliceGather::run(const std::vector<const cl::Buffer*>& buffers,
                                     const std::vector<BodySlice>& slices, std::size_t bytesPerBody,
                                     char* host, std::vector<std::vector<cl::Event>>& events) {
    const std::size_t p = devices_.size();
    finish();  // the host area is free again

    // What each device did before this call (kernels that read or write its buffer) comes before
    // the copies into it on its transfer queue.
    const std::vector<std::vector<cl::Event>> ready = markReady();

    // Each slice out in chunks, in order on its device's own queue.
    std::vector<std::vector<Chunk>> chunks(p);
    const std::size_t chunkBodies = std::max<std::size_t>(1, chunkBytes_ / bytesPerBody);
    for (std::size_t d = 0; d < p; ++d) {
        for (std::size_t b = slices[d].begin; b < slices[d].end(); b += chunkBodies) {
            Chunk c{
                b * bytesPerBody, std::min(chunkBodies, slices[d].end() - b) * bytesPerBody, {}};
            devices_[d]->queue().enqueueReadBuffer(*buffers[d], CL_FALSE, c.from, c.bytes,
                                                   host + c.from, nullptr, &c.read);
            events[d].push_back(c.read);
            chunks[d].push_back(c);
        }
        devices_[d]->queue().flush();  // the reads must start while the host polls
    }
    return forward(buffers, chunks, host, ready, events);
}

std::vector<double> SliceGather::forward(const std::vector<const cl::Buffer*>& buffers,
                                         std::vector<std::vector<Chunk>>& chunks, char* host,
                                         const std::vector<std::vector<cl::Event>>& ready,
                                         std::vector<std::vector<cl::Event>>& events,
                                         std::size_t bytesPerBody, const Arrival& arrived) {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    const std::size_t p = devices_.size();
    // Each chunk on to the other devices as soon as it is on the host (chunks of one device
    // finish in order: its queue is in order).
    std::vector<double> doneMs(p, 0.0);
    std::vector<std::size_t> next(p, 0);
    std::vector<std::vector<cl::Event>> incoming(p);
    std::size_t left = 0;
    for (const auto& c : chunks)
        left += c.size();
    while (left > 0) {
        bool moved = false;
        for (std::size_t d = 0; d < p; ++d) {
            if (next[d] == chunks[d].size()) continue;
            Chunk& c = chunks[d][next[d]];
            const cl_int status = c.read.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
            if (status < 0) throw cl::Error(status, "clEnqueueReadBuffer");
            if (status != CL_COMPLETE) continue;
            for (std::size_t e = 0; e < p; ++e) {
                if (e == d) continue;
                cl::Event write;
                const std::vector<cl::Event>* after = incoming[e].empty() ? &ready[e] : nullptr;
                transfer_[e].enqueueWriteBuffer(*buffers[e], CL_FALSE, c.from, c.bytes,
                                                host + c.from, after, &write);
                incoming[e].push_back(write);
                events[e].push_back(write);
                transfer_[e].flush();
                if (arrived)
                    incoming[e].push_back(
                        arrived(e, c.from / bytesPerBody, c.bytes / bytesPerBody, write));
            }
            ++next[d];
            --left;
            moved = true;
            if (next[d] == chunks[d].size())
                doneMs[d] = duration<double, std::milli>(steady_clock::now() - start).count();
        }
        if (!moved && left > 0) std::this_thread::sleep_for(microseconds(20));
    }

    // Each device's next commands after its incoming copies.
    for (std::size_t e = 0; e < p; ++e) {
        if (incoming[e].empty()) continue;
        devices_[e]->queue().enqueueBarrierWithWaitList(&incoming[e]);
        devices_[e]->queue().flush();
    }
    return doneMs;
}

}  // namespace clviz
