#pragma once
// The multi-threaded C++ baseline the benchmark compares OpenCL against: the same float32 direct
// sum as the kernels, structure-of-arrays so the compiler vectorizes the j-loop, one std::thread
// per hardware thread, each taking a contiguous range of i.
#include <cstddef>
#include <vector>

#include "compute/nbody/body.hpp"

namespace clviz {

class NbodyCpuBaseline {
  public:
    NbodyCpuBaseline(const std::vector<Body>& bodies, float softening);

    // Accelerations of bodies [0, iCount) against all bodies, split over `threads` threads
    // (0 = hardware concurrency). Returns wall-clock milliseconds.
    double forcePass(std::size_t iCount, unsigned threads = 0);

    std::size_t size() const { return x_.size(); }
    // Results of the last forcePass (valid for i < its iCount).
    const std::vector<float>& ax() const { return ax_; }
    const std::vector<float>& ay() const { return ay_; }
    const std::vector<float>& az() const { return az_; }

  private:
    std::vector<float> x_, y_, z_, m_, ax_, ay_, az_;
    float eps2_;
};

}  // namespace clviz
