#include "compute/nbody/multi/completion_clock.hpp"

#include "compute/core/cl_boundary.hpp"

namespace clviz {

CompletionClock::CompletionClock(std::size_t slots) : doneMs_(slots, 0.0) {
    slots_.reserve(slots);
    for (std::size_t i = 0; i < slots; ++i)
        slots_.push_back({this, i});
}

CompletionClock::~CompletionClock() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return pending_ == 0; });
}

void CompletionClock::watch(std::size_t slot, cl::Event& event) {
    if (!event()) {
        std::lock_guard lock(mutex_);
        doneMs_.at(slot) =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
                .count();
        return;
    }
    {
        std::lock_guard lock(mutex_);
        ++pending_;
    }
    try {
        event.setCallback(CL_COMPLETE, &CompletionClock::done, &slots_.at(slot));
    } catch (const cl::Error& e) {
        std::lock_guard lock(mutex_);
        --pending_;
        throwClError("cannot watch an N-body exchange transfer", e);
    }
}

void CL_CALLBACK CompletionClock::done(cl_event, cl_int status, void* user) {
    auto* slot = static_cast<Slot*>(user);
    CompletionClock& c = *slot->clock;
    std::lock_guard lock(c.mutex_);
    c.doneMs_[slot->index] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c.start_)
            .count();
    if (status < 0) c.failedStatus_ = status;
    if (--c.pending_ == 0) c.cv_.notify_all();
}

std::vector<double> CompletionClock::wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return pending_ == 0; });
    if (failedStatus_ < 0)
        throwClError("an N-body exchange transfer failed",
                     cl::Error(failedStatus_, "clEnqueueReadBuffer"));
    return doneMs_;
}

}  // namespace clviz
