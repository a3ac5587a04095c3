// The N-body benchmark: variants x N x work-group sizes (plus an auto-tuned row per variant and
// N, and an `auto` row: the variant the viewer runs by default), each the median of repeated
// leapfrog steps timed with CL profiling events, against a multi-threaded C++ baseline timed in the
// same run.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "bench/row_timing.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/cpu_baseline.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/tree/reference_tree.hpp"

namespace clviz::bench {

namespace {

constexpr double kConfigBudgetMs = 3000;  // timed device time per row, at most (roughly)

std::string sizeLabel(long long n) {
    return "N=" + std::to_string(n);
}

// "x12 vs CPU", "x0.72 vs CPU tree": against the CPU row of the same method (cpu-baseline for
// all-pairs methods, cpu-tree for the tree).
std::string ratioNote(double baselineMs, double ms, const char* against = "CPU") {
    if (baselineMs <= 0 || ms <= 0) return "";
    char buf[64];
    const double x = baselineMs / ms;
    std::snprintf(buf, sizeof buf, x >= 10 ? "x%.0f vs %s" : "x%.2g vs %s", x, against);
    return buf;
}

struct Timed {
    std::vector<double> stepMs, forceMs;
    NbodyStepTimings counted;  // the last sample's interaction and flop counts
    std::vector<std::pair<std::string, std::vector<double>>> kernels;  // per kernel name
};

// Warm-up, then repeated single steps; each sample is the device time of the step's kernels.
Timed timeSteps(NbodySimulation& sim, const BenchOptions& o) {
    Timed t;
    double firstMs = 0;
    for (int i = 0; i < std::max(1, o.warmup); ++i) {
        sim.step(1);
        firstMs = sim.lastStepTimings().kernelMs;
        if (firstMs > 1000) break;  // a slow config: one warm-up is plenty
    }
    int repeats = o.repeats;
    if (firstMs > 0)
        repeats = std::clamp(static_cast<int>(kConfigBudgetMs / firstMs), 3, o.repeats);
    if (firstMs > 5000) repeats = 1;
    for (int i = 0; i < repeats; ++i) {
        sim.step(1);
        const auto timings = sim.lastStepTimings();
        t.counted = timings;
        t.stepMs.push_back(timings.kernelMs);
        t.forceMs.push_back(timings.forceMs);
        for (const auto& k : timings.kernels) {
            auto it = std::find_if(t.kernels.begin(), t.kernels.end(),
                                   [&](const auto& e) { return e.first == k.kernel; });
            if (it == t.kernels.end()) it = t.kernels.insert(t.kernels.end(), {k.kernel, {}});
            it->second.push_back(k.ms);
        }
    }
    return t;
}

BenchRow makeRow(const std::string& variant, const std::string& config, long long n,
                 const Timed& t) {
    BenchRow row = timedRow("nbody", variant, config, sizeLabel(n), t.stepMs);
    // Interactions as the method computed them (the tree: its list lengths), and their flops;
    // the N^2 rate of the tree only as a labelled equivalent, never as flops (issue 27).
    NbodyStepTimings c = t.counted;
    if (c.interactionsPerStep <= 0) {  // a CPU row: all pairs
        c.bodies = n;
        countNbodyWork(c, NbodyVariant::Naive, false, 0);
    }
    const double perSecond = c.interactionsPerStep / (row.medianMs * 1e-3);
    row.metrics = {{c.interactionsUnit(), perSecond},
                   {c.fp64 ? "GFLOP/s fp64" : "GFLOP/s", perSecond * c.flopsPerInteraction * 1e-9},
                   {"force ms", median(t.forceMs)}};
    if (!c.allPairs)
        row.metrics.push_back(
            {"all-pairs-equiv. interactions/s",
             static_cast<double>(n) * static_cast<double>(n) / (row.medianMs * 1e-3)});
    return row;
}

// The C++ baseline on the same bodies. For large N only the first iCount bodies are computed
// (against all N) and the time is scaled by N / iCount: the cost per body is the same for all.
BenchRow baselineRow(const std::vector<Body>& bodies, float softening, bool quick, double& fullMs) {
    const std::size_t n = bodies.size();
    NbodyCpuBaseline cpu(bodies, softening);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const double budget = quick ? 2e7 : 4e8;  // interactions per timed pass
    const std::size_t iCount = std::clamp<std::size_t>(static_cast<std::size_t>(budget / n),
                                                       std::min<std::size_t>(n, 64 * threads), n);
    cpu.forcePass(std::min<std::size_t>(iCount, 16 * threads), threads);  // warm caches and threads
    std::vector<double> ms;
    for (int r = 0; r < (quick ? 2 : 3); ++r)
        ms.push_back(cpu.forcePass(iCount, threads) * static_cast<double>(n) / iCount);
    Timed t;
    t.stepMs = ms;
    t.forceMs = ms;
    BenchRow row = makeRow("cpu-baseline", std::to_string(threads) + " threads, C++ -O3", n, t);
    row.suite = "baseline";
    row.metrics.pop_back();  // "force ms" is the whole thing here
    fullMs = row.medianMs;
    if (iCount < n) {
        char scale[32];
        std::snprintf(scale, sizeof scale, "%.4g", static_cast<double>(n) / iCount);
        row.note = "timed " + std::to_string(iCount) + " of " + std::to_string(n) +
                   " bodies against all, scaled x" + scale;
    }
    return row;
}

// The tree variant at one theta: the step's stages ("tree-*"; integrate = the kick-drift kernel,
// kick = the tree's closing half-kick), the interactions its lists held per second of the step
// (far cells, summed once per walk group, are on no list) beside the labelled all-pairs
// equivalent (N^2 / step time), and the relative force error against a device direct sum on 4,096
// bodies (on 256 the median moved by a third between neighbouring theta rows: docs/benchmarks.md,
// "theta sweep").
BenchRow treeRow(NbodySimulation& sim, const BenchOptions& o, float theta, long long n) {
    NbodyParams p = sim.params();
    p.theta = theta;
    if (o.thetaFar) p.thetaFar = static_cast<float>(*o.thetaFar);
    sim.setParams(p);
    NbodyKernelConfig c;
    c.variant = NbodyVariant::Tree;
    sim.setKernelConfig(c);
    const Timed t = timeSteps(sim, o);
    char config[64];
    const int group = sim.effectiveKernelConfig().workGroupSize;  // 1: the per-body walk (CPUs)
    if (group == 1)                                               // the body walk has no far field
        std::snprintf(config, sizeof config, "theta=%.2g body walk", theta);
    else
        std::snprintf(config, sizeof config, "theta=%.2g far=%.2g groups<=%d", theta,
                      sim.params().thetaFar, group);
    BenchRow row = makeRow("tree", config, n, t);
    for (const auto& [name, ms] : t.kernels) {
        const std::string stage = name.rfind("tree-", 0) == 0 ? name.substr(5)
                                  : name == "kick-drift"      ? "integrate"
                                                              : name;
        row.metrics.push_back({stage + " ms", median(ms)});
    }
    const TreeWalkStats w = sim.treeWalkStats();
    const TreeAccuracy a = sim.forceAccuracy(4096);
    row.metrics.push_back({"list/body", w.interactionsPerBody});
    // The mean and the longest group's walk iterations: one group far above the others ends the
    // walk's launch alone (the colliding galaxies' straggler, docs/benchmarks.md, session 10).
    row.metrics.push_back({"iterations/group", w.iterationsPerGroup});
    row.metrics.push_back({"longest group iterations", double(w.maxIterations)});
    row.metrics.push_back({"err median", a.median});
    row.metrics.push_back({"err p99", a.p99});
    if (w.fallbacks) row.note = std::to_string(w.fallbacks) + " walk groups fell back to direct";
    return row;
}

// The CPU reference tree (double, same rule), multi-threaded: the CPU figure the device tree rows
// compare against. One timed pass (it is seconds at large N).
BenchRow cpuTreeRow(const std::vector<Body>& bodies, float softening, float theta) {
    std::vector<std::array<double, 4>> pos;
    for (const auto& b : bodies)
        pos.push_back({b.pos.x, b.pos.y, b.pos.z, b.pos.w});
    ReferenceTreeOptions opt;
    opt.theta = theta;
    opt.threads = 0;
    const auto start = std::chrono::steady_clock::now();
    referenceTreeForces(pos, softening, opt);
    Timed t;
    t.stepMs = t.forceMs = {
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count()};
    char config[64];
    std::snprintf(config, sizeof config, "theta=%.2g %u threads, C++ double", theta,
                  std::max(1u, std::thread::hardware_concurrency()));
    BenchRow row = makeRow("cpu-tree", config, static_cast<long long>(bodies.size()), t);
    row.suite = "baseline";
    // The reference tree does not report its list lengths: no interaction or flop rate (an N^2
    // one would be the equivalent the device rows no longer claim).
    row.metrics.clear();
    return row;
}

// What the options ask for: variants, sizes and work-group sizes (defaults per device kind).
struct NbodyPlan {
    std::vector<NbodyVariant> variants;
    bool autoRow = false;  // "auto": the variant the viewer runs by default
    std::vector<long long> sizes;
    std::vector<int> wgs;
    bool tune = false;  // an auto-tuned row per variant with tunables beyond wg
    double tuneBudget = 0;
    bool treeRows = false;  // the tree has no work-group sweep: one row per theta
    std::vector<double> thetas;
    int rows = 0;  // for the progress line
};

// The pairs variant gets no tuned row (auto weighs its auto-tune): its rows try 4 and 8 bodies per
// work-item at each size. The others take their default (or tune it in their own row).
std::vector<int> bodiesPerItemRows(NbodyVariant v) {
    return v == NbodyVariant::Pairs ? std::vector<int>{4, 8} : std::vector<int>{0};
}

NbodyPlan planNbodyBenchmark(const BenchOptions& o, bool gpu) {
    NbodyPlan plan;
    plan.autoRow = o.variants.empty();
    for (const auto& name : o.variants) {
        const NbodyVariant v = parseVariant(name);
        if (v == NbodyVariant::Auto)
            plan.autoRow = true;
        else if (v == NbodyVariant::Tree)
            plan.treeRows = true;
        else
            plan.variants.push_back(v);
    }
    // By default every row of the variant table: auto has its own row, the tree comes only when
    // asked for.
    if (o.variants.empty())
        for (NbodyVariant v : nbodyVariantChoices())
            if (v != NbodyVariant::Auto && v != NbodyVariant::Tree) plan.variants.push_back(v);
    plan.thetas = o.thetas.empty() ? std::vector<double>{0.5} : o.thetas;
    plan.sizes = o.sizes;
    if (plan.sizes.empty()) {
        if (o.quick)
            plan.sizes = {gpu ? 16384 : 2048};
        else if (gpu)
            plan.sizes = {16384, 65536, 262144, 1048576};
        else
            plan.sizes = {1024, 4096, 16384};
    }
    plan.wgs = o.workGroups;
    if (plan.wgs.empty()) {
        if (o.quick)
            plan.wgs = {gpu ? 256 : 64};
        else if (gpu)
            plan.wgs = {64, 128, 256, 512, 1024};
        else
            plan.wgs = {16, 64, 256};
    }
    plan.tune = !o.quick;
    plan.tuneBudget = gpu ? 6.0 : 3.0;
    int tuned = 0, configs = 0;
    for (auto v : plan.variants) {
        if (plan.tune && usesTileBlocking(v)) ++tuned;
        configs += static_cast<int>(plan.wgs.size() * bodiesPerItemRows(v).size());
    }
    plan.rows = static_cast<int>(plan.sizes.size()) *
                (configs + tuned + plan.autoRow + (o.cpuBaseline ? 1 : 0) +
                 (plan.treeRows ? static_cast<int>(plan.thetas.size()) * (1 + o.cpuBaseline) : 0));
    return plan;
}

// The rows of one N: one simulation, the configs already measured, the CPU baseline's time.
struct SizeRun {
    NbodySimulation& sim;
    const BenchOptions& o;
    BenchReport& report;
    long long n = 0;
    double baselineMs = 0;
    std::vector<std::string> timed;  // effective configs already measured at this N
};

void addConfigRow(SizeRun& r, const NbodyKernelConfig& c, const std::string& label) {
    NbodySimulation& sim = r.sim;
    try {
        // Fixed rows resolve their 0 fields to the built-in defaults, not to an auto-tune
        // remembered in ~/.cache; auto is the row that uses those results.
        sim.setUseAutotuneMemory(c.variant == NbodyVariant::Auto);
        sim.setKernelConfig(c);
        const auto eff = sim.effectiveKernelConfig();
        std::string config = describe(eff);
        if (label.empty() && c.variant != NbodyVariant::Auto) {
            // A request the device clamped to an already measured config adds no row.
            if (std::find(r.timed.begin(), r.timed.end(), config) != r.timed.end()) return;
            r.timed.push_back(config);
        }
        if (c.variant != NbodyVariant::Auto)  // the variant has its own column
            config = config.substr(config.find(' ') + 1);
        BenchRow row = makeRow(variantName(c.variant) + label, config, r.n, timeSteps(sim, r.o));
        row.note = ratioNote(r.baselineMs, row.medianMs);
        if (!sim.kernelNote().empty())
            row.note += (row.note.empty() ? "" : "; ") + sim.kernelNote();
        if (c.variant == NbodyVariant::Auto)
            row.note += (row.note.empty() ? "" : "; ") + sim.autoChoice();
        r.report.add(row);
    } catch (const Error& e) {
        BenchRow row;
        row.suite = "nbody";
        row.variant = variantName(c.variant) + label;
        row.config = "wg=" + std::to_string(c.workGroupSize);
        row.size = sizeLabel(r.n);
        row.note = std::string("failed: ") + e.what();
        r.report.add(row);
    }
}

void addTunedRow(SizeRun& r, NbodyVariant v, double budget) {
    try {
        const auto result = r.sim.autotune(v, budget);
        if (std::getenv("CLVIZ_AUTOTUNE_LOG"))
            std::fprintf(stderr, "\nauto-tune %s N=%lld (%d candidates):\n%s", variantName(v), r.n,
                         result.candidates, result.log.c_str());
        addConfigRow(r, result.best, " (tuned)");
    } catch (const Error& e) {
        std::fprintf(stderr, "\nauto-tune of %s failed: %s\n", variantName(v), e.what());
    }
}

}  // namespace

void runNbodyBenchmark(ComputeContext& cc, const BenchOptions& o, BenchReport& report) {
    const NbodyPlan plan = planNbodyBenchmark(o, cc.info().kind == DeviceKind::Gpu);
    int index = 0;
    const auto preset = NbodyPreset::Plummer;
    const float softening = presetInfo(preset).softening;
    // The auto row reuses auto-tune results remembered in the user's cache, as the viewer does.
    const NbodyEnvironment env = NbodyEnvironment::fromProcessEnvironment();

    for (long long n : plan.sizes) {
        const auto bodies = makePreset(preset, static_cast<std::size_t>(n), 1);
        double baselineMs = 0;
        if (o.cpuBaseline) {
            progress(++index, plan.rows, "nbody cpu-baseline " + sizeLabel(n));
            report.add(baselineRow(bodies, softening, o.quick, baselineMs));
        }
        NbodySimulation sim(cc, env);
        NbodyParams params;
        params.dt = presetInfo(preset).dt;
        params.softening = softening;
        params.thetaFar = presetInfo(preset).thetaFar;  // --theta-far overrides it (treeRow)
        sim.setParams(params);
        sim.load(bodies);
        SizeRun run{sim, o, report, n, baselineMs, {}};
        for (auto v : plan.variants) {
            for (int wg : plan.wgs)
                for (int bpi : bodiesPerItemRows(v)) {
                    progress(++index, plan.rows,
                             std::string("nbody ") + variantName(v) + " " + sizeLabel(n) +
                                 " wg=" + std::to_string(wg));
                    NbodyKernelConfig c;
                    c.variant = v;
                    c.workGroupSize = wg;
                    c.bodiesPerItem = bpi;
                    addConfigRow(run, c, "");
                }
            if (plan.tune && usesTileBlocking(v)) {
                progress(
                    ++index, plan.rows,
                    std::string("nbody ") + variantName(v) + " " + sizeLabel(n) + " auto-tune");
                addTunedRow(run, v, plan.tuneBudget);
            }
        }
        if (plan.treeRows) {
            for (double theta : plan.thetas) {
                double cpuTreeMs = 0;
                if (o.cpuBaseline) {
                    progress(++index, plan.rows, "nbody cpu-tree " + sizeLabel(n));
                    BenchRow cpu = cpuTreeRow(bodies, softening, static_cast<float>(theta));
                    cpuTreeMs = cpu.medianMs;
                    report.add(cpu);
                }
                progress(
                    ++index, plan.rows,
                    "nbody tree " + sizeLabel(n) + " theta=" + std::to_string(theta).substr(0, 4));
                try {
                    BenchRow row = treeRow(sim, o, static_cast<float>(theta), n);
                    const std::string ratio = ratioNote(cpuTreeMs, row.medianMs, "CPU tree");
                    row.note = ratio + (row.note.empty() || ratio.empty() ? "" : "; ") + row.note;
                    report.add(row);
                } catch (const Error& e) {
                    BenchRow row;
                    row.suite = "nbody";
                    row.variant = "tree";
                    row.size = sizeLabel(n);
                    row.note = std::string("failed: ") + e.what();
                    report.add(row);
                }
            }
        }
        if (plan.autoRow) {
            // After the tuned rows, whose auto-tune results auto reuses (as the viewer reuses
            // remembered ones); alone, it auto-tunes each variant itself.
            progress(++index, plan.rows, "nbody auto " + sizeLabel(n));
            NbodyKernelConfig c;
            c.variant = NbodyVariant::Auto;
            addConfigRow(run, c, "");
        }
        if (n > (1 << 20)) continue;  // the check is O(N^2): minutes at tree-only sizes
        const auto diag = sim.diagnostics();
        if (!diag.finite())
            std::fprintf(stderr, "\nwarning: N=%lld: %s\n", n, diag.message().c_str());
    }
    progressDone();
}

}  // namespace clviz::bench
