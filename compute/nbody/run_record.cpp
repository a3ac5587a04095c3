#include "compute/nbody/run_record.hpp"

#include <string>

namespace clviz {

std::optional<RooflinePoint> nbodyForceRun(const NbodyStepTimings& timings, NbodyVariant variant,
                                           NbodyPrecision precision) {
    if (variant == NbodyVariant::Tree) return std::nullopt;
    if (timings.steps <= 0 || timings.bodies <= 0 || !(timings.forceMs > 0)) return std::nullopt;
    const double n = double(timings.bodies);
    const double steps = double(timings.steps);
    const bool fp64 = precision == NbodyPrecision::Double;
    const double bytesPerBody = fp64 ? 64 : 32;  // a 4-vector in and one out
    RooflinePoint p;
    const bool eachPairOnce = variant == NbodyVariant::Pairs;
    p.name = std::string("N-body ") + variantName(variant) + (fp64 ? " fp64" : "") +
             (eachPairOnce ? " (each pair once)" : "");
    p.flops = 20.0 * (eachPairOnce ? n * (n - 1) / 2 : n * n) * steps;
    p.bytes = bytesPerBody * n * steps;
    p.seconds = timings.forceMs * 1e-3;
    p.note = std::string(eachPairOnce ? "flops: 20 per pair force x N(N-1)/2, each computed once "
                                        "and added to both bodies (those adds not counted)"
                                      : "flops: 20 per interaction x N^2 (all-pairs count)") +
             "; bytes: positions in + accelerations out, the least a force pass moves";
    return p;
}

}  // namespace clviz
