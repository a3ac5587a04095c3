// ThreadTeam runs one task per member at once, each run after the last has finished, and brings a
// task's exception back to the caller once every task has returned.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "common/thread_team.hpp"

namespace clviz {
namespace {

using namespace std::chrono_literals;

// Every member waits here for all the others: a team that ran its tasks one after another would
// never fill it, and the wait gives up (false) instead of hanging the test.
class Rendezvous {
  public:
    explicit Rendezvous(std::size_t members) : members_(members) {}
    bool arriveAndWait() {
        std::unique_lock lock(mutex_);
        if (++arrived_ == members_) all_.notify_all();
        return all_.wait_for(lock, 10s, [&] { return arrived_ == members_; });
    }

  private:
    std::mutex mutex_;
    std::condition_variable all_;
    std::size_t members_, arrived_ = 0;
};

TEST(ThreadTeam, EveryMemberRunsOnceAtTheSameTimeMemberZeroOnTheCaller) {
    for (std::size_t members : {2u, 3u, 5u}) {
        ThreadTeam team(members);
        EXPECT_EQ(team.size(), members);
        Rendezvous meet(members);
        std::vector<std::thread::id> ids(members);
        std::vector<int> runs(members, 0), met(members, 0);
        team.run([&](std::size_t m) {
            ids[m] = std::this_thread::get_id();
            ++runs[m];
            met[m] = meet.arriveAndWait();
        });
        EXPECT_EQ(ids[0], std::this_thread::get_id());
        EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), members);
        for (std::size_t m = 0; m < members; ++m) {
            EXPECT_EQ(runs[m], 1) << "member " << m;
            EXPECT_TRUE(met[m]) << "member " << m << " did not run at the same time as the others";
        }
    }
}

// What a member does in one run comes before all it does in the next (as commands enqueued on one
// device's queue must be), and a run starts only once the last has finished everywhere.
TEST(ThreadTeam, RunsFollowOneAnotherEachMembersWorkInOrder) {
    constexpr std::size_t kMembers = 4;
    constexpr int kRuns = 60;
    ThreadTeam team(kMembers);
    std::atomic<long> clock{0};
    std::vector<std::vector<int>> log(kMembers);  // each member's own: no lock
    std::vector<long> firstStart(kRuns, 1L << 40), lastEnd(kRuns, -1);
    std::mutex spans;
    for (int r = 0; r < kRuns; ++r) {
        team.run([&](std::size_t m) {
            const long start = clock++;
            if ((m + static_cast<std::size_t>(r)) % 3 == 0) std::this_thread::sleep_for(200us);
            log[m].push_back(r);
            const long end = clock++;
            std::lock_guard lock(spans);
            firstStart[r] = std::min(firstStart[r], start);
            lastEnd[r] = std::max(lastEnd[r], end);
        });
    }
    for (std::size_t m = 0; m < kMembers; ++m) {
        ASSERT_EQ(log[m].size(), static_cast<std::size_t>(kRuns)) << "member " << m;
        for (int r = 0; r < kRuns; ++r)
            EXPECT_EQ(log[m][r], r) << "member " << m;
    }
    for (int r = 0; r + 1 < kRuns; ++r)
        EXPECT_LT(lastEnd[r], firstStart[r + 1])
            << "run " << r + 1 << " began before " << r << " ended";
}

class OtherError : public Error {
  public:
    using Error::Error;
};

TEST(ThreadTeam, AFailedTaskIsRethrownOnTheCallerOnceEveryTaskHasReturned) {
    ThreadTeam team(3);
    std::atomic<bool> slowFinished{false};
    try {
        team.run([&](std::size_t m) {
            if (m == 1) throw OtherError("member 1 failed");
            if (m == 2) {
                std::this_thread::sleep_for(50ms);
                slowFinished = true;
            }
        });
        FAIL() << "the failure of member 1 was lost";
    } catch (const OtherError& e) {  // the type thrown, not a copy as a base
        EXPECT_STREQ(e.what(), "member 1 failed");
    }
    EXPECT_TRUE(slowFinished) << "run() returned while a task was still running";

    // Still usable: every member runs again, nothing left over from the failed run.
    std::vector<int> ran(3, 0);
    team.run([&](std::size_t m) { ran[m] = 1; });
    EXPECT_EQ(ran, std::vector<int>({1, 1, 1}));
}

TEST(ThreadTeam, TheLowestFailingMemberWins) {
    ThreadTeam team(4);
    const auto failing = [&](std::set<std::size_t> which) {
        try {
            team.run([&](std::size_t m) {
                if (which.count(m)) throw Error("member " + std::to_string(m));
            });
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("nothing thrown");
    };
    EXPECT_EQ(failing({3, 1, 2}), "member 1");
    EXPECT_EQ(failing({0, 3}), "member 0");
    EXPECT_EQ(failing({3}), "member 3");
    EXPECT_EQ(failing({}), "nothing thrown");
    // Not only clviz::Error: whatever a task throws comes back as it was.
    EXPECT_THROW(team.run([](std::size_t m) {
        if (m == 2) throw std::logic_error("a bug");
    }),
                 std::logic_error);
}

TEST(ThreadTeam, OneMemberRunsOnTheCallerAlone) {
    ThreadTeam team(1);
    std::thread::id id;
    team.run([&](std::size_t m) {
        EXPECT_EQ(m, 0u);
        id = std::this_thread::get_id();
    });
    EXPECT_EQ(id, std::this_thread::get_id());
    EXPECT_THROW(team.run([](std::size_t) { throw Error("alone"); }), Error);
    EXPECT_THROW(ThreadTeam(0), std::invalid_argument);
}

}  // namespace
}  // namespace clviz
