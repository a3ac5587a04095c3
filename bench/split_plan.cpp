#include "bench/split_plan.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/text.hpp"
#include "compute/core/profiling.hpp"

namespace clviz::bench {

SplitBenchPlan planSplitBenchmark(const BenchOptions& o, const char* /*flag*/) {
    SplitBenchPlan plan;
    for (const auto& name : o.variants) {
        plan.variants.push_back(parseVariant(name));
    }
    if (plan.variants.empty()) plan.variants = {NbodyVariant::Vectorized};
    plan.sizes = o.sizes;
    if (plan.sizes.empty())
        plan.sizes =
            o.quick ? std::vector<long long>{1031} : std::vector<long long>{4096, 16384, 65536};
    plan.workGroups = o.workGroups.empty() ? std::vector<int>{0} : o.workGroups;
    plan.params.dt = presetInfo(plan.preset).dt;
    plan.params.softening = presetInfo(plan.preset).softening;
    plan.params.thetaFar =
        static_cast<float>(o.thetaFar.value_or(presetInfo(plan.preset).thetaFar));
    plan.thetas = o.thetas.empty() ? std::vector<double>{plan.params.theta} : o.thetas;
    return plan;
}

std::vector<NbodyParams> rowParams(const SplitBenchPlan& plan, NbodyVariant variant) {
    if (variant != NbodyVariant::Tree) return {plan.params};
    std::vector<NbodyParams> rows;
    for (double theta : plan.thetas) {
        rows.push_back(plan.params);
        rows.back().theta = static_cast<float>(theta);
    }
    return rows;
}

std::string anglesLabel(NbodyVariant variant, const NbodyParams& params) {
    if (variant != NbodyVariant::Tree) return "";
    return " theta=" + shortNumber(params.theta) + " far=" + shortNumber(params.thetaFar);
}

std::string splitConfigLabel(const NbodyKernelConfig& effective, const NbodyParams& params) {
    return describe(effective) + anglesLabel(effective.variant, params);
}

SplitTimed timeSplitSteps(const std::function<NbodyMultiTimings()>& step, const BenchOptions& o) {
    double firstMs = 0;
    for (int i = 0; i < std::max(4, o.warmup); ++i) {
        firstMs = step().stepMs;
        if (firstMs > 2000 && i >= 1) break;  // seconds per step: the balance is set by now
    }
    const int repeats =
        std::clamp(static_cast<int>(3000 / std::max(firstMs, 1e-3)), 3, std::max(3, o.repeats));
    SplitTimed t;
    for (int i = 0; i < repeats; ++i) {
        t.calls.push_back(step());
        t.stepMs.push_back(t.calls.back().stepMs);
    }
    t.rebalances = t.calls.back().rebalances;
    return t;
}

void addPerDeviceRows(BenchReport& report, const BenchRow& head, const SplitTimed& t,
                      const std::string& label) {
    const NbodyMultiTimings& last = t.calls.back();
    for (std::size_t d = 0; d < last.devices.size(); ++d) {
        std::vector<double> compute, exchange, wait;
        for (const NbodyMultiTimings& call : t.calls) {
            compute.push_back(call.devices[d].computeMs);
            exchange.push_back(call.devices[d].exchangeMs);
            wait.push_back(call.devices[d].waitMs);
        }
        BenchRow row = head;
        row.variant = "  " + label + " " + std::to_string(d);
        row.config = last.devices[d].device;
        row.metrics = {{"compute ms", median(compute)},
                       {"exchange ms", median(exchange)},
                       {"wait ms", median(wait)},
                       {"share %", 100.0 * last.devices[d].share}};
        // The phase breakdown: each phase's median over the timed calls (0 in a call without it).
        for (const auto& phase : last.devices[d].phases) {
            std::vector<double> ms;
            for (const NbodyMultiTimings& call : t.calls) {
                double v = 0;
                for (const auto& p : call.devices[d].phases)
                    if (p.first == phase.first) v = p.second;
                ms.push_back(v);
            }
            row.metrics.push_back({phase.first + " ms", median(ms)});
        }
        row.note.clear();
        report.add(row);
    }
}

}  // namespace clviz::bench
