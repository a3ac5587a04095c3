#include "app/gui/demo_job.hpp"

#include <imgui.h>

#include <utility>

#include "app/gui/layout.hpp"
#include "common/error.hpp"

namespace clviz {

void DemoJob::start(bool offFrame, const std::string& title, BackgroundJob::Work work,
                    std::function<void()> done,
                    std::function<void(const std::string& why)> failed) {
    if (job_) throw Error("cannot start '" + title + "' while '" + job_->title() + "' runs");
    if (!offFrame) {
        JobProgress progress;
        work(progress);
        done();
        return;
    }
    done_ = std::move(done);
    failed_ = std::move(failed);
    job_ = std::make_unique<BackgroundJob>(title, std::move(work));
}

bool DemoJob::finish(bool wait) {
    if (!job_) return true;
    if (!wait && !job_->finished()) return false;
    const std::unique_ptr<BackgroundJob> job = std::move(job_);
    const std::function<void()> done = std::move(done_);
    const std::function<void(const std::string&)> failed = std::move(failed_);
    done_ = nullptr;
    failed_ = nullptr;
    try {
        job->get();
    } catch (const std::exception& e) {
        if (!failed) throw;
        failed(e.what());
        return true;
    }
    done();
    return true;
}

std::string DemoJob::progressLine() const {
    return job_ ? job_->progressLine() : std::string();
}

void drawJobProgress(const FrameInfo& frame, const std::string& id, const std::string& line,
                     const char* hint) {
    ImGui::SetNextWindowPos(ImVec2(frame.framebufferWidth * 0.5f, frame.framebufferHeight * 0.5f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::Begin(id.c_str(), nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs);
    ImGui::TextUnformatted(line.c_str());
    noteGuiItem(id + "/text");
    if (hint) ImGui::TextDisabled("%s", hint);
    ImGui::End();
}

}  // namespace clviz
