// The window-pair Gram (Covariance::enqueueWindowPairGramU8) against the exact Gram of the two
// windows copied out on the host and stacked: every shift of the partner rows that the kernel
// builds differently (delta % 16 of 0, 1, 4 and 15), windows off every alignment, one line high,
// one sample wide, chunks forced small so stages and chunks end inside the window; and the
// arguments it refuses.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "compute/linalg/covariance.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

struct Case {
    int width, lines, bands;
    int s0, l0, samples, rows;  // the window: rows x samples from (l0, s0)
    int chunks;
};

// The two windows, band-major: rows 0..B-1 at (l0 + l, s0 + s), rows B..2B-1 at (l + 1, s + 1).
std::vector<std::uint8_t> stackedWindows(const std::vector<std::uint8_t>& cube, int pitch,
                                         const Case& c) {
    const std::size_t n = std::size_t(c.samples) * c.rows;
    std::vector<std::uint8_t> out(2 * std::size_t(c.bands) * n);
    for (int b = 0; b < c.bands; ++b)
        for (int l = 0; l < c.rows; ++l)
            for (int s = 0; s < c.samples; ++s) {
                const std::size_t at =
                    std::size_t(b) * pitch + std::size_t(c.l0 + l) * c.width + c.s0 + s;
                const std::size_t i = std::size_t(l) * c.samples + s;
                out[std::size_t(b) * n + i] = cube[at];
                out[(std::size_t(c.bands) + b) * n + i] = cube[at + c.width + 1];
            }
    return out;
}

}  // namespace

TEST(CovarianceWindowPair, MatchesTheStackedWindowsExactly) {
    // Widths 15, 16, 19, 30: delta = width + 1 is 0, 1, 4 and 15 modulo 16.
    const Case cases[] = {{15, 9, 3, 0, 0, 14, 8, 0},    {16, 7, 5, 3, 1, 11, 5, 1},
                          {19, 23, 2, 0, 0, 18, 22, 2},  {30, 11, 4, 7, 3, 1, 6, 0},
                          {30, 11, 4, 2, 9, 27, 1, 0},   {19, 40, 67, 1, 2, 17, 37, 3},
                          {16, 300, 3, 0, 0, 15, 299, 5}};
    Covariance cov(context());
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.width) + " x " + std::to_string(c.lines) + " x " +
                     std::to_string(c.bands) + ", window " + std::to_string(c.samples) + " x " +
                     std::to_string(c.rows) + " at (" + std::to_string(c.s0) + ", " +
                     std::to_string(c.l0) + "), " + std::to_string(c.chunks) + " chunks");
        const int pixels = c.width * c.lines, pitch = (pixels + 15) / 16 * 16;
        auto cube = randomBytes(std::size_t(c.bands) * pitch + 32, c.width * 7 + c.bands);
        cl::Buffer dx = upload(cube);
        WindowPair w;
        w.begin = std::int64_t(c.l0) * c.width + c.s0;
        w.end = std::int64_t(c.l0 + c.rows - 1) * c.width + c.s0 + c.samples;
        w.period = c.width;
        w.first = c.s0;
        w.count = c.samples;
        w.delta = c.width + 1;
        GramU8Job job;
        cov.enqueueWindowPairGramU8(dx, c.bands, pitch, w, job, c.chunks);
        const GramU8 got = Covariance::finishGramU8(job);
        const std::vector<std::uint8_t> stacked = stackedWindows(cube, pitch, c);
        const GramU8 want =
            referenceGramU8(stacked.data(), 2 * c.bands, std::int64_t(c.samples) * c.rows);
        EXPECT_EQ(got.sums, want.sums) << seedNote();
        EXPECT_EQ(got.gram, want.gram) << seedNote();
    }
}

TEST(CovarianceWindowPair, RefusesBadWindows) {
    Covariance cov(context());
    cl::Buffer dx = upload(std::vector<std::uint8_t>(3 * 64 + 32, 1));
    GramU8Job job;
    WindowPair w;
    w.begin = 0;
    w.end = 40;
    w.period = 8;
    w.first = 0;
    w.count = 7;
    w.delta = 16;  // shift 0, the program the first test built
    EXPECT_NO_THROW(cov.enqueueWindowPairGramU8(dx, 3, 64, w, job));
    Covariance::finishGramU8(job);
    EXPECT_THROW(cov.enqueueWindowPairGramU8(dx, 3, 60, w, job), Error);  // pitch not 16-aligned
    WindowPair wide = w;
    wide.count = 9;  // past the period
    EXPECT_THROW(cov.enqueueWindowPairGramU8(dx, 3, 64, wide, job), Error);
    WindowPair far = w;
    far.delta = 80;  // the partners of the last band run past the buffer
    EXPECT_THROW(cov.enqueueWindowPairGramU8(dx, 3, 64, far, job), Error);
    WindowPair empty = w;
    empty.end = empty.begin;
    EXPECT_THROW(cov.enqueueWindowPairGramU8(dx, 3, 64, empty, job), Error);
    EXPECT_THROW(Covariance::finishGramU8(job), Error);  // nothing in flight
}
