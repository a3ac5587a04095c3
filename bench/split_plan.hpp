#pragma once
// What the split benchmarks (--devices, --mpi) time: all-pairs variants (vectorized unless
// --variants says otherwise; the tree is refused), sizes, work-group sizes, and the scene.
#include <vector>

#include "bench/bench_options.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz::bench {

struct SplitBenchPlan {
    std::vector<NbodyVariant> variants;
    std::vector<long long> sizes;
    std::vector<int> workGroups;  // 0: the device default
    NbodyPreset preset = NbodyPreset::Plummer;
    NbodyParams params;  // the preset's dt and softening
};

// `flag` names the option in messages ("--devices", "--mpi"). Throws clviz::Error for the tree.
SplitBenchPlan planSplitBenchmark(const BenchOptions& o, const char* flag);

}  // namespace clviz::bench
