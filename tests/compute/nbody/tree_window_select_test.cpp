// The exact window select of the tree's split build (compute/nbody/tree/window_select.hpp, issue
// 32) against std::stable_sort on the host: for each kind of keys and each window [lo, hi), the
// output must be exactly the pairs of global ranks lo .. hi - 1 (their multiset) and in body order
// (stable), and the splitters those of ranks lo and hi.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/tree/window_select.hpp"
#include "tests/support/device_context.hpp"
#include "tests/support/error_message.hpp"
#include "tests/support/random_seed.hpp"

namespace clviz {
namespace {

using test::context;
using Keys = std::vector<unsigned long long>;

TreeWindowSelect& selector() {
    static TreeWindowSelect s(context());
    return s;
}

// Positions of `keys` in the global stable order (by key, ties in body order).
std::vector<unsigned> stableOrder(const Keys& keys) {
    std::vector<unsigned> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
    return order;
}

// The keys and index of n bodies on the device, and room for a window's output.
struct DeviceKeys {
    DeviceKeys(const Keys& k, const std::vector<unsigned>& index) : n(k.size()) {
        auto& cc = context();
        const std::size_t m = std::max<std::size_t>(n, 1);
        keys = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, m * 8);
        idx = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, m * 4);
        outKeys = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, m * 8);
        outIdx = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, m * 4);
        if (n == 0) return;
        cc.queue().enqueueWriteBuffer(keys, CL_TRUE, 0, n * 8, k.data());
        cc.queue().enqueueWriteBuffer(idx, CL_TRUE, 0, n * 4, index.data());
    }
    // The window's output pairs, read back.
    std::pair<Keys, std::vector<unsigned>> window(std::size_t lo, std::size_t hi) {
        selector().enqueue(keys, idx, n, lo, hi, outKeys, outIdx);
        Keys k(hi - lo);
        std::vector<unsigned> i(hi - lo);
        if (hi > lo) {
            context().queue().enqueueReadBuffer(outKeys, CL_TRUE, 0, k.size() * 8, k.data());
            context().queue().enqueueReadBuffer(outIdx, CL_TRUE, 0, i.size() * 4, i.data());
        }
        context().queue().finish();
        return {k, i};
    }
    std::size_t n;
    cl::Buffer keys, idx, outKeys, outIdx;
};

// Checks one window [lo, hi) of `keys` (index[i] the pair's index) against the host's stable sort
// `order`: the output's pairs are those of ranks lo .. hi - 1 (as a multiset) and come in body
// order; the splitters are the pairs of ranks lo and hi.
void checkWindow(DeviceKeys& dev, const Keys& keys, const std::vector<unsigned>& index,
                 const std::vector<unsigned>& order, std::size_t lo, std::size_t hi,
                 const std::string& what) {
    const std::string where = what + ", n = " + std::to_string(keys.size()) + ", window [" +
                              std::to_string(lo) + ", " + std::to_string(hi) + "), " +
                              test::seedNote();
    const auto [outKeys, outIndex] = dev.window(lo, hi);
    ASSERT_EQ(outKeys.size(), hi - lo) << where;
    // Positions of the window's pairs, in body order: the output must be these pairs, in this
    // order.
    std::vector<unsigned> positions(order.begin() + lo, order.begin() + hi);
    std::sort(positions.begin(), positions.end());
    // The multiset: the output's pairs sorted by (key, index) against the window's.
    std::vector<std::pair<unsigned long long, unsigned>> got, want;
    for (std::size_t j = 0; j < outKeys.size(); ++j)
        got.emplace_back(outKeys[j], outIndex[j]);
    for (unsigned p : positions)
        want.emplace_back(keys[p], index[p]);
    std::vector<std::pair<unsigned long long, unsigned>> gotSorted = got, wantSorted = want;
    std::sort(gotSorted.begin(), gotSorted.end());
    std::sort(wantSorted.begin(), wantSorted.end());
    ASSERT_EQ(gotSorted, wantSorted) << "not the window's pairs: " << where;
    // Body order (stable): the pairs as the window's positions list them in increasing order.
    ASSERT_EQ(got, want) << "not in body order: " << where;
    const auto [sLo, sHi] = selector().readSplitters();
    for (int t = 0; t < 2; ++t) {
        const std::size_t rank = t ? hi : lo;
        const WindowSplitter& s = t ? sHi : sLo;
        ASSERT_EQ(s.exists, rank < keys.size()) << "splitter " << t << ": " << where;
        if (!s.exists) continue;
        const unsigned p = order[rank];
        EXPECT_EQ(s.key, keys[p]) << "splitter " << t << ": " << where;
        EXPECT_EQ(s.index, index[p]) << "splitter " << t << ": " << where;
        EXPECT_EQ(s.below, static_cast<unsigned>(
                               std::lower_bound(order.begin(), order.end(), keys[p],
                                                [&](unsigned a, auto k) { return keys[a] < k; }) -
                               order.begin()))
            << "splitter " << t << ": " << where;
    }
}

// Keys of one kind: 63-bit random, few distinct values (long runs of ties), all equal, a dense
// core (most keys share their top 30 bits, as a Plummer sphere's do), the same in ascending order
// (bodies renumbered into the tree's order: the keys near a window's end fill whole tiles), keys
// differing only in their low 8 bits, and full 64-bit keys (the select takes any).
const char* const kKinds[] = {"63-bit",   "few values", "all equal", "dense core",
                              "in order", "low bits",   "64-bit"};

Keys makeKeys(const std::string& kind, std::size_t n, std::mt19937_64& rng) {
    if (kind == "in order") {
        Keys keys = makeKeys("dense core", n, rng);
        std::sort(keys.begin(), keys.end());
        return keys;
    }
    Keys keys(n);
    const unsigned long long core = (rng() >> 1) & ~((1ULL << 33) - 1);  // 30 bits of 63
    for (auto& k : keys) {
        const unsigned long long r = rng();
        if (kind == "63-bit")
            k = r >> 1;
        else if (kind == "few values")
            k = ((r % 5) << 40) | (r >> 60) % 3;
        else if (kind == "all equal")
            k = 0x5555555555555555ULL >> 1;
        else if (kind == "dense core")  // 90% in the core, whose low 33 bits vary
            k = (r % 10) ? core | ((r >> 8) & ((1ULL << 33) - 1)) : r >> 1;
        else if (kind == "low bits")
            k = 0x2aaaaaaaaaaaaa00ULL | (r & 0xff);
        else
            k = r;
    }
    return keys;
}

// Windows of n pairs worth checking: everything, the empty ones at both ends, one element at the
// ends, random ones (one-element, inside runs), and for runs of equal keys edges inside a run.
std::vector<std::pair<std::size_t, std::size_t>> windowsOf(const Keys& keys,
                                                           const std::vector<unsigned>& order,
                                                           std::mt19937_64& rng) {
    const std::size_t n = keys.size();
    std::vector<std::pair<std::size_t, std::size_t>> w = {
        {0, n}, {0, 0}, {n, n}, {0, 1 % (n + 1)}, {n - 1, n}};
    for (int i = 0; i < 3; ++i) {
        std::size_t a = rng() % (n + 1), b = rng() % (n + 1);
        if (a > b) std::swap(a, b);
        w.emplace_back(a, b);
        const std::size_t one = rng() % n;
        w.emplace_back(one, one + 1);
        w.emplace_back(one, one);
    }
    // Edges strictly inside a run of equal keys (ranks r with key(r - 1) == key(r) == key(r + 1)).
    std::vector<std::size_t> inside;
    for (std::size_t r = 1; r + 1 < n; ++r)
        if (keys[order[r - 1]] == keys[order[r]] && keys[order[r]] == keys[order[r + 1]])
            inside.push_back(r);
    if (!inside.empty()) {
        for (int i = 0; i < 3; ++i) {
            std::size_t a = inside[rng() % inside.size()], b = inside[rng() % inside.size()];
            if (a > b) std::swap(a, b);
            w.emplace_back(a, b);      // both edges in runs (maybe the same run)
            w.emplace_back(a, a + 1);  // one element inside a run
            w.emplace_back(0, b);
            w.emplace_back(a, n);
        }
    }
    return w;
}

constexpr std::size_t kSizes[] = {1, 2, 3, 127, 128, 129, 4099, 70001, 1000003};

TEST(TreeWindowSelect, WindowsMatchTheStableSort) {
    std::mt19937_64 rng(test::testSeed());
    for (std::size_t n : kSizes)
        for (const char* kind : kKinds) {
            const Keys keys = makeKeys(kind, n, rng);
            std::vector<unsigned> index(n);
            std::iota(index.begin(), index.end(), 0u);
            const std::vector<unsigned> order = stableOrder(keys);
            DeviceKeys dev(keys, index);
            for (const auto& [lo, hi] : windowsOf(keys, order, rng))
                ASSERT_NO_FATAL_FAILURE(checkWindow(dev, keys, index, order, lo, hi, kind));
        }
}

// P equal windows tiling [0, n), as P devices would take them: each window is right, and their
// outputs, concatenated and stably sorted by key, are the full stable sort.
TEST(TreeWindowSelect, EqualWindowsTileTheFullSort) {
    std::mt19937_64 rng(test::testSeed() + 1);
    for (std::size_t n : kSizes)
        for (const char* kind : kKinds)
            for (std::size_t parts : {2, 3, 8}) {
                const Keys keys = makeKeys(kind, n, rng);
                std::vector<unsigned> index(n);
                std::iota(index.begin(), index.end(), 0u);
                const std::vector<unsigned> order = stableOrder(keys);
                DeviceKeys dev(keys, index);
                std::vector<unsigned> all;
                for (std::size_t p = 0; p < parts; ++p) {
                    const std::size_t lo = n * p / parts, hi = n * (p + 1) / parts;
                    ASSERT_NO_FATAL_FAILURE(checkWindow(dev, keys, index, order, lo, hi, kind));
                    auto [k, i] = dev.window(lo, hi);
                    std::stable_sort(i.begin(), i.end(),
                                     [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
                    all.insert(all.end(), i.begin(), i.end());
                }
                ASSERT_EQ(all, order)
                    << kind << ", n = " << n << ", " << parts << " windows, " << test::seedNote();
            }
}

// index[] need not be the identity: ties go by body position (the stable sort's order), and each
// output pair carries its own index.
TEST(TreeWindowSelect, PairsCarryTheirIndex) {
    std::mt19937_64 rng(test::testSeed() + 2);
    for (std::size_t n : {129, 70001})
        for (const char* kind : {"few values", "63-bit"}) {
            const Keys keys = makeKeys(kind, n, rng);
            std::vector<unsigned> index(n);
            std::iota(index.begin(), index.end(), 0u);
            std::shuffle(index.begin(), index.end(), rng);
            const std::vector<unsigned> order = stableOrder(keys);
            DeviceKeys dev(keys, index);
            for (const auto& [lo, hi] : windowsOf(keys, order, rng))
                ASSERT_NO_FATAL_FAILURE(checkWindow(dev, keys, index, order, lo, hi, kind));
        }
}

// The cost: spread keys are listed after two full passes (the cheap path), all-equal keys never
// are (every pass and the count read every key); either way the same windows.
TEST(TreeWindowSelect, SpreadKeysTakeTheList) {
    std::mt19937_64 rng(test::testSeed() + 3);
    const std::size_t n = 1000003;
    for (const char* kind : {"63-bit", "dense core", "in order", "all equal"}) {
        const Keys keys = makeKeys(kind, n, rng);
        std::vector<unsigned> index(n);
        std::iota(index.begin(), index.end(), 0u);
        DeviceKeys dev(keys, index);
        dev.window(n / 3, 2 * n / 3);
        EXPECT_EQ(selector().lastUsedList(), std::string(kind) != "all equal") << kind;
        EXPECT_EQ(selector().events().size(), 8u);  // six passes, the counts, the scatter
    }
}

TEST(TreeWindowSelect, RefusesWindowsOutsideTheKeys) {
    DeviceKeys dev(Keys{3, 1, 2}, {0, 1, 2});
    EXPECT_CONTAINS(test::errorOf([&] { dev.window(2, 1); }), "window [2, 1)");
    EXPECT_CONTAINS(test::errorOf([&] { dev.window(0, 4); }), "not within 0 .. 3");
    EXPECT_CONTAINS(test::errorOf([&] { dev.window(4, 4); }), "not within");
    // n = 0: the empty window, and nothing enqueued.
    DeviceKeys none(Keys{}, {});
    EXPECT_NO_THROW(none.window(0, 0));
    EXPECT_TRUE(selector().events().empty());
}

}  // namespace
}  // namespace clviz
