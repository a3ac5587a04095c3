#pragma once
// Which semaphore operations order GL's and CL's work on shared memory, slot by slot. Pure
// bookkeeping (no GL or CL here), so that every call pattern is unit-tested on any machine; the
// operations are carried out by ExternalSync (external_sync.hpp).
//
// Each slot has two binary semaphores: gl->cl (GL signals, CL waits) and cl->gl (CL signals, GL
// waits). The rules keep both correct for any order of calls:
//   - CL's work on a slot ends with a cl->gl signal; GL's next use of the slot waits on it first.
//   - GL signals gl->cl only when CL is about to touch the slot again, right after all the GL work
//     issued so far, and CL waits on it at once: GL's draws of the slot are then done before CL
//     overwrites it, without the CPU waiting for either.
//   - A binary semaphore is never signalled twice without a wait between: a cl->gl signal that GL
//     never waited on (the slot was overwritten before it was drawn) is consumed by a GL wait
//     before CL touches the slot again. Each gl->cl wait comes before CL's next cl->gl signal of
//     the slot, and GL waits on that before it signals gl->cl again, so no signal can overtake the
//     previous wait on the GPU either.
#include <vector>

namespace clviz {

enum class SyncOp {
    GlSignalToCl,  // glSignalSemaphoreEXT(gl->cl of the slot), then glFlush
    ClWaitForGl,   // clEnqueueWaitSemaphoresKHR(gl->cl of the slot)
    ClSignalToGl,  // clEnqueueSignalSemaphoresKHR(cl->gl of the slot), then clFlush
    GlWaitForCl,   // glWaitSemaphoreEXT(cl->gl of the slot) with the slot's GL objects
};

struct SyncStep {
    SyncOp op;
    int slot;
    bool operator==(const SyncStep& o) const { return op == o.op && slot == o.slot; }
};

class SemaphoreSchedule {
  public:
    explicit SemaphoreSchedule(int slots);

    // Before CL's commands that read or write `slot` are enqueued.
    std::vector<SyncStep> beforeCl(int slot);
    // After they are enqueued (and before anything else in GL touches the slot).
    std::vector<SyncStep> afterCl(int slot);
    // Before GL's commands that read or write `slot` are issued.
    std::vector<SyncStep> beforeGl(int slot);

    int slots() const { return int(clSignalled_.size()); }

  private:
    void check(int slot) const;
    std::vector<bool> clSignalled_;  // cl->gl signalled, GL has not waited yet
    std::vector<bool> glUsed_;       // GL touched the slot since CL last waited for it
};

}  // namespace clviz
