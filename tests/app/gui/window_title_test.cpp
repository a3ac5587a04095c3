// The window title carries the frame rate and the demo's main figure (issue 27: it never changed).
#include "app/gui/window_title.hpp"

#include <gtest/gtest.h>

namespace clviz {
namespace {

TEST(WindowTitle, NamesTheDemoTheFrameRateAndTheFigure) {
    EXPECT_EQ(windowTitle("N-body", 59.94, "N = 4096, 1.95 G interactions/s"),
              "clviz - N-body | 59.9 FPS | N = 4096, 1.95 G interactions/s");
}

TEST(WindowTitle, LeavesOutWhatIsNotKnownYet) {
    EXPECT_EQ(windowTitle("Image lab", 0, ""), "clviz - Image lab");
    EXPECT_EQ(windowTitle("", 0, ""), "clviz");
}

}  // namespace
}  // namespace clviz
