// The charts' label placement (spreadLabelRows): labels of lines that end at the same point are
// stacked instead of drawn over each other, inside the plot area, and labels that do not share
// columns stay where they are.
#include <gtest/gtest.h>

#include <vector>

#include "app/linalg/log_chart.hpp"

namespace clviz {
namespace {

bool overlap(const LabelBox& a, float ya, const LabelBox& b, float yb) {
    return a.x < b.x + b.w && b.x < a.x + a.w && ya < yb + b.h && yb < ya + a.h;
}

TEST(SpreadLabelRows, LabelsApartStayWhereTheyAre) {
    const std::vector<LabelBox> boxes = {{10, 20, 50, 10}, {10, 40, 50, 10}, {100, 20, 50, 10}};
    EXPECT_EQ(spreadLabelRows(boxes, 0, 200), (std::vector<float>{20, 40, 20}));
}

TEST(SpreadLabelRows, LabelsAtOnePointStackInTheirOrder) {
    // Three lines ending at the same point, and one in another column at the same height.
    const std::vector<LabelBox> boxes = {
        {10, 50, 60, 12}, {20, 50, 40, 12}, {15, 52, 50, 12}, {200, 50, 40, 12}};
    const std::vector<float> y = spreadLabelRows(boxes, 0, 200);
    EXPECT_FLOAT_EQ(y[0], 50);
    EXPECT_FLOAT_EQ(y[1], 62);
    EXPECT_FLOAT_EQ(y[2], 74);
    EXPECT_FLOAT_EQ(y[3], 50) << "another column never moves";
}

TEST(SpreadLabelRows, AStackPastTheBottomMovesUpAndKeepsApart) {
    const std::vector<LabelBox> boxes = {{0, 90, 30, 10}, {5, 92, 30, 10}, {10, 95, 30, 10}};
    const std::vector<float> y = spreadLabelRows(boxes, 0, 100);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_GE(y[i], 0);
        EXPECT_LE(y[i] + boxes[i].h, 100) << i;
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(overlap(boxes[i], y[i], boxes[j], y[j])) << i << " over " << j;
    }
    EXPECT_FLOAT_EQ(y[2], 90) << "the last one at the bottom";
}

TEST(SpreadLabelRows, TooLittleRoomKeepsEveryLabelInsideTheArea) {
    const std::vector<LabelBox> boxes = {{0, 0, 30, 10}, {0, 0, 30, 10}, {0, 0, 30, 10}};
    for (float y : spreadLabelRows(boxes, 0, 15)) {
        EXPECT_GE(y, 0);
        EXPECT_LE(y, 15);
    }
    EXPECT_TRUE(spreadLabelRows({}, 0, 10).empty());
}

}  // namespace
}  // namespace clviz
