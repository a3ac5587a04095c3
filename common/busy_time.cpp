#include "common/busy_time.hpp"

#include <algorithm>

namespace clviz {

double busyTime(std::vector<std::pair<double, double>> intervals) {
    std::sort(intervals.begin(), intervals.end());
    double busy = 0, start = 0, end = 0;
    bool open = false;
    for (const auto& [s, e] : intervals) {
        if (open && s <= end) {
            end = std::max(end, e);
            continue;
        }
        if (open) busy += end - start;
        start = s, end = e, open = true;
    }
    if (open) busy += end - start;
    return busy;
}

}  // namespace clviz
