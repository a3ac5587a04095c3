#include "compute/core/kernel_run_log.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

void KernelRunLog::record(const std::string& feature, const RooflinePoint& run) {
    if (!(std::isfinite(run.seconds) && run.seconds > 0)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find_if(records_.begin(), records_.end(), [&](const KernelRunRecord& r) {
        return r.feature == feature && r.run.name == run.name;
    });
    KernelRunRecord rec{feature, run, ++sequence_};
    if (it == records_.end())
        records_.push_back(std::move(rec));
    else
        *it = std::move(rec);
}

std::vector<KernelRunRecord> KernelRunLog::latest() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_;
}

std::vector<KernelRunRecord> KernelRunLog::latest(const std::string& feature) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<KernelRunRecord> out;
    for (const auto& r : records_)
        if (r.feature == feature) out.push_back(r);
    return out;
}

void KernelRunLog::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.clear();
}

KernelRunLog& kernelRunLog() {
    static KernelRunLog log;
    return log;
}

}  // namespace clviz
