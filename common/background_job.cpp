#include "common/background_job.hpp"

#include <utility>

namespace clviz {

void JobProgress::report(const std::string& what, int done, int total) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        what_ = what;
        done_ = done;
        total_ = total;
    }
    if (cancelled_) throw JobCancelled();
}

std::string JobProgress::line() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (total_ <= 0) return what_;
    return what_ + " (" + std::to_string(done_) + " of " + std::to_string(total_) + ")";
}

int JobProgress::done() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return done_;
}

int JobProgress::total() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_;
}

BackgroundJob::BackgroundJob(std::string title, Work work)
    : title_(std::move(title)), thread_([this, work = std::move(work)] {
          try {
              work(progress_);
          } catch (...) {
              error_ = std::current_exception();
          }
          finished_ = true;
      }) {}

BackgroundJob::~BackgroundJob() {
    cancel();
    wait();
}

void BackgroundJob::wait() {
    if (thread_.joinable()) thread_.join();
}

void BackgroundJob::get() {
    wait();
    if (error_) std::rethrow_exception(error_);
}

std::string BackgroundJob::progressLine() const {
    std::string line = progress_.line();
    return line.empty() ? title_ : line;
}

}  // namespace clviz
