// The Kernels panel's log reader: finds the source line in PoCL/clang and NVIDIA build logs.
#include <gtest/gtest.h>

#include "app/gui/kernels_panel.hpp"

using namespace clviz;

TEST(KernelsPanel, FindsTheLineInCompilerLogs) {
    const LogMark pocl = parseLogLine("error: kernels/grayscale.cl:6:30: expected expression");
    EXPECT_EQ(pocl.line, 6);
    EXPECT_TRUE(pocl.error);
    const LogMark nvidia = parseLogLine("kernels/rotate.cl:112:5: error: use of undeclared 'x'");
    EXPECT_EQ(nvidia.line, 112);
    EXPECT_TRUE(nvidia.error);
    const LogMark warning = parseLogLine("kernels/a.cl:3:1: warning: unused variable 'y'");
    EXPECT_EQ(warning.line, 3);
    EXPECT_FALSE(warning.error);
}

TEST(KernelsPanel, NamesTheFileOfTheLineHeadersIncluded) {
    EXPECT_EQ(parseLogLine("error: kernels/common/real.clh:12:3: expected ';'").file,
              "common/real.clh");
    EXPECT_EQ(parseLogLine("kernels/nbody_force.cl:40:1: error: x").file, "nbody_force.cl");
    EXPECT_EQ(parseLogLine("<kernel>:6:30: error: x").file, "");  // the caller's file then
}

TEST(KernelsPanel, OtherLinesAreNotMarked) {
    EXPECT_EQ(parseLogLine("1 error generated.").line, 0);
    EXPECT_EQ(parseLogLine("  options: -DWG=256 -DUNROLL=4").line, 0);
    EXPECT_EQ(parseLogLine("kernels/a.cl:3:1: note: expanded from macro").line, 0);
    EXPECT_EQ(parseLogLine("").line, 0);
    EXPECT_EQ(parseLogLine("error: no position here").line, 0);
}

// Issue 27: the panel puts a caret under the column the compiler names.
TEST(KernelsPanel, FindsTheColumnWhereTheLogHasOne) {
    EXPECT_EQ(parseLogLine("error: kernels/grayscale.cl:6:30: expected expression").column, 30);
    EXPECT_EQ(parseLogLine("kernels/rotate.cl:112:5: error: use of undeclared 'x'").column, 5);
    EXPECT_EQ(parseLogLine("kernels/a.cl:7: error: no column").column, 0);
}
