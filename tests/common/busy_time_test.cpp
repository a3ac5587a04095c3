// Busy time over overlapping intervals: the union's length, never the sum.
#include <gtest/gtest.h>

#include "common/busy_time.hpp"

namespace clviz {
namespace {

TEST(BusyTime, IsTheUnionOfTheIntervals) {
    EXPECT_EQ(busyTime({}), 0);
    EXPECT_EQ(busyTime({{2, 5}}), 3);
    EXPECT_EQ(busyTime({{0, 1}, {2, 4}}), 3);                         // apart: the sum
    EXPECT_EQ(busyTime({{0, 10}, {2, 4}}), 10);                       // one inside another
    EXPECT_EQ(busyTime({{8, 20}, {0, 10}, {30, 31}}), 21);            // overlapping, out of order
    EXPECT_EQ(busyTime({{0, 2}, {2, 3}}), 3);                         // touching
    EXPECT_EQ(busyTime({{1, 1}, {1, 1}}), 0);                         // empty ones
    EXPECT_EQ(busyTime({{0, 12.5}, {0.5, 18.5}, {12.5, 18}}), 18.5);  // two queues' walk pieces
}

}  // namespace
}  // namespace clviz
