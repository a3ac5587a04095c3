// Probe for issue 32 (not part of the CMake build; built like tree_phases.cpp, runs on any OpenCL
// device, PoCL too): how much of the tree a device's walk reads outside its own Morton domain, i.e.
// what a split build (local essential trees between the devices of one process) would have to
// send each device every step. The tree is the device's own (TreeForce, the group walk's shape);
// the walk is replayed on the host with the kernel's rules: a walk group (subtree of at most 128
// bodies) pops nodes from the root; a cell whose opening radius (side / theta + offset of its
// centre of mass) is smaller than its distance to the group's box is accepted (read once: a list
// cell or the far field), a cell of at most LEAF bodies that must be opened lists its bodies, any
// other pushes its children. Over the groups that hold a body of domain d (the sorted bodies cut
// in P equal ranges), it counts the nodes popped whose bodies all lie outside the domain and the
// outside bodies listed: the remote nodes and bodies that device would need.
// Usage: LET_THETA=0.5 LET_DEVICES=4 LET_PRESET=plummer let-size N...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/tree/tree_force.hpp"
using namespace clviz;

namespace {

struct Box {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    void add(const Box& b) {
        for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], b.lo[k]), hi[k] = std::max(hi[k], b.hi[k]);
    }
    void add(const Float4& p) {
        const float v[3] = {p.x, p.y, p.z};
        for (int k = 0; k < 3; ++k)
            lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
    }
};

std::string env(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v ? v : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    const float theta = std::stof(env("LET_THETA", "0.5"));
    const int devices = std::stoi(env("LET_DEVICES", "4"));
    const NbodyPreset preset = parsePreset(env("LET_PRESET", "plummer"));
    constexpr int kGroup = 128, kLeaf = 4;
    auto cc = ComputeContext::create(DeviceRequest{});
    std::printf("device: %s; theta %.2f, %d domains, preset %s\n", cc->info().name.c_str(), theta,
                devices, env("LET_PRESET", "plummer").c_str());
    for (int a = 1; a < argc; ++a) {
        const std::size_t n = std::strtoull(argv[a], nullptr, 10);
        const auto bodies = makePreset(preset, n, 1);
        std::vector<Float4> pos;
        for (const auto& b : bodies)
            pos.push_back(b.pos);
        TreeForceOptions o{TreeWalk::Group};
        TreeForce tree(*cc, o);
        tree.setTheta(theta);
        cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cl::Buffer accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
        cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
        tree.compute(posBuf, n, presetInfo(preset).softening, accBuf);
        const TreeSnapshot t = tree.readTree();
        const std::size_t inner = t.children.size();
        std::vector<Float4> sorted(n);
        for (std::size_t k = 0; k < n; ++k)
            sorted[k] = pos[t.sortedIndex[k]];

        // Node boxes bottom-up (a radix tree's children are not numbered after their parents:
        // an explicit post-order), then each node's opening radius as the moments kernel makes it.
        std::vector<Box> box(inner);
        std::vector<char> done(inner, 0);
        std::vector<int> stack{0};
        while (!stack.empty()) {
            const int i = stack.back();
            const auto [l, r] = t.children[i];
            const bool ready = (l < 0 || done[l]) && (r < 0 || done[r]);
            if (!ready) {
                if (l >= 0 && !done[l]) stack.push_back(l);
                if (r >= 0 && !done[r]) stack.push_back(r);
                continue;
            }
            stack.pop_back();
            for (int c : {l, r}) {
                if (c < 0)
                    box[i].add(sorted[~c]);
                else
                    box[i].add(box[c]);
            }
            done[i] = 1;
        }
        std::vector<float> crit(inner);
        for (std::size_t i = 0; i < inner; ++i) {
            float side = 0, off2 = 0;
            const float c[3] = {t.com[4 * i], t.com[4 * i + 1], t.com[4 * i + 2]};
            for (int k = 0; k < 3; ++k) {
                side = std::max(side, box[i].hi[k] - box[i].lo[k]);
                const float centre = 0.5f * (box[i].lo[k] + box[i].hi[k]);
                off2 += (c[k] - centre) * (c[k] - centre);
            }
            crit[i] = side / theta + std::sqrt(off2);
        }

        // Walk groups as find_groups makes them: subtrees of at most kGroup bodies.
        std::vector<std::pair<int, int>> groups;  // (node, or ~body for a one-body group; unused)
        stack = {0};
        while (!stack.empty()) {
            const int i = stack.back();
            stack.pop_back();
            const auto [x, y] = t.ranges[i];
            if (y - x + 1 <= kGroup) {
                groups.push_back({i, 0});
                continue;
            }
            for (int c : {t.children[i].first, t.children[i].second}) {
                if (c < 0)
                    groups.push_back({c, 0});
                else if (t.ranges[c].second - t.ranges[c].first + 1 <= kGroup)
                    groups.push_back({c, 0});
                else
                    stack.push_back(c);
            }
        }

        // Per domain: the walk of every group holding one of its bodies, remote reads marked.
        struct Count {
            std::size_t nodes = 0, remoteNodes = 0, remoteBodies = 0;
        };
        std::vector<Count> counts(devices);
        auto domainWalk = [&](int d) {
            const std::size_t b = n * d / devices, e = n * (d + 1) / devices;
            std::vector<char> nodeSeen(inner, 0), bodySeen(n, 0);
            std::vector<int> st;
            Count& out = counts[d];
            auto remoteBody = [&](int k) {
                if ((std::size_t(k) < b || std::size_t(k) >= e) && !bodySeen[k]) {
                    bodySeen[k] = 1;
                    ++out.remoteBodies;
                }
            };
            for (const auto& [g, unused] : groups) {
                const int gx = g < 0 ? ~g : t.ranges[g].first, gy = g < 0 ? ~g : t.ranges[g].second;
                if (std::size_t(gy) < b || std::size_t(gx) >= e) continue;
                Box gb;
                if (g < 0)
                    gb.add(sorted[~g]);
                else
                    gb = box[g];
                st.assign(1, 0);
                while (!st.empty()) {
                    const int node = st.back();
                    st.pop_back();
                    if (node < 0) {
                        remoteBody(~node);
                        continue;
                    }
                    const auto [x, y] = t.ranges[node];
                    const bool remote = std::size_t(y) < b || std::size_t(x) >= e;
                    if (!nodeSeen[node]) {
                        nodeSeen[node] = 1;
                        ++out.nodes;
                        if (remote) ++out.remoteNodes;
                    }
                    float d2 = 0;
                    for (int k = 0; k < 3; ++k) {
                        const float c = t.com[4 * node + k];
                        const float dk = std::max(std::max(gb.lo[k] - c, c - gb.hi[k]), 0.0f);
                        d2 += dk * dk;
                    }
                    if (d2 > crit[node] * crit[node]) continue;  // accepted: read once
                    if (y - x + 1 <= kLeaf) {
                        for (int k = x; k <= y; ++k)
                            remoteBody(k);
                        continue;
                    }
                    st.push_back(t.children[node].first);
                    st.push_back(t.children[node].second);
                }
            }
        };
        std::vector<std::thread> threads;
        for (int d = 0; d < devices; ++d)
            threads.emplace_back(domainWalk, d);
        for (auto& th : threads)
            th.join();
        // What a remote node would carry: centre of mass and mass, the quadrupole (6 floats),
        // the box with the far field's extent (8), the opening radius, children and range (5).
        constexpr double kNodeBytes = 4.0 * (4 + 6 + 8 + 1 + 4), kBodyBytes = 16;
        std::printf("N=%zu: %zu nodes, %zu walk groups\n", n, inner, groups.size());
        for (int d = 0; d < devices; ++d) {
            const Count& c = counts[d];
            const double mib =
                (c.remoteNodes * kNodeBytes + c.remoteBodies * kBodyBytes) / 1048576.0;
            std::printf(
                "  domain %d: nodes read %zu (%.1f%% of the tree), of them remote %zu (%.1f%% of "
                "the others' %zu); remote bodies listed %zu (%.1f%% of the others'); a LET of "
                "%.1f MiB (%.0f bytes a node) against the %.1f MiB of accelerations it receives "
                "now\n",
                d, c.nodes, 100.0 * c.nodes / inner, c.remoteNodes,
                100.0 * c.remoteNodes / (inner * (devices - 1.0) / devices),
                std::size_t(inner * (devices - 1.0) / devices), c.remoteBodies,
                100.0 * c.remoteBodies / (n * (devices - 1.0) / devices), mib, kNodeBytes,
                16.0 * n * (devices - 1.0) / devices / 1048576.0);
        }
        std::fflush(stdout);
    }
}
