#pragma once
// How N bodies are shared among devices (or MPI ranks): contiguous slices in device order, sized by
// each one's measured speed. Pure functions, so that every MPI rank computes the same plan from
// the same all-gathered speeds.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clviz {

struct BodySlice {
    std::size_t begin = 0;
    std::size_t count = 0;
    std::size_t end() const { return begin + count; }
};

// Slices of n bodies proportional to `weights` (>= 0, at least one > 0), contiguous and in order;
// the counts add up to n exactly (largest remainders get the leftover bodies). A zero weight gets
// an empty slice. Throws clviz::Error for no weights, negative or non-finite ones, or all zero.
std::vector<BodySlice> planSlices(std::size_t n, const std::vector<double>& weights);

// Bodies per millisecond of force time for each device, from the last slices and their force times
// (all-pairs cost is proportional to the slice's body count). A device with an empty slice or no
// time keeps `previous` (or the mean of the others when it has none).
std::vector<double> measuredSpeeds(const std::vector<BodySlice>& slices,
                                   const std::vector<double>& forceMs,
                                   const std::vector<double>& previous);

// Whether re-slicing by `speeds` would shorten the step (the slowest device's force time) by more
// than `minGain` (0.05: 5%). Moving bodies costs one extra force pass, so small gains wait.
bool worthRebalancing(const std::vector<BodySlice>& slices, const std::vector<double>& speeds,
                      double minGain = 0.05);

// When to re-slice, from each step() call's force times. Times are summed while the slices stay
// the same, and a decision needs at least 3 calls and 20 ms of force time on every device: single
// kernel times of small N are mostly launch noise, and devices that share cores or clocks (two
// PoCL devices on one CPU) measure each other's load. Only a gain above 10% moves bodies (a move
// costs one extra force pass on the devices whose slice changed). Deterministic: MPI ranks that
// feed it the same all-gathered times take the same decisions.
class SliceBalancer {
  public:
    void reset();  // a new N or new slices: start measuring again
    // New slices when they pay, else nothing. forceMs: each device's force time in the last call
    // (all its steps); steps: how many steps the call took.
    std::optional<std::vector<BodySlice>> update(const std::vector<BodySlice>& slices,
                                                 const std::vector<double>& forceMs, int steps);

  private:
    std::vector<double> summedMs_;
    long long steps_ = 0;
    int calls_ = 0;
};

// A device's slice cut into `pieces` (at least 1) that tile it in order, empty ones left out.
// Even: as even as whole bodies allow. Halving: each piece half of what is left and the last
// two equal (4 pieces: 1/2, 1/4, 1/8, 1/8), so the last piece, whose copies nothing overlaps
// when pieces travel while the next is computed, is 1/2^(K-1) of the slice instead of 1/K.
std::vector<BodySlice> cutIntoPieces(const BodySlice& slice, std::size_t pieces, bool halving);

// "0: 0 + 524288 (50.0%), 1: 524288 + 524288 (50.0%)": for logs and error messages.
std::string describeSlices(const std::vector<BodySlice>& slices);

}  // namespace clviz
