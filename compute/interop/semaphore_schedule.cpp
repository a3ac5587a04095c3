#include "compute/interop/semaphore_schedule.hpp"

#include <string>

#include "common/error.hpp"

namespace clviz {

SemaphoreSchedule::SemaphoreSchedule(int slots) {
    if (slots < 1) throw Error("a semaphore schedule needs at least one slot");
    clSignalled_.assign(std::size_t(slots), false);
    glUsed_.assign(std::size_t(slots), false);
}

void SemaphoreSchedule::check(int slot) const {
    if (slot < 0 || slot >= slots())
        throw Error("semaphore schedule: slot " + std::to_string(slot) + " of " +
                    std::to_string(slots()));
}

std::vector<SyncStep> SemaphoreSchedule::beforeCl(int slot) {
    check(slot);
    std::vector<SyncStep> steps;
    const auto s = std::size_t(slot);
    if (clSignalled_[s]) {
        // CL's last signal was never waited on: consume it before CL signals again.
        steps.push_back({SyncOp::GlWaitForCl, slot});
        clSignalled_[s] = false;
        glUsed_[s] = true;
    }
    if (glUsed_[s]) {
        steps.push_back({SyncOp::GlSignalToCl, slot});
        steps.push_back({SyncOp::ClWaitForGl, slot});
        glUsed_[s] = false;
    }
    return steps;
}

std::vector<SyncStep> SemaphoreSchedule::afterCl(int slot) {
    check(slot);
    clSignalled_[std::size_t(slot)] = true;
    return {{SyncOp::ClSignalToGl, slot}};
}

std::vector<SyncStep> SemaphoreSchedule::beforeGl(int slot) {
    check(slot);
    std::vector<SyncStep> steps;
    const auto s = std::size_t(slot);
    if (clSignalled_[s]) {
        steps.push_back({SyncOp::GlWaitForCl, slot});
        clSignalled_[s] = false;
    }
    glUsed_[s] = true;
    return steps;
}

}  // namespace clviz
