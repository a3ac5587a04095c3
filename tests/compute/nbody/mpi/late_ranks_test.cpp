// Which ranks a collective's time-out names, and who says so.
#include <gtest/gtest.h>

#include "compute/nbody/mpi/late_ranks.hpp"

namespace clviz {
namespace {

TEST(LateRanks, TheSilentRankIsMissingAndRankZeroSpeaks) {
    // Rank 0 waits in collective 7; rank 1 sent nothing.
    const LateRanksVerdict v = judgeLateRanks(0, 7, {7, -1});
    EXPECT_EQ(v.missing, std::vector<int>{1});
    EXPECT_EQ(v.speaker, 0);
    EXPECT_EQ(lateRanksMessage(v, "position exchange of step 812", 60),
              "rank 1 did not reach the position exchange of step 812 within 60 s (it exited, "
              "hung, or takes longer than that for a share of the work; --mpi-timeout raises the "
              "limit); ending the run");
}

TEST(LateRanks, WhenRankZeroIsMissingTheLowestPresentRankSpeaks) {
    const LateRanksVerdict v = judgeLateRanks(2, 4, {-1, 4, 4, -1});
    EXPECT_EQ(v.missing, (std::vector<int>{0, 3}));
    EXPECT_EQ(v.speaker, 1);
    const std::string m = lateRanksMessage(v, "sum of the diagnostics", 2.5);
    EXPECT_EQ(m.rfind("ranks 0 and 3 did not reach the sum of the diagnostics within 2.5 s (they "
                      "exited, hung, or take longer",
                      0),
              0u)
        << m;
}

TEST(LateRanks, ARankWaitingInAnotherCollectiveCountsAsMissing) {
    const LateRanksVerdict v = judgeLateRanks(1, 9, {9, 9, 8, 10, 9});
    EXPECT_EQ(v.missing, (std::vector<int>{2, 3}));
    EXPECT_EQ(v.speaker, 0);
    EXPECT_NE(
        lateRanksMessage(judgeLateRanks(0, 1, {1, -1, -1, -1}), "x", 1).find("ranks 1, 2 and 3"),
        std::string::npos);
}

TEST(LateRanks, EveryRankPresentSaysSoInsteadOfBlamingOne) {
    const LateRanksVerdict v = judgeLateRanks(1, 3, {3, 3});
    EXPECT_TRUE(v.missing.empty());
    EXPECT_EQ(v.speaker, 0);
    EXPECT_NE(lateRanksMessage(v, "gather of the bodies to rank 0", 60)
                  .find("did not complete within 60 s although every rank reached it"),
              std::string::npos);
}

TEST(LateRanks, OneRankAloneBlamesNobody) {
    const LateRanksVerdict v = judgeLateRanks(0, 1, {-1});  // its own entry does not matter
    EXPECT_TRUE(v.missing.empty());
    EXPECT_EQ(v.speaker, 0);
}

}  // namespace
}  // namespace clviz
