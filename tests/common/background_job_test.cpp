// BackgroundJob: the work runs on another thread and its progress ("what (k of n)") is readable
// while it runs; get() rethrows what the work threw; cancel() (and destroying the job) stops the
// work at its next report.
#include "common/background_job.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "common/error.hpp"

using namespace clviz;

namespace {

// Lets the test and the work take turns: each side waits for the other's step.
class Turns {
  public:
    void advanceTo(int step) {
        std::lock_guard<std::mutex> lock(mutex_);
        step_ = step;
        changed_.notify_all();
    }
    void waitFor(int step) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return step_ >= step; });
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int step_ = 0;
};

TEST(BackgroundJob, ProgressIsReadableWhileTheWorkRuns) {
    Turns turns;
    int result = 0;
    BackgroundJob job("Starting", [&](JobProgress& p) {
        for (int k = 1; k <= 3; ++k) {
            p.report("Building kernels: nbody_tree", k, 3);
            turns.advanceTo(2 * k - 1);  // the test reads this report
            turns.waitFor(2 * k);
        }
        p.report("Done");
        result = 42;
    });
    for (int k = 1; k <= 3; ++k) {
        turns.waitFor(2 * k - 1);
        EXPECT_FALSE(job.finished());
        EXPECT_EQ(job.progressLine(),
                  "Building kernels: nbody_tree (" + std::to_string(k) + " of 3)");
        EXPECT_EQ(job.progress().done(), k);
        EXPECT_EQ(job.progress().total(), 3);
        turns.advanceTo(2 * k);
    }
    job.get();
    EXPECT_TRUE(job.finished());
    EXPECT_EQ(job.progressLine(), "Done");  // no count: the bare line
    EXPECT_EQ(result, 42);                  // the work's captures are the result, read after get()
}

TEST(BackgroundJob, TheTitleShowsUntilTheFirstReport) {
    Turns turns;
    BackgroundJob job("Starting N-body", [&](JobProgress&) { turns.waitFor(1); });
    EXPECT_EQ(job.progressLine(), "Starting N-body");
    EXPECT_EQ(job.title(), "Starting N-body");
    turns.advanceTo(1);
    job.get();
}

TEST(BackgroundJob, GetRethrowsWhatTheWorkThrew) {
    BackgroundJob job("build", [](JobProgress& p) {
        p.report("Building kernels", 1, 2);
        throw Error("nbody_force.cl:3: error: use of undeclared identifier 'x'");
    });
    job.wait();
    EXPECT_TRUE(job.finished());
    try {
        job.get();
        FAIL() << "the build failure was lost";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("undeclared identifier"), std::string::npos);
    }
    // Again: the failure stays the job's answer.
    EXPECT_THROW(job.get(), Error);
}

TEST(BackgroundJob, CancelStopsTheWorkAtItsNextReport) {
    Turns turns;
    int reports = 0;
    BackgroundJob job("tune", [&](JobProgress& p) {
        for (int k = 0;; ++k) {  // never ends by itself
            p.report("Auto-tuning tiled", k, 1000);
            ++reports;
            if (k == 2) turns.advanceTo(1);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    turns.waitFor(1);
    job.cancel();
    EXPECT_TRUE(job.progress().cancelled());
    EXPECT_THROW(job.get(), JobCancelled);
    EXPECT_TRUE(job.finished());
    const int seen = reports;
    EXPECT_GE(seen, 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(reports, seen);  // nothing ran after the thread was joined
}

TEST(BackgroundJob, DestroyingARunningJobCancelsAndJoinsIt) {
    Turns turns;
    std::atomic<bool> unwound{false};
    {
        BackgroundJob job("build", [&](JobProgress& p) {
            struct Unwind {
                std::atomic<bool>& flag;
                ~Unwind() { flag = true; }
            } guard{unwound};
            turns.advanceTo(1);
            for (;;) {
                p.report("Building kernels");
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        turns.waitFor(1);
    }  // must return: the work sees the cancel at its next report
    EXPECT_TRUE(unwound);
}

TEST(BackgroundJob, AWorkThatNeverReportsStillFinishes) {
    BackgroundJob job("quick", [](JobProgress&) {});
    job.get();
    EXPECT_TRUE(job.finished());
    EXPECT_EQ(job.progressLine(), "quick");
}

}  // namespace
