// The N-body split over several devices (`clviz-bench --suite nbody --devices SET`): for each N
// and variant, the set's first device alone, then the whole set with automatic balancing, both
// timed as wall-clock time per step (the split waits at every exchange, so device time alone
// would hide the exchange). Rows: the one-device baseline, the split with its speed-up and
// parallel efficiency, one row per device (compute, exchange, wait, share), and whether the
// split's first force pass agrees with the first device's alone (bench/split_check.hpp says how
// each variant is judged; "check: ok" or "check: WRONG (...)" in the note).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/row_timing.hpp"
#include "bench/split_check.hpp"
#include "bench/split_plan.hpp"
#include "bench/step_trace.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/reference.hpp"

namespace clviz::bench {

namespace {

BenchRow splitRow(const std::string& variant, const std::string& config, long long n,
                  const std::vector<double>& stepMs) {
    BenchRow row = timedRow("nbody-multi", variant, config, "N=" + std::to_string(n), stepMs);
    // The tree does far fewer: its N^2 / step is the direct sum it replaces, labelled as such.
    const bool tree = variant.rfind("tree", 0) == 0;
    row.metrics = {{tree ? "N^2-equivalent interactions/s" : "interactions/s",
                    double(n) * double(n) / (row.medianMs * 1e-3)}};
    return row;
}

struct SplitCase {
    const std::vector<ComputeContext*>& devices;
    const BenchOptions& o;
    BenchReport& report;
    std::vector<std::pair<std::string, NbodyStepTimeline>>& timelines;  // with --timeline
    std::vector<Body> bodies;
    NbodyParams params;
    NbodyKernelConfig config;
};

std::unique_ptr<NbodyMultiDevice> makeSim(const SplitCase& c,
                                          const std::vector<ComputeContext*>& devices) {
    auto sim = std::make_unique<NbodyMultiDevice>(devices);
    if (c.o.treeWalkPieces > 0) sim->setTreeWalkPieces(c.o.treeWalkPieces);
    sim->setTreeIntegration(c.o.treeIntegration);
    sim->setTreeWalkHalving(c.o.treeWalkHalving);
    sim->setTreeSplitBuild(c.o.treeSplitBuild);
    sim->setParams(c.params);
    sim->setKernelConfig(c.config);
    sim->load(c.bodies);
    return sim;
}

void addSplitRows(const SplitCase& c) {
    const long long n = static_cast<long long>(c.bodies.size());
    const std::string variant = variantName(c.config.variant);
    const std::size_t p = c.devices.size();

    // Both from the same positions: the accelerations of the first force pass.
    auto one = makeSim(c, {c.devices[0]});
    auto all = makeSim(c, c.devices);
    const std::vector<Float4> alone = one->readAccelerations();
    const SplitAgreement agreement = checkSplitForces(
        c.config.variant, all->readAccelerations(), alone, c.bodies, c.params.softening, [&] {
            one->load(c.bodies);  // the same pass again: the device's own run-to-run spread
            return one->readAccelerations();
        });
    const std::string config =
        splitConfigLabel(one->device(0).effectiveKernelConfig(), c.params) +
        (c.o.treeSplitBuild && c.config.variant == NbodyVariant::Tree ? " build=split" : "");

    const SplitTimed t1 = timeSplitSteps(
        [&] {
            one->step(1);
            return one->lastTimings();
        },
        c.o);
    const bool timeline = !c.o.timelinePath.empty();
    const std::string label = config + " N=" + std::to_string(n);
    if (timeline) c.timelines.emplace_back(variant + " x1 " + label, one->lastTimeline());
    BenchRow base = splitRow(variant + " x1", config, n, t1.stepMs);
    base.note = "alone: " + c.devices[0]->info().name;
    c.report.add(base);

    const SplitTimed tp = timeSplitSteps(
        [&] {
            all->step(1);
            return all->lastTimings();
        },
        c.o);
    if (timeline)
        c.timelines.emplace_back(variant + " x" + std::to_string(p) + " " + label,
                                 all->lastTimeline());
    BenchRow split = splitRow(variant + " x" + std::to_string(p), config, n, tp.stepMs);
    const double speedup = base.medianMs / split.medianMs;
    split.metrics.push_back({"speed-up", speedup});
    split.metrics.push_back({"efficiency %", 100.0 * speedup / double(p)});
    for (const auto& m : agreement.metrics)
        split.metrics.push_back(m);
    char note[160];
    std::snprintf(note, sizeof note, "%d rebalances; slices %s", tp.rebalances,
                  describeSlices(all->slices()).c_str());
    split.note = "check: " + agreement.verdict.text + "; " + note;
    // Who moved the bodies; replicated: every device's state after the timed steps, bit for bit
    // (a difference is WRONG: the devices would build different trees).
    if (const NbodyTreeIntegrationChoice how = all->treeIntegrationChoice();
        p > 1 && c.config.variant == NbodyVariant::Tree) {
        split.note += "; integration " + how.why;
        if (how.replicated) {
            const std::size_t differ = all->bodiesDifferingBetweenDevices();
            split.note += differ ? "; states: WRONG (" + std::to_string(differ) +
                                       " bodies differ between devices)"
                                 : "; states: identical on " + std::to_string(p) + " devices";
        }
    }
    c.report.add(split);

    addPerDeviceRows(c.report, split, tp, "device");
}

}  // namespace

void runMultiDeviceBenchmark(const std::vector<ComputeContext*>& devices, const BenchOptions& o,
                             BenchReport& report) {
    const SplitBenchPlan plan = planSplitBenchmark(o, "--devices");
    int rows = 0;
    for (NbodyVariant v : plan.variants)
        rows += int(plan.sizes.size() * plan.workGroups.size() * rowParams(plan, v).size());
    int index = 0;
    std::vector<std::pair<std::string, NbodyStepTimeline>> timelines;
    for (long long n : plan.sizes) {
        const auto bodies = makePreset(plan.preset, static_cast<std::size_t>(n), 1);
        for (NbodyVariant v : plan.variants)
            for (int wg : plan.workGroups)
                for (const NbodyParams& params : rowParams(plan, v)) {
                    NbodyKernelConfig config;
                    config.variant = v;
                    config.workGroupSize = wg;
                    progress(++index, rows,
                             std::string("nbody split ") + variantName(v) + anglesLabel(v, params) +
                                 " N=" + std::to_string(n));
                    try {
                        addSplitRows({devices, o, report, timelines, bodies, params, config});
                    } catch (const Error& e) {
                        BenchRow row;
                        row.suite = "nbody-multi";
                        row.variant = variantName(v);
                        row.size = "N=" + std::to_string(n);
                        row.note = std::string("failed: ") + e.what();
                        report.add(row);
                    }
                }
    }
    progressDone();
    if (o.timelinePath.empty()) return;
    try {
        writeStepTraces(o.timelinePath, timelines);
        std::fprintf(stderr, "clviz-bench: the last timed step of %zu rows in %s\n",
                     timelines.size(), o.timelinePath.c_str());
    } catch (const Error& e) {  // a failed row: the table, --json and --csv are still written
        BenchRow row;
        row.suite = "nbody-multi";
        row.variant = "--timeline";
        row.size = quotedPath(o.timelinePath);
        row.note = std::string("failed: ") + e.what();
        report.add(row);
    }
}

}  // namespace clviz::bench
