#include "bench/split_plan.hpp"

#include "common/error.hpp"

namespace clviz::bench {

SplitBenchPlan planSplitBenchmark(const BenchOptions& o, const char* flag) {
    SplitBenchPlan plan;
    for (const auto& name : o.variants) {
        const NbodyVariant v = parseVariant(name);
        if (v == NbodyVariant::Tree)
            throw Error(std::string(flag) +
                        ": the tree variant runs on one device (docs/scaling.md has the plan); "
                        "pick all-pairs variants");
        plan.variants.push_back(v);
    }
    if (plan.variants.empty()) plan.variants = {NbodyVariant::Vectorized};
    plan.sizes = o.sizes;
    if (plan.sizes.empty())
        plan.sizes =
            o.quick ? std::vector<long long>{1031} : std::vector<long long>{4096, 16384, 65536};
    plan.workGroups = o.workGroups.empty() ? std::vector<int>{0} : o.workGroups;
    plan.params.dt = presetInfo(plan.preset).dt;
    plan.params.softening = presetInfo(plan.preset).softening;
    return plan;
}

}  // namespace clviz::bench
