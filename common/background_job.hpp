#pragma once
// Work that takes seconds (kernel builds, an auto-tune) on a worker thread while the frame loop
// keeps drawing: the frame asks finished() and shows progressLine(), and applies the result on
// its own thread once the job is done. The work reports "what, k of n" through JobProgress, which
// is also where it stops when the job is cancelled (JobCancelled unwinds it). Destroying a job
// cancels it and joins the thread, so quitting mid-build waits only for the step in progress.
//
// Threading: construct, poll and destroy on one thread (the frame's); the work runs on another
// and must not touch what the frame uses while it runs. Results pass through the work's own
// captures, read after finished() (or wait()) said it is done.
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace clviz {

// Thrown by JobProgress::report once the job was cancelled.
class JobCancelled : public std::exception {
  public:
    const char* what() const noexcept override { return "cancelled"; }
};

class JobProgress {
  public:
    // "what (done of total)", or "what" when total is 0. Throws JobCancelled after cancel(): a
    // work stops at its next report.
    void report(const std::string& what, int done = 0, int total = 0);
    std::string line() const;
    int done() const;
    int total() const;
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }

  private:
    mutable std::mutex mutex_;
    std::string what_;
    int done_ = 0, total_ = 0;
    std::atomic<bool> cancelled_{false};
};

class BackgroundJob {
  public:
    using Work = std::function<void(JobProgress&)>;
    // Starts `work` on a new thread; `title` is the progress line until the work reports.
    BackgroundJob(std::string title, Work work);
    ~BackgroundJob();  // cancel(), then waits for the thread
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    bool finished() const { return finished_; }
    void wait();  // blocks until the work returned or threw
    // Waits, then rethrows what the work threw (JobCancelled after a cancel it saw).
    void get();
    void cancel() { progress_.cancel(); }
    const std::string& title() const { return title_; }
    std::string progressLine() const;
    const JobProgress& progress() const { return progress_; }

  private:
    std::string title_;
    JobProgress progress_;
    std::exception_ptr error_;  // written by the worker before finished_
    std::atomic<bool> finished_{false};
    std::thread thread_;  // last: started once the members it uses exist
};

}  // namespace clviz
