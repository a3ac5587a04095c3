#pragma once
// What the split benchmarks (--devices, --mpi) time: the variants (vectorized unless --variants
// says otherwise), sizes, work-group sizes, the tree's angles and the scene; and how both time a
// split and report its devices.
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "bench/bench_report.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/multi/device_timings.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz::bench {

struct SplitBenchPlan {
    std::vector<NbodyVariant> variants;
    std::vector<long long> sizes;
    std::vector<int> workGroups;  // 0: the device default
    NbodyPreset preset = NbodyPreset::Plummer;
    // The preset's dt, softening and far-field angle (--theta-far overrides it), as in the
    // one-device rows, so that a split row's one-device step is the single-card step.
    NbodyParams params;
    std::vector<double> thetas;  // the tree's opening angles (--theta; 0.5): one row each
};

// The parameters of each row of `variant`: one per opening angle for the tree, one otherwise.
std::vector<NbodyParams> rowParams(const SplitBenchPlan& plan, NbodyVariant variant);

// The tree's angles (" theta=0.5 far=0.55"); empty for the other variants.
std::string anglesLabel(NbodyVariant variant, const NbodyParams& params);

// A split row's config: the effective kernel config and the angles ("tree wg=128 theta=0.5
// far=0.55").
std::string splitConfigLabel(const NbodyKernelConfig& effective, const NbodyParams& params);

// Every variant splits (pairs and the tree sum their devices' parts); `flag` ("--devices",
// "--mpi") is kept for messages.
SplitBenchPlan planSplitBenchmark(const BenchOptions& o, const char* flag);

struct SplitTimed {
    std::vector<double> stepMs;  // wall time of each timed step
    std::vector<NbodyMultiTimings> calls;
    int rebalances = 0;
};

// Warm-up steps (at least 4, which also let the balancing settle; fewer once a step takes
// seconds), then single timed steps for about 3 s (3 to o.repeats). `step` runs one step and
// returns its timings.
SplitTimed timeSplitSteps(const std::function<NbodyMultiTimings()>& step, const BenchOptions& o);

// One row per device of the split under `head` ("  <label> 0", ...): the device's name, the
// medians of its compute, exchange and wait times, and its share of the bodies.
void addPerDeviceRows(BenchReport& report, const BenchRow& head, const SplitTimed& t,
                      const std::string& label);

}  // namespace clviz::bench
