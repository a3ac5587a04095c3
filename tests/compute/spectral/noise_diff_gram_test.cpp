// C_N of noise=diff on u8 cubes folded on the device (compute/spectral/noise_diff_gram.*): to the
// last bit against the same exact integer formula on the host (the stacked windows' 64-bit Gram
// matrix, noiseFromStackedGram), and within 1e-12 of a double reference of cov(Xa - Xb), at
// awkward shapes: 1, 2, 13, 37 and 224 bands (448 stacked rows), pixel counts off the 16-byte
// pitch and every tile, one chunk and many.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "common/error.hpp"
#include "common/parse.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/linalg/covariance.hpp"
#include "compute/spectral/mnf.hpp"
#include "compute/spectral/noise_diff_gram.hpp"
#include "tests/support/device_context.hpp"

using namespace clviz;

namespace {

using test::context;

struct Stacked {
    int bands = 0;
    std::int64_t n = 0, pitch = 0;
    std::vector<std::uint8_t> padded;  // 2 bands rows of pitch bytes (zeros past n)
    std::vector<std::uint8_t> packed;  // 2 bands rows of n bytes
};

// Xa and Xb as noise_diff_stack lays them out, from random u8 values; `span` bounds the values
// (255: the whole range, where the 32-bit partials come closest to overflowing).
Stacked randomWindows(int bands, std::int64_t n, int span, std::uint32_t seed) {
    Stacked s;
    s.bands = bands;
    s.n = n;
    s.pitch = std::int64_t(roundUp(std::size_t(n), 16));
    s.padded.assign(std::size_t(2 * bands) * s.pitch, 0);
    s.packed.assign(std::size_t(2 * bands) * n, 0);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(255 - span, 255);
    for (int r = 0; r < 2 * bands; ++r)
        for (std::int64_t p = 0; p < n; ++p) {
            const auto v = std::uint8_t(value(rng));
            s.padded[std::size_t(r) * s.pitch + p] = v;
            s.packed[std::size_t(r) * n + p] = v;
        }
    return s;
}

// C_N of noise=diff (before the 1/2) from the integer Gram matrix of the stacked windows
// [Xa; Xb] (2 bands rows): exact integer numerator, one rounding, on the host (SpectralMnf::run
// folds the same sums on the device: noise_diff_gram.hpp).
std::vector<double> noiseFromStackedGram(const GramU8& g, int bands, std::int64_t n) {
    // Rows i < B are Xa, rows B + i are Xb. With N = Xa - Xb:
    //   sum N_i N_j = Gaa_ij - Gab_ij - Gba_ij + Gbb_ij,   sum N_i = sa_i - sb_i,
    //   cov_ij = (n sum N_i N_j - sum N_i sum N_j) / (n (n - 1)).
    // Each Gram entry is at most 65025 n < 2^47 for n <= 2^31, so their sum fits 64 bits; n times
    // it and the product of two sums (each below 255 n) need up to 2^78: 128-bit integers.
    const std::size_t B = std::size_t(bands), W = 2 * B;
    std::vector<double> cov(B * B);
    const double denom = double(n) * double(n - 1);
    for (std::size_t i = 0; i < B; ++i)
        for (std::size_t j = i; j < B; ++j) {
            const std::int64_t gnn = g.gram[i * W + j] - g.gram[i * W + B + j] -
                                     g.gram[(B + i) * W + j] + g.gram[(B + i) * W + B + j];
            const std::int64_t si = g.sums[i] - g.sums[B + i], sj = g.sums[j] - g.sums[B + j];
            const __int128 num = __int128(n) * gnn - __int128(si) * sj;
            cov[i * B + j] = cov[j * B + i] = double(num) / denom;
        }
    return cov;
}

// cov(Xa - Xb) in double from the differences themselves.
std::vector<double> doubleReference(const Stacked& s) {
    const int B = s.bands;
    const std::int64_t n = s.n;
    std::vector<double> d(std::size_t(B) * n), mean(B, 0.0), cov(std::size_t(B) * B);
    for (int b = 0; b < B; ++b)
        for (std::int64_t p = 0; p < n; ++p) {
            d[std::size_t(b) * n + p] = double(s.packed[std::size_t(b) * n + p]) -
                                        double(s.packed[std::size_t(B + b) * n + p]);
            mean[b] += d[std::size_t(b) * n + p];
        }
    for (double& m : mean)
        m /= double(n);
    for (int i = 0; i < B; ++i)
        for (int j = 0; j < B; ++j) {
            double acc = 0;
            for (std::int64_t p = 0; p < n; ++p)
                acc +=
                    (d[std::size_t(i) * n + p] - mean[i]) * (d[std::size_t(j) * n + p] - mean[j]);
            cov[std::size_t(i) * B + j] = acc / double(n - 1);
        }
    return cov;
}

// C_N's numbers as the device gave them against the stacked windows `s`: the same integers as the
// host's exact formula, one rounding each, and (where `againstDouble`) within 1e-12 of the largest
// entry of cov(Xa - Xb) computed in double from the differences.
void expectExactAndNearDouble(const std::vector<double>& got, const Stacked& s,
                              bool againstDouble) {
    const std::vector<double> exact =
        noiseFromStackedGram(referenceGramU8(s.packed.data(), 2 * s.bands, s.n), s.bands, s.n);
    ASSERT_EQ(got.size(), exact.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], exact[i]) << "entry " << i;
    if (!againstDouble) return;
    const std::vector<double> ref = doubleReference(s);
    double scale = 0;
    for (double v : ref)
        scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], ref[i], 1e-12 * scale) << "entry " << i;
}

}  // namespace

TEST(NoiseDiffGram, MatchesTheStackedGramToTheLastBit) {
    ComputeContext& cc = context();
    Covariance covariance(cc);
    NoiseDiffGram diff(cc);  // one object for every shape: its buffers are reused and regrown
    struct Case {
        int bands;
        std::int64_t n;
        int span;
    };
    const Case cases[] = {{1, 2, 255}, {2, 40, 255},   {13, 97, 30},    {37, 1009, 255},
                          {13, 33, 4}, {224, 71, 255}, {2, 70001, 255}, {37, 16, 255}};
    std::uint32_t seed = 11;
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.bands) + " bands, " + std::to_string(c.n) + " pixels");
        const Stacked s = randomWindows(c.bands, c.n, c.span, seed++);
        cl::Buffer dx(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s.padded.size(),
                      const_cast<std::uint8_t*>(s.padded.data()));
        diff.enqueue(covariance, dx, c.bands, c.n, s.pitch);
        double ms = -1;
        diff.wait(&ms);
        EXPECT_GE(ms, 0.0);
        ASSERT_NO_FATAL_FAILURE(expectExactAndNearDouble(diff.covariance(), s, true));
    }
}

// A random cube (samples x lines, bands) with the values in [255 - span, 255], its band rows
// `pitch` apart, and the shifted window noise_diff_shift writes: y(p) = x(p + samples + 1), or
// x(p) at a line's last sample, for p < (lines - 1) samples.
struct CrossCase {
    int samples, lines, bands, span, chunks;
};

TEST(NoiseDiffGram, CrossProductIsExactAtAwkwardShapes) {
    ComputeContext& cc = context();
    NoiseDiffGram diff(cc);
    const CrossCase cases[] = {{3, 2, 1, 255, 0},   {41, 2, 2, 255, 0},    {17, 3, 13, 30, 3},
                               {47, 5, 37, 255, 0}, {13, 11, 224, 255, 0}, {1031, 37, 2, 255, 7},
                               {5, 4, 33, 255, 1},  {3, 9, 64, 0, 0}};
    std::uint32_t seed = 29;
    for (const CrossCase& c : cases) {
        SCOPED_TRACE(std::to_string(c.samples) + " x " + std::to_string(c.lines) + " x " +
                     std::to_string(c.bands) + ", " + std::to_string(c.chunks) + " chunks");
        ASSERT_GE(diff.crossStages(c.bands), 2);
        const std::int64_t S = c.samples, L = c.lines, pixels = S * L;
        const std::int64_t pitchX = std::int64_t(roundUp(std::size_t(pixels), 16));
        const std::int64_t samples = (L - 1) * S,
                           pitchY = std::int64_t(roundUp(std::size_t(samples), 16));
        const std::int64_t n = (L - 1) * (S - 1);
        std::vector<std::uint8_t> x(std::size_t(c.bands) * pitchX + 32, 0);
        std::vector<std::uint8_t> y(std::size_t(c.bands) * pitchY, 0);
        std::mt19937 rng(seed++);
        std::uniform_int_distribution<int> value(255 - c.span, 255);
        for (int b = 0; b < c.bands; ++b)
            for (std::int64_t p = 0; p < pixels; ++p)
                x[std::size_t(b) * pitchX + p] = std::uint8_t(value(rng));
        // The windows themselves, for the reference: Xa = X(l, s), Xb = X(l + 1, s + 1).
        Stacked s;
        s.bands = c.bands;
        s.n = n;
        s.packed.assign(std::size_t(2 * c.bands) * n, 0);
        for (int b = 0; b < c.bands; ++b) {
            const std::uint8_t* band = x.data() + std::size_t(b) * pitchX;
            for (std::int64_t p = 0; p < samples; ++p)
                y[std::size_t(b) * pitchY + p] = p % S == S - 1 ? band[p] : band[p + S + 1];
            std::int64_t k = 0;
            for (std::int64_t l = 0; l + 1 < L; ++l)
                for (std::int64_t j = 0; j + 1 < S; ++j, ++k) {
                    s.packed[std::size_t(b) * n + k] = band[l * S + j];
                    s.packed[std::size_t(c.bands + b) * n + k] = band[(l + 1) * S + j + 1];
                }
        }
        cl::Buffer dx(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size(), x.data());
        cl::Buffer dy(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, y.size(), y.data());
        diff.enqueueCross(dx, dy, c.bands, samples, n, pitchX, pitchY, c.chunks);
        diff.wait();
        // Constant bands (span 0): the exact check alone.
        ASSERT_NO_FATAL_FAILURE(expectExactAndNearDouble(diff.covariance(), s, c.span != 0));
    }
    EXPECT_EQ(diff.crossStages(225), 0);  // beyond the staged rows: the stacked route
    cl::Buffer small(cc.context(), CL_MEM_READ_ONLY, 64);
    EXPECT_THROW(diff.enqueueCross(small, small, 2, 16, 15, 17, 16), Error);  // unaligned pitch
}

TEST(NoiseDiffGram, RefusesMisuse) {
    NoiseDiffGram diff(context());
    EXPECT_THROW(diff.wait(), Error);
    EXPECT_THROW(diff.covariance(), Error);
}
