#pragma once
// How long something was busy over intervals that may overlap (commands of several queues of one
// device run at once): the length of their union, not the sum of their lengths.
#include <utility>
#include <vector>

namespace clviz {

// Each interval is (start, end), end >= start, in any unit; the result is in that unit.
double busyTime(std::vector<std::pair<double, double>> intervals);

}  // namespace clviz
