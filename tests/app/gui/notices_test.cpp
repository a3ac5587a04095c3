// Notices: a fixed kernel file's build errors are dropped (issue 27: the red notices stayed after
// the file was fixed), others stay.
#include "app/gui/notices.hpp"

#include <gtest/gtest.h>

namespace clviz {
namespace {

TEST(Notices, ResolvingAFileDropsOnlyItsErrors) {
    Notices n;
    n.add(true, "kernels/grayscale.cl: build failed:\nerror: ...", 0);
    n.add(true, "kernels/grayscale.cl: build failed again", 1);
    n.add(true, "cannot load image 'x.png'", 2);
    n.add(false, "kernels/grayscale.cl rebuilt", 3);
    EXPECT_EQ(n.errorCount(), 3);
    n.resolveErrorsMentioning("kernels/grayscale.cl");
    EXPECT_EQ(n.errorCount(), 1);
    n.resolveErrorsMentioning("");
    EXPECT_EQ(n.errorCount(), 1);
}

}  // namespace
}  // namespace clviz
