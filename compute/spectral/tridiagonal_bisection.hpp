#pragma once
// Every eigenvalue of a symmetric tridiagonal matrix on the device in FP64, by multisection on
// Sturm counts (kernels/spectral_tridiagonal_bisect.cl): the MNF eigen step's eigenvalues after the
// host's dsytrd. The host's dsterf is a sequential QR sweep (its time on the GPU host:
// docs/spectral.md); here each eigenvalue is a work-group of its own, all at once.
// Each eigenvalue to a few units in the last place of the largest in magnitude (as dsterf's).
#include <vector>

#include "compute/core/cl.hpp"

namespace clviz {

class ComputeContext;

class TridiagonalBisection {
  public:
    explicit TridiagonalBisection(ComputeContext& cc);

    // Whether the device can: cl_khr_fp64, and the matrix (2n doubles) in local memory.
    static bool supported(ComputeContext& cc, int n);

    // The n eigenvalues of the tridiagonal with diagonal `d` (n) and off-diagonal `e` (n - 1 used),
    // ascending. Blocking. Throws clviz::Error where supported() is false or an input is not
    // finite.
    std::vector<double> eigenvalues(const std::vector<double>& d, const std::vector<double>& e);

    // Device time of the last eigenvalues() call's kernel, ms.
    double deviceMs() const { return deviceMs_; }

  private:
    ComputeContext& cc_;
    cl::Buffer d_, e2_, values_;
    std::size_t capacity_ = 0;  // doubles per buffer
    double deviceMs_ = 0;
};

}  // namespace clviz
