#include "common/median.hpp"

#include <algorithm>

namespace clviz {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) {
        m = (m + *std::max_element(values.begin(), values.begin() + mid)) / 2.0;
    }
    return m;
}

}  // namespace clviz
