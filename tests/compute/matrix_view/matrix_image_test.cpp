// Matrix pictures against a host computation of the same colours: the diverging scale's ends and
// middle, saturation, a prime element count (no work-group multiple), the error overlay's log
// scale and its NaN colour, and the refusals.
#include "compute/matrix_view/matrix_image.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "tests/support/device_context.hpp"

namespace clviz {
namespace {

using test::context;

cl::Buffer upload(const std::vector<float>& v) {
    return cl::Buffer(context().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      v.size() * sizeof(float), const_cast<float*>(v.data()));
}

std::vector<std::uint8_t> download(const cl::Buffer& b, std::size_t pixels) {
    std::vector<std::uint8_t> out(pixels * 4);
    context().queue().enqueueReadBuffer(b, CL_TRUE, 0, out.size(), out.data());
    return out;
}

TEST(MatrixImage, DivergingColoursWithSaturation) {
    // 13 elements: prime, below one work-group.
    std::vector<float> m = {-2, -1, -0.5f, 0, 0.5f, 1, 2, 0, 0, 0, 0, 0, 0.25f};
    MatrixImage image(context());
    cl::Buffer rgba(context().context(), CL_MEM_READ_WRITE, m.size() * 4);
    image.colour(upload(m), m.size(), 1.0f, rgba).wait();
    const auto px = download(rgba, m.size());
    auto at = [&](int i, int c) { return int(px[std::size_t(i) * 4 + c]); };
    // -2 and -1 saturate to the same blue, 2 and 1 to the same red; 0 is near white.
    for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(at(0, c), at(1, c));
        EXPECT_EQ(at(6, c), at(5, c));
    }
    EXPECT_EQ(at(1, 0), int(0.17f * 255));
    EXPECT_EQ(at(1, 2), int(0.80f * 255));
    EXPECT_EQ(at(5, 0), int(0.80f * 255));
    EXPECT_EQ(at(3, 0), at(3, 2));
    EXPECT_GT(at(3, 1), 240);
    // Halfway is between white and the end colour; every pixel opaque.
    EXPECT_LT(at(4, 1), at(3, 1));
    EXPECT_GT(at(4, 1), at(5, 1));
    for (std::size_t i = 0; i < m.size(); ++i)
        EXPECT_EQ(at(int(i), 3), 255);
}

TEST(MatrixImage, ErrorOverlayIsLogScaled) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> ref = {1, 1, 1, 1, 1, 1, 1};
    std::vector<float> c = {1, 1 + 1e-8f, 1.0001f, 1.02f, 2, nan, 1.000001f};
    MatrixImage image(context());
    cl::Buffer rgba(context().context(), CL_MEM_READ_WRITE, c.size() * 4);
    image.error(upload(c), upload(ref), c.size(), 1.0f, rgba).wait();
    const auto px = download(rgba, c.size());
    auto alpha = [&](int i) { return int(px[std::size_t(i) * 4 + 3]); };
    EXPECT_EQ(alpha(0), 0);         // exact
    EXPECT_EQ(alpha(1), 0);         // below 1e-8 (rounds to 1 in float anyway)
    EXPECT_GT(alpha(6), 0);         // 1e-6
    EXPECT_GT(alpha(2), alpha(6));  // 1e-4 > 1e-6
    EXPECT_EQ(alpha(3), 230);       // 2e-2: saturated
    EXPECT_EQ(alpha(4), 230);
    EXPECT_EQ(px[5 * 4 + 0], 255);  // NaN: magenta
    EXPECT_EQ(px[5 * 4 + 1], 0);
    EXPECT_EQ(px[5 * 4 + 2], 255);
    EXPECT_EQ(alpha(5), 255);
}

TEST(MatrixImage, RefusesBadArguments) {
    MatrixImage image(context());
    std::vector<float> m(8, 0.0f);
    cl::Buffer small(context().context(), CL_MEM_READ_WRITE, 8 * 4);
    const cl::Buffer mb = upload(m);
    EXPECT_THROW(image.colour(mb, 8, 0.0f, small), Error);
    EXPECT_THROW(image.colour(mb, 8, std::nanf(""), small), Error);
    EXPECT_THROW(image.colour(mb, 0, 1.0f, small), Error);
    EXPECT_THROW(image.colour(mb, 9, 1.0f, small), Error);  // 9 floats in an 8-float buffer
    EXPECT_THROW(image.error(mb, mb, 9, 1.0f, small), Error);
}

}  // namespace
}  // namespace clviz
