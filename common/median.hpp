#pragma once
// The median of a set of timings (the mean of the middle two for an even count; 0 for none), for
// the benchmark's rows, the overlays and the frame trace alike.
#include <vector>

namespace clviz {

double median(std::vector<double> values);

}  // namespace clviz
