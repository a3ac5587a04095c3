#pragma once
// A demo's work off the frame (issue 27): its start or a rebuild runs as a BackgroundJob while
// the loop draws frames with a centred progress line, and the frame that sees the job done
// applies its result on the frame's thread. Without the app's leave (AppServices::workOffFrame
// null or false: --frames, --seconds, tests) the work runs at once, inside the caller, so what the
// next frame sees is settled.
//
// Threading: the work must touch only what it was given (never GL, never a member the frame
// reads); `done` runs on the frame's thread after the work returned.
#include <functional>
#include <memory>
#include <string>

#include "app/demo.hpp"
#include "common/background_job.hpp"

namespace clviz {

class DemoJob {
  public:
    DemoJob() = default;
    ~DemoJob() { cancel(); }  // cancels and joins: quitting waits for the step in progress
    DemoJob(const DemoJob&) = delete;
    DemoJob& operator=(const DemoJob&) = delete;

    // Runs `work` off the frame when `offFrame`, else here and now followed by `done`. Throws
    // clviz::Error when a job already runs. With `failed`, a failure of the work off the frame
    // goes there (an error notice: the demo runs on) instead of out of finish().
    void start(bool offFrame, const std::string& title, BackgroundJob::Work work,
               std::function<void()> done,
               std::function<void(const std::string& why)> failed = nullptr);
    // Applies a finished job (runs its `done`); with `wait`, waits for it first. False while it
    // runs. Rethrows what the work threw, unless the job has `failed` (the job is gone either way).
    bool finish(bool wait);
    bool running() const { return job_ != nullptr; }
    // The job's "what (k of n)", "" when none runs.
    std::string progressLine() const;
    // Cancels the work at its next report and waits for it; `done` does not run.
    void cancel() { job_.reset(); }

  private:
    std::unique_ptr<BackgroundJob> job_;
    std::function<void()> done_;
    std::function<void(const std::string&)> failed_;
};

// The centred window that shows `line` while a demo's job runs (`id` names it for ImGui and for
// the layout: "<id>/text"); the window stays live, Esc quits and cancels the work.
void drawJobProgress(const FrameInfo& frame, const std::string& id, const std::string& line,
                     const char* hint);

// Whether the app lets `app`'s demo work off the frame now.
inline bool appWorksOffFrame(const AppServices& app) {
    return app.workOffFrame && app.workOffFrame();
}

}  // namespace clviz
