#include "common/thread_team.hpp"

#include <stdexcept>

namespace clviz {

ThreadTeam::ThreadTeam(std::size_t members) : errors_(members) {
    if (members == 0) throw std::invalid_argument("a thread team needs at least one member");
    threads_.reserve(members - 1);
    for (std::size_t m = 1; m < members; ++m)
        threads_.emplace_back([this, m] { serve(m); });
}

ThreadTeam::~ThreadTeam() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

void ThreadTeam::serve(std::size_t member) {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        start_.wait(lock, [&] { return stop_ || round_ != seen; });
        if (stop_) return;
        seen = round_;
        const auto* task = task_;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*task)(member);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        errors_[member] = error;
        if (--busy_ == 0) done_.notify_one();
    }
}

void ThreadTeam::run(const std::function<void(std::size_t member)>& task) {
    if (threads_.empty()) {  // one member: nothing to wait for
        task(0);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        task_ = &task;
        busy_ = threads_.size();
        ++round_;
    }
    start_.notify_all();
    std::exception_ptr first;
    try {
        task(0);
    } catch (...) {
        first = std::current_exception();
    }
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    task_ = nullptr;
    for (std::size_t m = 1; !first && m < errors_.size(); ++m)
        first = errors_[m];
    for (std::exception_ptr& e : errors_)
        e = nullptr;
    lock.unlock();
    if (first) std::rethrow_exception(first);
}

}  // namespace clviz
