// NbodyDemo's work off the frame: kernel builds and auto-tunes on a worker thread (a
// BackgroundJob) while the loop keeps drawing frames with a progress line, and the frame that
// sees the job done applies its result (issue 27: the window froze while they ran).
#include <utility>

#include "app/nbody/demo.hpp"
#include "app/nbody/report_progress.hpp"
#include "common/error.hpp"

namespace clviz {

bool NbodyDemo::workOffFrame() const {
    return !mpi_ && appWorksOffFrame(app_);
}

std::string NbodyDemo::progressLine() const {
    return job_.progressLine();
}

void NbodyDemo::startJob(const std::string& title, BackgroundJob::Work work,
                         std::function<void()> done, bool failureStopsDemo) {
    std::function<void(const std::string&)> failed;
    if (!failureStopsDemo) failed = [this](const std::string& why) { app_.error(why); };
    job_.start(workOffFrame(), title, std::move(work), std::move(done), std::move(failed));
}

bool NbodyDemo::finishJob(bool wait) {
    return job_.finish(wait);
}

bool NbodyDemo::systemReady() const {
    bool ready = true;
    system_->forEachDevice([&ready](NbodySimulation& s) { ready = ready && s.forceKernelReady(); });
    return ready;
}

// What the first step after a new N, variant or precision would do inside the frame: build the
// force kernel, and under auto tune each candidate variant first. Off the frame, on one device,
// the job also runs the force pass that step starts with (the step then finds it done) and the
// energy sums of the diagnostics without keeping them (the energy reference stays unset): PoCL
// compiles a kernel at its first launch (docs/benchmarks.md, "Frames during builds").
void NbodyDemo::prepareSystem() {
    NbodySystem* system = system_.get();
    const bool firstLaunches = workOffFrame() && system->deviceCount() == 1;
    const bool diagnostics = diagnosticsRunning();
    const std::string variant = variantName(sim_->kernelConfig().variant);
    startJob(
        "Building kernels: nbody_force (" + variant + ")",
        [system, firstLaunches, diagnostics](JobProgress& progress) {
            NbodyProgressReports reports(*system, progress);
            system->forEachDevice([](NbodySimulation& s) { s.effectiveKernelConfig(); });
            if (!firstLaunches) return;
            progress.report("Computing the first forces");
            system->primary().readAccelerations();
            if (diagnostics) {
                progress.report("Building kernels: nbody_diagnostics");
                system->primary().ownedDiagnosticSums();
            }
        },
        [] {});
}

}  // namespace clviz
