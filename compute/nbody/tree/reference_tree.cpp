#include "compute/nbody/tree/reference_tree.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <thread>

namespace clviz {

namespace {

constexpr int kKeyBits = kTreeKeyBits;

std::uint64_t spread3(std::uint64_t v) {
    std::uint64_t r = 0;
    for (int b = 0; b < kKeyBits; ++b)
        r |= ((v >> b) & 1u) << (3 * b);
    return r;
}

std::uint64_t quantize(double x, double lo, double scale) {
    const double q = (x - lo) * scale;
    if (!(q > 0)) return 0;  // NaN too
    return static_cast<std::uint64_t>(std::min(q, double((1 << kKeyBits) - 1)));
}

// Common prefix of keys i and j with the index tie-break, -1 outside [0, n).
int prefix(const std::vector<std::uint64_t>& keys, long i, long j) {
    if (j < 0 || j >= static_cast<long>(keys.size())) return -1;
    if (keys[i] == keys[j]) return 64 + std::countl_zero(static_cast<std::uint32_t>(i ^ j));
    return std::countl_zero(keys[i] ^ keys[j]);
}

void buildRadixTree(const std::vector<std::uint64_t>& keys, ReferenceTree& t) {
    const long n = static_cast<long>(keys.size());
    t.children.assign(n > 1 ? n - 1 : 0, {});
    t.ranges.assign(t.children.size(), {});
    for (long i = 0; i + 1 < n; ++i) {
        const int d = prefix(keys, i, i + 1) - prefix(keys, i, i - 1) > 0 ? 1 : -1;
        const int minPrefix = prefix(keys, i, i - d);
        long lmax = 2;
        while (prefix(keys, i, i + lmax * d) > minPrefix)
            lmax <<= 1;
        long l = 0;
        for (long s = lmax >> 1; s >= 1; s >>= 1)
            if (prefix(keys, i, i + (l + s) * d) > minPrefix) l += s;
        const long j = i + l * d;
        const int nodePrefix = prefix(keys, i, j);
        long s = 0;
        for (long div = 2;; div <<= 1) {
            const long step = (l + div - 1) / div;
            if (prefix(keys, i, i + (s + step) * d) > nodePrefix) s += step;
            if (step <= 1) break;
        }
        const long split = i + s * d + std::min(d, 0);
        const long first = std::min(i, j), last = std::max(i, j);
        t.children[i] = {first == split ? ~int(split) : int(split),
                         last == split + 1 ? ~int(split + 1) : int(split + 1)};
        t.ranges[i] = {int(first), int(last)};
    }
}

// Bottom-up in post-order (explicit stack: the tree can be deep).
void computeMoments(const std::vector<std::array<double, 4>>& sorted, double theta,
                    ReferenceTree& t) {
    const std::size_t inner = t.children.size();
    t.com.assign(inner, {});
    t.quad.assign(inner, {});
    t.crit.assign(inner, 0);
    if (!inner) return;
    std::vector<std::array<double, 3>> lo(inner), hi(inner);
    std::vector<std::pair<int, bool>> stack{{0, false}};
    while (!stack.empty()) {
        auto [node, childrenDone] = stack.back();
        stack.pop_back();
        if (!childrenDone) {
            stack.push_back({node, true});
            for (int c : t.children[node])
                if (c >= 0) stack.push_back({c, false});
            continue;
        }
        std::array<double, 4> c[2];
        std::array<double, 6> q[2]{};
        std::array<double, 3> l[2], h[2];
        for (int k = 0; k < 2; ++k) {
            const int child = t.children[node][k];
            if (child < 0) {
                const auto& p = sorted[~child];
                c[k] = p;
                l[k] = h[k] = {p[0], p[1], p[2]};
            } else {
                c[k] = t.com[child];
                q[k] = t.quad[child];
                l[k] = lo[child];
                h[k] = hi[child];
            }
        }
        const double m = c[0][3] + c[1][3];
        double side = 0, offset2 = 0;
        for (int a = 0; a < 3; ++a) {
            lo[node][a] = std::fmin(l[0][a], l[1][a]);
            hi[node][a] = std::fmax(h[0][a], h[1][a]);
            const double centre = 0.5 * (lo[node][a] + hi[node][a]);
            t.com[node][a] = m > 0 ? (c[0][3] * c[0][a] + c[1][3] * c[1][a]) / m : centre;
            side = std::max(side, hi[node][a] - lo[node][a]);
            offset2 += (t.com[node][a] - centre) * (t.com[node][a] - centre);
        }
        t.com[node][3] = m;
        // Parallel-axis shift of each child's quadrupole to the new centre of mass.
        auto& Q = t.quad[node];
        for (int k = 0; k < 2; ++k) {
            const double d[3] = {c[k][0] - t.com[node][0], c[k][1] - t.com[node][1],
                                 c[k][2] - t.com[node][2]};
            const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], mk = c[k][3];
            Q[0] += q[k][0] + mk * (3 * d[0] * d[0] - d2);
            Q[1] += q[k][1] + mk * (3 * d[1] * d[1] - d2);
            Q[2] += q[k][2] + mk * (3 * d[2] * d[2] - d2);
            Q[3] += q[k][3] + mk * 3 * d[0] * d[1];
            Q[4] += q[k][4] + mk * 3 * d[0] * d[2];
            Q[5] += q[k][5] + mk * 3 * d[1] * d[2];
        }
        t.crit[node] = theta > 0 ? side / theta + std::sqrt(offset2) : INFINITY;
    }
}

void addForce(const std::array<double, 4>& p, const std::array<double, 4>& q, double eps2,
              std::array<double, 3>& a) {
    const double d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
    if (!(r2 > 0)) return;
    const double s = q[3] / (r2 * std::sqrt(r2));
    for (int k = 0; k < 3; ++k)
        a[k] += d[k] * s;
}

// A cell as a softened point mass plus its quadrupole: d = centre of mass - body, r^2 = |d|^2 +
// eps^2, a = M d / r^3 - Q d / r^5 + 5/2 (d^T Q d) d / r^7.
void addCellForce(const std::array<double, 4>& p, const std::array<double, 4>& c,
                  const std::array<double, 6>& Q, double eps2, std::array<double, 3>& a) {
    const double d[3] = {c[0] - p[0], c[1] - p[1], c[2] - p[2]};
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
    const double inv2 = 1 / r2, inv = std::sqrt(inv2), inv3 = inv * inv2, inv5 = inv3 * inv2;
    const double qd[3] = {Q[0] * d[0] + Q[3] * d[1] + Q[4] * d[2],
                          Q[3] * d[0] + Q[1] * d[1] + Q[5] * d[2],
                          Q[4] * d[0] + Q[5] * d[1] + Q[2] * d[2]};
    const double dqd = d[0] * qd[0] + d[1] * qd[1] + d[2] * qd[2];
    const double radial = c[3] * inv3 + 2.5 * dqd * inv5 * inv2;
    for (int k = 0; k < 3; ++k)
        a[k] += radial * d[k] - qd[k] * inv5;
}

// Walks the tree for sorted bodies [begin, end) (one group) and adds their accelerations.
void walkGroup(const std::vector<std::array<double, 4>>& sorted, const ReferenceTree& t,
               std::size_t begin, std::size_t end, double eps2, int leafSize,
               std::vector<std::array<double, 3>>& acc) {
    double glo[3] = {INFINITY, INFINITY, INFINITY}, ghi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t i = begin; i < end; ++i)
        for (int a = 0; a < 3; ++a) {
            glo[a] = std::fmin(glo[a], sorted[i][a]);
            ghi[a] = std::fmax(ghi[a], sorted[i][a]);
        }
    std::vector<std::array<double, 4>> list;
    std::vector<int> cells;
    std::vector<int> stack{t.children.empty() ? ~0 : 0};
    while (!stack.empty()) {
        const int node = stack.back();
        stack.pop_back();
        if (node < 0) {
            list.push_back(sorted[~node]);
            continue;
        }
        const auto& c = t.com[node];
        double d2 = 0;
        for (int a = 0; a < 3; ++a) {
            const double d = std::max({glo[a] - c[a], c[a] - ghi[a], 0.0});
            d2 += d * d;
        }
        if (d2 > t.crit[node] * t.crit[node]) {
            cells.push_back(node);
        } else if (t.ranges[node][1] - t.ranges[node][0] + 1 <= leafSize) {
            for (int k = t.ranges[node][0]; k <= t.ranges[node][1]; ++k)
                list.push_back(sorted[k]);
        } else {
            stack.push_back(t.children[node][0]);
            stack.push_back(t.children[node][1]);
        }
    }
    for (std::size_t i = begin; i < end; ++i) {
        std::array<double, 3> a{};
        for (const auto& q : list)
            addForce(sorted[i], q, eps2, a);
        for (int c : cells)
            addCellForce(sorted[i], t.com[c], t.quad[c], eps2, a);
        acc[i] = a;
    }
}

}  // namespace

std::vector<std::uint64_t> referenceMortonKeys(const std::vector<std::array<double, 4>>& pos) {
    const std::size_t n = pos.size();
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const auto& p : pos)
        if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]))
            for (int a = 0; a < 3; ++a) {
                lo[a] = std::min(lo[a], p[a]);
                hi[a] = std::max(hi[a], p[a]);
            }
    const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    const bool finiteBox = std::isfinite(extent);
    const double scale = finiteBox && extent > 0 ? ((1 << kKeyBits) - 1) / extent : 0;
    if (!finiteBox) lo[0] = lo[1] = lo[2] = 0;
    std::vector<std::uint64_t> keyOf(n);
    for (std::size_t i = 0; i < n; ++i)
        keyOf[i] = spread3(quantize(pos[i][0], lo[0], scale)) << 2 |
                   spread3(quantize(pos[i][1], lo[1], scale)) << 1 |
                   spread3(quantize(pos[i][2], lo[2], scale));
    return keyOf;
}

std::vector<std::array<double, 3>> referenceTreeForces(
    const std::vector<std::array<double, 4>>& pos, double softening,
    const ReferenceTreeOptions& options, ReferenceTree* out) {
    const std::size_t n = pos.size();
    if (!n) return {};
    const std::vector<std::uint64_t> keyOf = referenceMortonKeys(pos);

    ReferenceTree local;
    ReferenceTree& t = out ? *out : local;
    t.sortedIndex.resize(n);
    std::iota(t.sortedIndex.begin(), t.sortedIndex.end(), 0u);
    std::stable_sort(t.sortedIndex.begin(), t.sortedIndex.end(),
                     [&](unsigned a, unsigned b) { return keyOf[a] < keyOf[b]; });
    std::vector<std::uint64_t> keys(n);
    std::vector<std::array<double, 4>> sorted(n);
    for (std::size_t i = 0; i < n; ++i) {
        keys[i] = keyOf[t.sortedIndex[i]];
        sorted[i] = pos[t.sortedIndex[i]];
    }
    buildRadixTree(keys, t);
    computeMoments(sorted, options.theta, t);

    // Walk groups as on the device: the largest subtrees of at most groupSize bodies.
    const int groupSize = std::max(1, options.groupSize);
    std::vector<std::array<int, 2>> groups;
    std::vector<int> stack{t.children.empty() ? ~0 : 0};
    while (!stack.empty()) {
        const int node = stack.back();
        stack.pop_back();
        const std::array<int, 2> r = node < 0 ? std::array<int, 2>{~node, ~node} : t.ranges[node];
        if (r[1] - r[0] + 1 <= groupSize) {
            groups.push_back(r);
        } else {
            stack.push_back(t.children[node][0]);
            stack.push_back(t.children[node][1]);
        }
    }
    const double eps2 = softening * softening;
    std::vector<std::array<double, 3>> sortedAcc(n);
    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(groups.size())));
    auto work = [&](unsigned w) {
        for (std::size_t g = w; g < groups.size(); g += threads)
            walkGroup(sorted, t, groups[g][0], groups[g][1] + 1, eps2, options.leafSize, sortedAcc);
    };
    if (threads == 1) {
        work(0);
    } else {
        std::vector<std::thread> pool;
        for (unsigned w = 0; w < threads; ++w)
            pool.emplace_back(work, w);
        for (auto& th : pool)
            th.join();
    }
    std::vector<std::array<double, 3>> acc(n);
    for (std::size_t i = 0; i < n; ++i)
        acc[t.sortedIndex[i]] = sortedAcc[i];
    return acc;
}

}  // namespace clviz
