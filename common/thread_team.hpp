#pragma once
// A fixed team of threads that runs one task per member at once and waits for all of them: for
// work that must start on several independent things at the same moment, such as enqueueing each
// device's commands of a step (a driver can take ~1 ms of host time for a device's tree build,
// and one thread enqueueing device after device starts the last device that much later each).
// The threads live as long as the team, so a run costs a wake-up, not a thread start.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clviz {

class ThreadTeam {
  public:
    // `members` tasks per run (at least 1): member 0 runs on the calling thread, the others on
    // members - 1 threads started here.
    explicit ThreadTeam(std::size_t members);
    ~ThreadTeam();  // stops and joins the threads (no run may be in progress)
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    std::size_t size() const { return errors_.size(); }

    // Runs task(i) for every member i at once and returns when every task has returned, so
    // whatever a task did happens before anything the caller does next, and before every task of
    // the next run. When tasks throw, rethrows on the calling thread, after all have returned,
    // the exception of the lowest member that threw (as a loop over the members would have met
    // first); the team stays usable. One run at a time, from one thread; a task must not call
    // run() on its own team.
    void run(const std::function<void(std::size_t member)>& task);

  private:
    void serve(std::size_t member);

    std::mutex mutex_;
    std::condition_variable start_;  // a new run (or stop) for the threads
    std::condition_variable done_;   // the last thread of a run finished
    const std::function<void(std::size_t)>* task_ = nullptr;
    std::uint64_t round_ = 0;  // runs started: a thread takes each round once
    std::size_t busy_ = 0;     // threads still in this run's task
    bool stop_ = false;
    std::vector<std::exception_ptr> errors_;  // per member, this run's
    std::vector<std::thread> threads_;        // members 1 .. size - 1
};

}  // namespace clviz
