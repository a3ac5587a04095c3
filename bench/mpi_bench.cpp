// The N-body system across the ranks of an mpirun job (`clviz-bench --suite nbody --mpi`): each
// rank drives one device (its local rank picks it), slices are all-gathered every step. Rank 0
// prints one row per N and variant (wall time per step, the slowest rank's) and one row per rank
// (compute, exchange, wait, share), and whether the split's first force pass agrees with rank 0's
// device alone (bench/split_check.hpp; "check: ok" or "check: WRONG (...)" in the note). Run it
// with -np 1 as well for the baseline: docs/scaling.md divides the two.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "bench/row_timing.hpp"
#include "bench/split_check.hpp"
#include "bench/split_plan.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "compute/core/profiling.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/mpi/mpi_simulation.hpp"
#include "compute/nbody/reference.hpp"

namespace clviz::bench {

namespace {

struct MpiRun {
    ComputeContext& cc;
    const MpiSession& session;
    DeadlineCollectives& mpi;
    DeadlineCollectives& patient;  // for waits on rank 0's one-device check
    const BenchOptions& o;
    BenchReport& report;
    int pollMicroseconds;
};

// The split's first force pass against rank 0's device alone (both from `bodies`); the verdict
// and its figures travel to every rank as one line of text and numbers.
SplitAgreement checkAgainstOneDevice(MpiRun& r, NbodyMpiSimulation& split,
                                     const std::vector<Body>& bodies, const NbodyParams& params,
                                     const NbodyKernelConfig& config) {
    const std::vector<Float4> gathered = split.gatherAccelerations();
    SplitAgreement agreement;
    if (r.session.rank() == 0) {
        NbodySimulation alone(r.cc);
        alone.setParams(params);
        alone.setKernelConfig(config);
        alone.load(bodies);
        const std::vector<Float4> first = alone.readAccelerations();
        agreement =
            checkSplitForces(config.variant, gathered, first, bodies, params.softening, [&] {
                alone.load(bodies);  // the device's run-to-run spread
                return alone.readAccelerations();
            });
    }
    // Rank 0's figures to the others (they print nothing, but every rank builds the same row).
    int count = static_cast<int>(agreement.metrics.size());
    r.patient.broadcast(&count, 1, MPI_INT, "result of rank 0's one-device check");
    std::vector<double> values(static_cast<std::size_t>(count));
    for (int i = 0; i < count && r.session.rank() == 0; ++i)
        values[i] = agreement.metrics[i].second;
    if (count) r.patient.broadcast(values.data(), count, MPI_DOUBLE, "figures of the check");
    int ok = agreement.verdict.ok;
    r.patient.broadcast(&ok, 1, MPI_INT, "verdict of the check");
    if (r.session.rank() != 0) {
        agreement.metrics.clear();
        for (double v : values)
            agreement.metrics.push_back({"", v});
        agreement.verdict = {ok != 0, ok ? "ok" : "WRONG (rank 0 has the figures)"};
    }
    return agreement;
}

void addRows(MpiRun& r, const std::vector<Body>& bodies, const NbodyParams& params,
             const NbodyKernelConfig& config) {
    const long long n = static_cast<long long>(bodies.size());
    NbodyMpiSimulation sim(r.cc, r.session, r.mpi);
    sim.setExchange(parseMpiExchange(r.o.mpiExchange));
    sim.setTreeIntegration(r.o.treeIntegration);
    sim.setParams(params);
    sim.setKernelConfig(config);
    sim.load(bodies);
    const SplitAgreement agreement = checkAgainstOneDevice(r, sim, bodies, params, config);

    // Every rank steps together; the timings are the slowest rank's, the same on every rank.
    const SplitTimed t = timeSplitSteps(
        [&] {
            sim.step(1);
            return sim.lastTimings();
        },
        r.o);
    const std::string label = std::string(variantName(config.variant)) + " x" +
                              std::to_string(r.session.size()) + " ranks";
    BenchRow row =
        timedRow("nbody-mpi", label, splitConfigLabel(sim.local().effectiveKernelConfig(), params),
                 "N=" + std::to_string(n), t.stepMs);
    // The tree does far fewer: its N^2 / step is the direct sum it replaces, labelled as such.
    row.metrics = {
        {config.variant == NbodyVariant::Tree ? "N^2-equivalent interactions/s" : "interactions/s",
         double(n) * double(n) / (row.medianMs * 1e-3)}};
    for (const auto& m : agreement.metrics)
        row.metrics.push_back(m);
    row.note = "check: " + agreement.verdict.text +
               "; exchange: " + mpiExchangeName(sim.exchange()) + ", poll " +
               std::to_string(r.pollMicroseconds) + " us; " + std::to_string(t.rebalances) +
               " rebalances; slices " + describeSlices(sim.slices());
    if (!sim.treeIntegrationChoice().why.empty())
        row.note += "; integration " + sim.treeIntegrationChoice().why;
    r.report.add(row);
    addPerDeviceRows(r.report, row, t, "rank");
}

void runRanks(const MpiSession& session, const BenchOptions& o) {
    const auto platforms = queryPlatforms();
    const DeviceChoice choice = deviceForRank(platforms, o.device, session.localRank());
    ComputeContext cc(platforms, choice);
    std::fprintf(stderr, "clviz-bench: rank %d of %d on %s: %s (%s)\n", session.rank(),
                 session.size(), session.host().c_str(), cc.info().name.c_str(),
                 choice.reason.c_str());
    const int poll = o.mpiPollMicroseconds >= 0
                         ? o.mpiPollMicroseconds
                         : exchangePollMicroseconds(cc.info().kind == DeviceKind::Cpu);
    DeadlineCollectives mpi(session, o.mpiTimeoutSeconds, poll);
    DeadlineCollectives patient(session, std::max(600.0, o.mpiTimeoutSeconds));
    BenchReport report;
    report.setStyle(o.wide ? TableStyle::Wide : TableStyle::Compact);
    report.setDevice(std::to_string(session.size()) + " MPI ranks; rank 0: " + cc.info().name +
                     " (driver " + cc.info().driverVersion + ")");
    MpiRun run{cc, session, mpi, patient, o, report, poll};

    const SplitBenchPlan plan = planSplitBenchmark(o, "--mpi");
    for (long long n : plan.sizes) {
        const auto bodies = session.rank() == 0
                                ? makePreset(plan.preset, static_cast<std::size_t>(n), 1)
                                : std::vector<Body>{};
        for (NbodyVariant v : plan.variants)
            for (int wg : plan.workGroups)
                for (const NbodyParams& params : rowParams(plan, v)) {
                    NbodyKernelConfig config;
                    config.variant = v;
                    config.workGroupSize = wg;
                    if (session.rank() == 0)
                        std::fprintf(stderr, "nbody mpi %s N=%lld\n", variantName(v), n);
                    addRows(run, bodies, params, config);
                }
    }
    if (session.rank() != 0) return;
    std::cout << report.table() << std::flush;
    if (!o.jsonPath.empty()) report.writeJson(o.jsonPath);
    if (!o.csvPath.empty()) report.writeCsv(o.csvPath);
}

}  // namespace

int runMpiBenchmark(const BenchOptions& options) {
    if (options.suite == "image")
        throw Error("--mpi splits the N-body suite; the image suite runs on one device");
    if (!options.devices.empty()) throw Error("--mpi and --devices: one rank drives one device");
    MpiSession session;
    session.setShutdownTimeout(options.mpiTimeoutSeconds);
    try {
        runRanks(session, options);
    } catch (const std::exception& e) {
        // The other ranks would wait for this one in the next exchange: end them all now.
        session.abort(std::string("clviz-bench: ") + e.what(), 2);
    }
    return 0;
}

}  // namespace clviz::bench
