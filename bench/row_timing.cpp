#include "bench/row_timing.hpp"

#include <algorithm>

#include "compute/core/profiling.hpp"

namespace clviz::bench {

bool wanted(const BenchOptions& o, const std::string& variant) {
    return o.variants.empty() ||
           std::find(o.variants.begin(), o.variants.end(), variant) != o.variants.end();
}

void appendNote(std::string& note, const std::string& more) {
    if (more.empty()) return;
    note += (note.empty() ? "" : "; ") + more;
}

std::vector<double> timeRepeats(const std::function<double()>& run, const BenchOptions& o,
                                double budgetMs, int maxRepeats) {
    double firstMs = 0;
    for (int i = 0; i < std::max(1, o.quick ? 1 : o.warmup); ++i) {
        firstMs = run();
        if (firstMs > 1000) break;
    }
    int repeats = o.quick ? std::min(o.repeats, 3) : o.repeats;
    if (maxRepeats > 0) repeats = std::min(repeats, maxRepeats);
    if (firstMs > 0) repeats = std::clamp(static_cast<int>(budgetMs / firstMs), 3, repeats);
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i)
        ms.push_back(run());
    return ms;
}

BenchRow timedRow(std::string suite, std::string variant, std::string config, std::string size,
                  const std::vector<double>& ms) {
    BenchRow row;
    row.suite = std::move(suite);
    row.variant = std::move(variant);
    row.config = std::move(config);
    row.size = std::move(size);
    if (ms.empty()) return row;
    row.medianMs = median(ms);
    row.minMs = *std::min_element(ms.begin(), ms.end());
    row.maxMs = *std::max_element(ms.begin(), ms.end());
    row.samples = static_cast<int>(ms.size());
    return row;
}

}  // namespace clviz::bench
