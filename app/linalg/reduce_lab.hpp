#pragma once
// The reduction panel's measurements: a float sum of 1 KiB, 4 KiB, ... up to a size bounded by
// the device (256 MiB on a GPU, 16 MiB elsewhere), one size a frame in turn, each checked against
// the CPU reference (double accumulation) and timed on the device. GL-free.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "common/roofline.hpp"
#include "compute/core/cl.hpp"
#include "compute/linalg/reduction.hpp"

namespace clviz {

class ComputeContext;

struct ReducePoint {
    std::size_t bytes = 0;
    double ms = 0;         // device time, 0 until measured
    bool checked = false;  // matched the CPU reference
    std::string problem;   // why not, when it did not
    double gigabytesPerSecond() const { return ms > 0 ? double(bytes) / (ms * 1e-3) * 1e-9 : 0; }
    // flops: one add per element; bytes: every element read once.
    RooflinePoint point(ReduceVariant variant) const;
};

class ReduceLab {
  public:
    explicit ReduceLab(ComputeContext& cc);
    ~ReduceLab();

    // Switches the variant (measurements start over).
    void setVariant(ReduceVariant v);
    ReduceVariant variant() const { return variant_; }
    // Measures the next size. Throws clviz::Error when the reduction fails.
    void step();
    const std::vector<ReducePoint>& points() const { return points_; }
    std::size_t maxBytes() const { return maxBytes_; }

  private:
    ComputeContext& cc_;
    std::unique_ptr<Reduction> reduction_;
    ReduceVariant variant_ = ReduceVariant::ConflictFree;
    std::size_t maxBytes_ = 0;
    std::vector<float> host_;
    std::vector<double> reference_;  // per point; NaN until computed
    cl::Buffer data_;
    std::vector<ReducePoint> points_;
    std::size_t next_ = 0;
};

}  // namespace clviz
