// Probe for issue 31 (not part of the CMake build): the device tree's time kernel by kernel
// (the sort split into its count, scan and scatter passes, the walk into find_groups, walk and
// scatter_accelerations) and the walk's shape (groups, bodies per group, list length, iterations)
// for several walk configurations on one Plummer sphere, so that one device call compares them.
// Build (from the repository root, after building clviz_compute in build/): as tree_probe.cpp,
//   g++ -std=c++20 -O2 -I. -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
//     -DCL_HPP_ENABLE_EXCEPTIONS -DCL_TARGET_OPENCL_VERSION=300 \
//     -DCL_USE_DEPRECATED_OPENCL_1_2_APIS bench/device/tree_phases.cpp \
//     build/compute/nbody/libclviz_nbody.a build/compute/core/libclviz_compute_core.a \
//     build/common/libclviz_common.a -lOpenCL -pthread \
//     -o tree-phases
// Usage: TREE_CONFIGS="group:bpi:leaf:list:theta[:sortTileKeys[:sortDigitBits[:sortKeysPerItem
// [:sortCountInScatter[:walkRegisterCap[:stackSize[:thetaFar[:farOrder[:kickInScatter]]]]]]]]]
// ..." tree-phases N... (CLVIZ_KERNEL_DIR=dir times another copy of kernels/; TREE_LABEL=name tags
// the lines.) The bench's step, piece by piece (issue 31, "the build and the step beyond the
// walk"): TREE_KICK=1 passes a velocity buffer and leapfrog's half-kick, as NbodySimulation does
// (the kick's kernel is "kick", or part of walk.scatter with kickInScatter); TREE_PRESTEPS=k first
// steps the sphere k times with the tree (NbodySimulation, the preset's dt), as the bench's rows
// after its first have; TREE_ORDER=morton hands the bodies over in the tree's sorted order, as a
// state kept in Morton order would (gather and scatter then read and write in order); TREE_REPS=k
// times k - 2 passes instead of 5 (above 7, each pass's walk kernel is printed too). Each line
// also says whether the sorted order is the first config's at that N and gives its hash (FNV-1a of
// the sorted indices, to compare runs of other kernel copies): the sort's result on the device
// itself, not only on PoCL's tests. TREE_KERNEL_DIRS="label=dir ..." runs every config for each
// kernel copy in turn (label "embedded" with an empty dir: the build's own), each in a context
// of its own whose program cache is $TREE_CACHE_ROOT/label when TREE_CACHE_ROOT is set, so that one
// process (and one Plummer sphere per N) times them all; the label tags the lines.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "probe_tree_simulation.hpp"

using namespace clviz;

namespace {

// The kernels of one compute(), in the order TreeForce::enqueue launches them.
std::string kernelName(const std::string& stage, int indexInStage) {
    if (stage == "tree-sort") {
        static const char* pass[] = {"sort.count", "sort.scan", "sort.scatter"};
        return pass[indexInStage % 3];
    }
    if (stage == "tree-build") return indexInStage == 0 ? "build.gather" : "build.tree";
    if (stage == "tree-walk") {
        static const char* walk[] = {"walk.groups", "walk.walk", "walk.scatter"};
        return walk[std::min(indexInStage, 2)];
    }
    return stage.substr(5);
}

// The hash this probe prints for the sorted order and the accelerations: FNV-1a's step over
// 32-bit words (from this seed), so that the values printed by earlier calls still compare.
unsigned long long wordHash(const std::vector<unsigned>& words) {
    unsigned long long hash = 1469598103934665603ULL;
    for (unsigned v : words)
        hash = (hash ^ v) * 1099511628211ULL;
    return hash;
}

}  // namespace

int main(int argc, char** argv) {
    // (label, kernel directory) pairs; one with the default directory without TREE_KERNEL_DIRS.
    std::vector<std::pair<std::string, std::string>> kernelDirs;
    if (const char* dirs = std::getenv("TREE_KERNEL_DIRS")) {
        std::istringstream in(dirs);
        for (std::string d; in >> d;) {
            const auto eq = d.find('=');
            if (eq == std::string::npos) {
                std::printf("TREE_KERNEL_DIRS: %s is not label=dir\n", d.c_str());
                return 2;
            }
            kernelDirs.push_back({d.substr(0, eq), d.substr(eq + 1)});
        }
    }
    const bool perDir = !kernelDirs.empty();
    if (!perDir)
        kernelDirs.push_back({std::getenv("TREE_LABEL") ? std::getenv("TREE_LABEL") : "", ""});
    const char* cacheRoot = std::getenv("TREE_CACHE_ROOT");
    auto contextFor = [&](const std::pair<std::string, std::string>& dir) {
        if (perDir) {
            setKernelDirectory(dir.second);
            if (cacheRoot)
                setenv("XDG_CACHE_HOME", (std::string(cacheRoot) + "/" + dir.first).c_str(), 1);
        }
        return ComputeContext::create(DeviceRequest{});
    };
    {
        auto first = contextFor(kernelDirs.front());
        std::printf("device: %s\n", first->info().name.c_str());
    }
    struct Config {
        int group = 128, bpi = 1, leaf = 8, list = 1024;
        float theta = 0.5f;
        int tileKeys = TreeForceOptions{}.sortTileKeys;  // 0: tiles that fill the device
        int digitBits = TreeForceOptions{}.sortDigitBits;
        int keysPerItem = TreeForceOptions{}.sortKeysPerItem;
        int countInScatter = TreeForceOptions{}.sortCountInScatter;
        int registerCap = TreeForceOptions{}.walkRegisterCap, stack = TreeForceOptions{}.stackSize;
        float thetaFar = TreeForceOptions{}.thetaFar;  // -1: the build's default
        int farOrder = TreeForceOptions{}.farOrder;
        int kickInScatter = TreeForceOptions{}.kickInScatter;
    };
    std::vector<Config> configs;
    std::istringstream in(std::getenv("TREE_CONFIGS") ? std::getenv("TREE_CONFIGS")
                                                      : "128:1:8:1024:0.5");
    for (std::string c; in >> c;) {
        Config k;
        std::sscanf(c.c_str(), "%d:%d:%d:%d:%f:%d:%d:%d:%d:%d:%d:%f:%d:%d", &k.group, &k.bpi,
                    &k.leaf, &k.list, &k.theta, &k.tileKeys, &k.digitBits, &k.keysPerItem,
                    &k.countInScatter, &k.registerCap, &k.stack, &k.thetaFar, &k.farOrder,
                    &k.kickInScatter);
        configs.push_back(k);
    }
    auto env = [](const char* name) {
        const char* v = std::getenv(name);
        return std::string(v ? v : "");
    };
    const bool kick = env("TREE_KICK") == "1", morton = env("TREE_ORDER") == "morton";
    // TREE_PRESET=name: another preset's bodies, dt, softening and far-field angle (the
    // Plummer sphere's by default); TREE_STEP_TRACE=1 prints every prestep's kernels.
    const NbodyPreset preset =
        env("TREE_PRESET").empty() ? NbodyPreset::Plummer : parsePreset(env("TREE_PRESET"));
    const bool stepTrace = env("TREE_STEP_TRACE") == "1";
    const std::string label0 =
        kernelDirs.front().first.empty() ? std::string() : kernelDirs.front().first + " ";
    const int presteps = std::atoi(env("TREE_PRESTEPS").c_str());
    const int asked = std::atoi(env("TREE_REPS").c_str());
    const int reps = asked >= 3 ? asked : 7;  // the first 2 untimed
    std::printf("kick %d presteps %d order %s\n", kick, presteps, morton ? "morton" : "preset");
    for (int a = 1; a < argc; ++a) {
        const std::size_t n = std::strtoull(argv[a], nullptr, 10);
        auto bodies = makePreset(preset, n, 1);
        const float softening = presetInfo(preset).softening;
        if (presteps > 0) {  // the state the bench's later rows see: moved by tree steps
            auto pc = contextFor(kernelDirs.front());
            const auto owned = probeTreeSimulation(*pc, preset, bodies);
            NbodySimulation& sim = *owned;
            if (!stepTrace) sim.step(presteps);
            for (int s = 0; stepTrace && s < presteps; ++s) {
                sim.step(1);
                const NbodyStepTimings t = sim.lastStepTimings();
                std::map<std::string, double> stage;
                for (const auto& k : t.kernels)
                    stage[k.kernel] += k.ms;
                const TreeWalkStats w = sim.treeWalkStats();
                std::printf("%sstep %d kernels %.3f ms |", label0.c_str(), s + 1, t.kernelMs);
                for (const auto& [k, ms] : stage)
                    std::printf(" %s %.3f", k.c_str(), ms);
                std::printf(
                    " | list/body %.0f iter/group %.0f groups %d fallbacks %d | longest group: "
                    "%d iterations, %d entries a body\n",
                    w.interactionsPerBody, w.iterationsPerGroup, w.groups, w.fallbacks,
                    w.maxIterations, w.maxEntriesPerBody);
            }
            bodies = sim.readBodies();
        }
        std::vector<unsigned> firstOrder;  // the first config's sorted order at this N
        for (const auto& dir : kernelDirs) {
            auto cc = contextFor(dir);
            const std::string label = dir.first.empty() ? std::string() : dir.first + " ";
            std::vector<Float4> pos, vel;
            for (const auto& b : bodies)
                pos.push_back(b.pos), vel.push_back(b.vel);
            cl::Buffer posBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
            cl::Buffer accBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
            cl::Buffer velBuf(cc->context(), CL_MEM_READ_WRITE, n * 16);
            cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
            if (morton) {  // the bodies in the order a default tree sorts them into
                TreeForce sorter(*cc);
                sorter.compute(posBuf, n, softening, accBuf);
                const std::vector<unsigned> order = sorter.readTree().sortedIndex;
                std::vector<Float4> p2, v2;
                for (unsigned i : order)
                    p2.push_back(pos[i]), v2.push_back(vel[i]);
                pos.swap(p2);
                vel.swap(v2);
                cc->queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
            }
            cc->queue().enqueueWriteBuffer(velBuf, CL_TRUE, 0, n * 16, vel.data());
            for (const Config& cfg : configs) {
                TreeForceOptions o;
                o.walk = TreeWalk::Group;
                o.groupSize = cfg.group;
                o.bodiesPerItem = cfg.bpi;
                o.leafSize = cfg.leaf;
                o.listSize = cfg.list;
                o.sortTileKeys = cfg.tileKeys;
                o.sortDigitBits = cfg.digitBits;
                o.sortKeysPerItem = cfg.keysPerItem;
                o.sortCountInScatter = cfg.countInScatter != 0;
                o.walkRegisterCap = cfg.registerCap;
                o.stackSize = cfg.stack;
                o.thetaFar = cfg.thetaFar;
                o.farOrder = cfg.farOrder;
                o.kickInScatter = cfg.kickInScatter != 0;
                try {
                    TreeForce tree(*cc, o);
                    tree.setTheta(cfg.theta);
                    std::map<std::string, std::vector<double>> ms;
                    std::vector<double> total;
                    std::vector<double> walkPerRep;  // TREE_REPS > 7: each rep's walk kernel
                    for (int rep = 0; rep < reps; ++rep) {
                        // A kick of 1e-30 runs the kick's kernels and leaves the velocities as
                        // written.
                        if (kick)
                            tree.compute(posBuf, n, softening, accBuf, &velBuf, 1e-30f);
                        else
                            tree.compute(posBuf, n, softening, accBuf);
                        cc->queue().finish();
                        if (rep < 2) continue;
                        std::map<std::string, double> sum;
                        std::map<std::string, int> seen;
                        double all = 0;
                        for (const auto& [stage, ev] : tree.lastEvents()) {
                            const double t = eventMilliseconds(ev);
                            sum[kernelName(stage, seen[stage]++)] += t;
                            all += t;
                        }
                        for (const auto& [k, t] : sum)
                            ms[k].push_back(t);
                        walkPerRep.push_back(sum["walk.walk"]);
                        total.push_back(all);
                    }
                    const TreeWalkStats ws = tree.lastWalkStats();
                    if (env("TREE_TOP_GROUPS") == "1") {  // the stragglers: most iterations
                        std::vector<TreeGroupWalk> g = tree.lastGroupWalks();
                        std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) {
                            return a.iterations > b.iterations;
                        });
                        std::printf("%stop groups (bodies, entries a body, iterations):",
                                    label.c_str());
                        for (std::size_t k = 0; k < std::min<std::size_t>(8, g.size()); ++k)
                            std::printf(" (%d, %d, %d)", g[k].bodies, g[k].entriesPerBody,
                                        g[k].iterations);
                        std::printf("\n");
                    }
                    const std::vector<unsigned> order = tree.readTree().sortedIndex;
                    if (firstOrder.empty()) firstOrder = order;
                    const char* same = order == firstOrder ? "same" : "DIFFERENT";
                    const unsigned long long hash = wordHash(order);
                    // The last pass's accelerations, bit for bit: kernel copies that claim the
                    // same forces must print the same.
                    std::vector<unsigned> accBits(4 * n);
                    cc->queue().enqueueReadBuffer(accBuf, CL_TRUE, 0, n * 16, accBits.data());
                    const unsigned long long accHash = wordHash(accBits);
                    const TreeAccuracy acc = tree.accuracy(posBuf, n, softening, accBuf, 4096);
                    std::printf(
                        "%sn=%zu group=%d bpi=%d leaf=%d list=%d theta=%.2f tilekeys=%d "
                        "digitbits=%d "
                        "keysperitem=%d countinscatter=%d regcap=%d stack=%d thetafar=%.2f "
                        "farorder=%d "
                        "kickinscatter=%d order %s %016llx total %.3f ms |",
                        label.c_str(), n, tree.groupSize(), cfg.bpi, cfg.leaf, cfg.list, cfg.theta,
                        cfg.tileKeys, cfg.digitBits, cfg.keysPerItem, cfg.countInScatter,
                        cfg.registerCap, cfg.stack, tree.thetaFar(), cfg.farOrder,
                        cfg.kickInScatter, same, hash, median(total));
                    for (const auto& [k, v] : ms)
                        std::printf(" %s %.3f", k.c_str(), median(v));
                    const double walkMs = median(ms["walk.walk"]);
                    if (reps > 7) {
                        std::printf(" | walk per rep");
                        for (double w : walkPerRep)
                            std::printf(" %.2f", w);
                    }
                    std::printf(
                        " | groups %d (%.1f bodies each) list/body %.0f iter/group %.0f "
                        "fallbacks %d | %.3g list interactions/s in walk | err median %.2e "
                        "p99 %.2e | acc %016llx\n",
                        ws.groups, double(n) / std::max(1, ws.groups), ws.interactionsPerBody,
                        ws.iterationsPerGroup, ws.fallbacks,
                        ws.interactionsPerBody * double(n) / (walkMs * 1e-3), acc.median, acc.p99,
                        accHash);
                } catch (const std::exception& e) {
                    std::printf("n=%zu group=%d bpi=%d: %s\n", n, cfg.group, cfg.bpi, e.what());
                }
                std::fflush(stdout);
            }
        }
    }
}
