#include "compute/nbody/run_record.hpp"

#include <string>

namespace clviz {

std::optional<RooflinePoint> nbodyForceRun(const NbodyStepTimings& timings, NbodyVariant variant,
                                           NbodyPrecision precision) {
    if (variant == NbodyVariant::Tree) return std::nullopt;
    if (timings.steps <= 0 || timings.bodies <= 0 || !(timings.forceMs > 0)) return std::nullopt;
    const bool fp64 = precision == NbodyPrecision::Double;
    NbodyStepTimings work = timings;  // the flops as every other N-body figure counts them
    countNbodyWork(work, variant, fp64, 0);
    const double steps = double(timings.steps);
    const double bytesPerBody = fp64 ? 64 : 32;  // a 4-vector in and one out
    RooflinePoint p;
    p.name = std::string("N-body ") + variantName(variant) + (fp64 ? " fp64" : "") +
             (work.allPairs ? "" : " (each pair once)");
    p.flops = work.interactionsPerStep * work.flopsPerInteraction * steps;
    p.bytes = bytesPerBody * double(timings.bodies) * steps;
    p.seconds = timings.forceMs * 1e-3;
    p.note = std::string(work.allPairs
                             ? "flops: 20 per interaction x N^2 (all-pairs count)"
                             : "flops: 26 per pair x N(N-1)/2, each pair's force computed once "
                               "and added to both bodies") +
             "; bytes: positions in + accelerations out, the least a force pass moves";
    return p;
}

}  // namespace clviz
