#pragma once
// Live kernel reload: watches the kernel directory and its subfolders, rebuilds the programs of
// every changed .cl file, and of every program that includes a changed .clh header, on a worker
// thread (with every option set it is in use with), and installs the new builds
// into the ProgramCache when the owner polls, at a frame boundary. A file's builds are installed
// all together or not at all: a build error keeps the last good build running and is reported
// with the compiler's log. Demos then fetch fresh kernels (ProgramCache::generation()) and keep
// their state.
//
// Threading: construct, poll() and destroy on the thread that runs the kernels. The worker only
// calls clCreateProgramWith*/clBuildProgram, which OpenCL allows from any thread; it never
// touches the queue.
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/file_watcher.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

struct KernelReloadEvent {
    std::string file;        // "grayscale.cl"
    bool ok = true;          // false: the running build stays
    bool installed = false;  // new programs went into the cache (demos must fetch kernels)
    std::string message;     // "kernels/grayscale.cl rebuilt ..." or the error with the build log
};

class KernelReloader {
  public:
    // Watches `directory` (what kernelSource() reads; throws clviz::Error if it is not one) and
    // the subfolders it has now (kernels/common/).
    KernelReloader(ProgramCache& cache, std::string directory, bool forcePolling = false);
    ~KernelReloader();  // a build under way finishes first
    KernelReloader(const KernelReloader&) = delete;
    KernelReloader& operator=(const KernelReloader&) = delete;

    // Starts builds for files changed since the last call and installs finished ones; returns
    // what happened. Never blocks on a build.
    std::vector<KernelReloadEvent> poll();
    // Rebuilds every program in the cache from `directory` now (the directory just changed):
    // only files whose source differs from the running build's are rebuilt.
    void reloadAll();
    // Test hook: polls until at least one reload finished (installed or failed) or `seconds`
    // passed; blocks the caller meanwhile.
    std::vector<KernelReloadEvent> waitForReload(double seconds);

    bool busy() const;  // changes seen, or builds queued or running
    const std::string& directory() const { return directory_; }
    std::string mechanism() const { return watchers_.front().second->mechanism(); }

  private:
    struct Job {
        std::string file, source;
        std::vector<std::string> includes, options;
    };
    struct Done {
        std::string file;
        std::map<std::string, ProgramBuild> builds;
    };
    // Rebuilds, where its text changed, every built program that is or includes `changed`.
    void enqueueDependents(const std::string& changed, std::vector<KernelReloadEvent>& events);
    void enqueue(const std::string& file, std::vector<KernelReloadEvent>& events);
    void work();

    ProgramCache& cache_;
    std::string directory_;
    // One watcher per folder, with the folder's path under directory_ ("" or "common/").
    std::vector<std::pair<std::string, std::unique_ptr<FileWatcher>>> watchers_;
    // Every file each program asked for when last read here, so that a header whose absence
    // broke a rebuild brings the rebuild back when it appears.
    std::map<std::string, std::vector<std::string>> lastRead_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    std::deque<Done> done_;
    int running_ = 0;
    bool stop_ = false;
    std::thread worker_;
};

}  // namespace clviz
