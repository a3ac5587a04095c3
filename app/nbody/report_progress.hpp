#pragma once
// Sends a system's progress (auto-tune candidates, k of n) to a background job's line while it
// lives; a cancelled job's report throws JobCancelled, which unwinds the tune.
#include <string>

#include "common/background_job.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/system.hpp"

namespace clviz {

class NbodyProgressReports {
  public:
    NbodyProgressReports(NbodySystem& system, JobProgress& progress) : system_(system) {
        system_.forEachDevice([&progress](NbodySimulation& s) {
            s.setProgress([&progress](const std::string& what, int done, int total) {
                progress.report(what, done, total);
            });
        });
    }
    ~NbodyProgressReports() {
        system_.forEachDevice([](NbodySimulation& s) { s.setProgress(nullptr); });
    }
    NbodyProgressReports(const NbodyProgressReports&) = delete;
    NbodyProgressReports& operator=(const NbodyProgressReports&) = delete;

  private:
    NbodySystem& system_;
};

}  // namespace clviz
