// The semaphore schedule of the external-memory path (compute/interop/semaphore_schedule.hpp):
// the exact steps of the bridge's frame, and, for thousands of random call patterns, the two
// properties the GPU needs: each side sees the other's last access before its own, and no binary
// semaphore is signalled twice (or waited on) without its partner operation between.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/interop/semaphore_schedule.hpp"

namespace clviz {
namespace {

using Steps = std::vector<SyncStep>;

// Replays the steps as the two APIs would see them and records any violation.
class Checker {
  public:
    explicit Checker(int slots) : slots_(std::size_t(slots)) {}

    void clAccess(SemaphoreSchedule& s, int slot) {
        apply(s.beforeCl(slot));
        Slot& x = slots_[std::size_t(slot)];
        if (x.clSawGl != x.glAccesses)
            fail("CL touched slot " + std::to_string(slot) +
                 " before GL's last access to it was waited for");
        ++x.clAccesses;
        apply(s.afterCl(slot));
    }
    void glAccess(SemaphoreSchedule& s, int slot) {
        apply(s.beforeGl(slot));
        Slot& x = slots_[std::size_t(slot)];
        if (x.glSawCl != x.clAccesses)
            fail("GL touched slot " + std::to_string(slot) +
                 " before CL's last access to it was waited for");
        ++x.glAccesses;
    }
    const std::vector<std::string>& errors() const { return errors_; }
    int operations() const { return operations_; }

  private:
    struct Slot {
        int clAccesses = 0, glAccesses = 0;
        int clSawGl = 0, glSawCl = 0;  // accesses of the other side each has waited for
        bool glToClPending = false, clToGlPending = false;
        int glToClCarries = 0, clToGlCarries = 0;  // accesses the pending signal covers
    };
    void fail(const std::string& what) { errors_.push_back(what); }
    void apply(const Steps& steps) {
        for (const SyncStep& st : steps) {
            ++operations_;
            Slot& x = slots_[std::size_t(st.slot)];
            switch (st.op) {
                case SyncOp::GlSignalToCl:
                    if (x.glToClPending) fail("gl->cl signalled twice");
                    x.glToClPending = true;
                    x.glToClCarries = x.glAccesses;
                    break;
                case SyncOp::ClWaitForGl:
                    if (!x.glToClPending) fail("CL waits on gl->cl with no signal");
                    x.glToClPending = false;
                    x.clSawGl = x.glToClCarries;
                    break;
                case SyncOp::ClSignalToGl:
                    if (x.clToGlPending) fail("cl->gl signalled twice");
                    x.clToGlPending = true;
                    x.clToGlCarries = x.clAccesses;
                    break;
                case SyncOp::GlWaitForCl:
                    if (!x.clToGlPending) fail("GL waits on cl->gl with no signal");
                    x.clToGlPending = false;
                    x.glSawCl = x.clToGlCarries;
                    break;
            }
        }
    }
    std::vector<Slot> slots_;
    std::vector<std::string> errors_;
    int operations_ = 0;
};

TEST(SemaphoreSchedule, FirstAccessesNeedNoWait) {
    SemaphoreSchedule s(3);
    EXPECT_EQ(s.beforeCl(0), Steps{});
    EXPECT_EQ(s.afterCl(0), (Steps{{SyncOp::ClSignalToGl, 0}}));
    EXPECT_EQ(s.beforeGl(1), Steps{});  // never written by CL: nothing to wait for
}

// The bridge's steady state with three slots and one frame of latency: each frame the copy into
// slot k waits for GL's draws of it three frames ago and signals; GL waits once per new slot.
TEST(SemaphoreSchedule, BridgeFrameIsFourOperations) {
    SemaphoreSchedule s(3);
    for (int k = 0; k < 3; ++k) {
        s.beforeCl(k);
        s.afterCl(k);
        if (k > 0) s.beforeGl(k - 1);
    }
    for (int frame = 3; frame < 30; ++frame) {
        const int slot = frame % 3;
        EXPECT_EQ(s.beforeCl(slot),
                  (Steps{{SyncOp::GlSignalToCl, slot}, {SyncOp::ClWaitForGl, slot}}));
        EXPECT_EQ(s.afterCl(slot), (Steps{{SyncOp::ClSignalToGl, slot}}));
        EXPECT_EQ(s.beforeGl((frame - 1) % 3), (Steps{{SyncOp::GlWaitForCl, (frame - 1) % 3}}));
        EXPECT_EQ(s.beforeGl((frame - 1) % 3), Steps{}) << "a second draw of the same data";
    }
}

// A slot CL overwrites before GL ever drew it: GL consumes the unwaited signal first, so the
// binary semaphore is never signalled twice.
TEST(SemaphoreSchedule, OverwriteBeforeDrawConsumesTheSignal) {
    SemaphoreSchedule s(1);
    s.beforeCl(0);
    s.afterCl(0);
    EXPECT_EQ(
        s.beforeCl(0),
        (Steps{{SyncOp::GlWaitForCl, 0}, {SyncOp::GlSignalToCl, 0}, {SyncOp::ClWaitForGl, 0}}));
    EXPECT_EQ(s.afterCl(0), (Steps{{SyncOp::ClSignalToGl, 0}}));
}

// The texture's round trip through one staging slot: GL writes, CL reads, CL writes, GL reads.
TEST(SemaphoreSchedule, TextureRoundTrip) {
    SemaphoreSchedule s(1);
    Checker c(1);
    c.glAccess(s, 0);  // glGetTexImage into the staging buffer
    c.clAccess(s, 0);  // CL copies it out
    c.clAccess(s, 0);  // CL copies the next result in
    c.glAccess(s, 0);  // glTexSubImage2D from it
    EXPECT_TRUE(c.errors().empty()) << c.errors().front();
}

TEST(SemaphoreSchedule, RandomCallPatternsKeepBothRules) {
    std::mt19937 rng(20261123);
    for (int trial = 0; trial < 2000; ++trial) {
        const int slots = 1 + int(rng() % 3);
        SemaphoreSchedule s(slots);
        Checker c(slots);
        const int calls = 1 + int(rng() % 40);
        for (int i = 0; i < calls; ++i) {
            const int slot = int(rng() % unsigned(slots));
            if (rng() % 2)
                c.clAccess(s, slot);
            else
                c.glAccess(s, slot);
        }
        ASSERT_TRUE(c.errors().empty()) << "trial " << trial << ": " << c.errors().front();
    }
}

// The checker itself catches both mistakes (so the test above can fail).
TEST(SemaphoreSchedule, CheckerCatchesAMissingWaitAndADoubleSignal) {
    SemaphoreSchedule real(1);
    Checker c(1);
    c.clAccess(real, 0);
    SemaphoreSchedule fresh(1);  // forgets that CL signalled: GL reads without waiting
    c.glAccess(fresh, 0);
    ASSERT_FALSE(c.errors().empty());
    EXPECT_NE(c.errors().front().find("before CL's last access"), std::string::npos);

    Checker d(1);
    SemaphoreSchedule a(1), b(1);
    d.clAccess(a, 0);
    d.clAccess(b, 0);  // a second schedule signals the same semaphore again
    ASSERT_FALSE(d.errors().empty());
    EXPECT_NE(d.errors().back().find("signalled twice"), std::string::npos);
}

TEST(SemaphoreSchedule, RefusesBadSlots) {
    EXPECT_THROW(SemaphoreSchedule(0), Error);
    SemaphoreSchedule s(2);
    EXPECT_THROW(s.beforeCl(2), Error);
    EXPECT_THROW(s.beforeGl(-1), Error);
}

}  // namespace
}  // namespace clviz
