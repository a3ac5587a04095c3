#pragma once
// Whether a split force pass (several devices or MPI ranks) gives one device's accelerations, as
// honestly as each method allows (docs/scaling.md, "Checking a split"). The benchmarks compare the
// accelerations of the first force pass from the same positions, before anything moves:
// - all-pairs variants: the same kernel and j order on every device, so bit for bit;
// - pairs: the same float terms added in another order, so within the rounding bound
//   2 gamma_N sum_j |a_ij| per component, checked exactly on sampled bodies (the sum over j is
//   N operations a body, too many for every body at N = 1M on the host);
// - the tree: on GPUs one device's own answer varies from run to run (the walk's lists fill
//   through atomics), so the split is judged against that spread, measured by rerunning one
//   device, in a norm per body that does not blow up where the forces on a body nearly cancel.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "compute/nbody/body.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz::bench {

// Per body e_i = |a_i - ref_i| / max(|ref_i|, rms |ref|) (xyz; the floor keeps bodies whose
// acceleration nearly cancels from dominating): the median and the largest e_i. Infinite when
// either holds NaN or Inf, or the sizes differ.
struct ForceDeviation {
    double median = 0;
    double max = 0;
};
ForceDeviation forceDeviation(const std::vector<Float4>& a, const std::vector<Float4>& ref);

// Pairs: for `samples` bodies spread evenly over the N, per component, |a - ref| divided by the
// rounding bound 2 gamma_N sum_j |a_ij| (sum in double from the positions, G = 1, the softening
// the force used): the largest ratio (<= 1 within the bound; infinite for NaN or Inf).
constexpr int kPairsSamples = 256;  // bodies the benchmarks check pairs on
double worstPairsRoundingRatio(const std::vector<Float4>& a, const std::vector<Float4>& ref,
                               const std::vector<Float4>& positions, float softening,
                               int samples = 256);

// The verdict and a short text for the benchmark's note: "ok" or "WRONG (...)".
struct SplitVerdict {
    bool ok = false;
    std::string text;
};
// The split against one device must not deviate more than kTreeSpreadFactor times the device's
// own rerun spread, in the median and in the max, with a floor of kTreeExactFloor where the device
// repeats itself bit for bit (CPU devices): a few float ulps, far below any misplaced slice.
constexpr double kTreeSpreadFactor = 4;
constexpr double kTreeExactFloor = 1e-6;
SplitVerdict judgeTreeSplit(const ForceDeviation& split, const ForceDeviation& rerun);
SplitVerdict judgePairsSplit(double worstRoundingRatio);
SplitVerdict judgeExactSplit(const ForceDeviation& split);  // all-pairs: bit for bit

// All of it for a benchmark row: the verdict for the variant and the figures it rests on, named
// for the table. `rerun` gives one device's accelerations of the same pass again (called for the
// tree only). `bodies`: the positions both started from.
struct SplitAgreement {
    SplitVerdict verdict;
    std::vector<std::pair<std::string, double>> metrics;
};
SplitAgreement checkSplitForces(NbodyVariant variant, const std::vector<Float4>& split,
                                const std::vector<Float4>& alone, const std::vector<Body>& bodies,
                                float softening, const std::function<std::vector<Float4>()>& rerun);

}  // namespace clviz::bench
