#pragma once
// What the split benchmarks (--devices, --mpi) time: all-pairs variants (vectorized unless
// --variants says otherwise; the tree is refused), sizes, work-group sizes, and the scene; and
// how both time a split and report its devices.
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
    NbodyParams params;  // the preset's dt and softening
};

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
