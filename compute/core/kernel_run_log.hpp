#pragma once
// The last timed run of each kernel the features report (N-body force, image filters, the
// linear-algebra lab), so that one chart can place them side by side: flops done, bytes moved,
// device seconds. Each feature fills it where it already reads its profiling events; the counts
// are the feature's own and each record's note says how they were counted.
//
// Process-wide and thread-safe: a demo that is not on screen keeps its last runs here.
#include <mutex>
#include <string>
#include <vector>

#include "common/roofline.hpp"

namespace clviz {

struct KernelRunRecord {
    std::string feature;     // "N-body", "image lab", "linalg"
    RooflinePoint run;       // name, flops (0: not counted), bytes, seconds, note
    long long sequence = 0;  // increases with every record, for "newest first"
};

class KernelRunLog {
  public:
    // Replaces the previous record of the same feature and run name. Runs without a positive,
    // finite time are ignored (nothing was measured).
    void record(const std::string& feature, const RooflinePoint& run);
    // Every feature's latest runs, in the order they were first recorded.
    std::vector<KernelRunRecord> latest() const;
    // The latest runs of one feature.
    std::vector<KernelRunRecord> latest(const std::string& feature) const;
    void clear();

  private:
    mutable std::mutex mutex_;
    std::vector<KernelRunRecord> records_;
    long long sequence_ = 0;
};

// The process's log.
KernelRunLog& kernelRunLog();

}  // namespace clviz
