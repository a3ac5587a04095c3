#pragma once
// Step 5 of MNF on the device in FP64: C_adj = U^-T C_D U^-1 from the host's Cholesky factor of C_N
// (mnf_solve.hpp's MnfReduce), by forward substitution with U^T on every column twice
// (kernels/spectral_mnf_reduce.cl): W = U^-T C_D, then C_adj = U^-T W^T (C_D is symmetric). It
// replaces LAPACK's dsygst, whose time on a slow host was most of the eigen step's BLAS-3 work;
// the host keeps the Cholesky factorisation and the tridiagonal solve.
#include "compute/core/cl.hpp"
#include "compute/core/pinned_host_buffer.hpp"

#include <vector>

namespace clviz {

class ComputeContext;

class MnfDeviceReduce {
  public:
    explicit MnfDeviceReduce(ComputeContext& cc);

    // Whether the device can: cl_khr_fp64, and one column (bands doubles) in local memory.
    static bool supported(ComputeContext& cc, int bands);

    // `u` (upper triangle read), `a` (C_D in, C_adj out): bands x bands, column-major. Blocking.
    // Throws clviz::Error where supported() is false.
    void reduce(const std::vector<double>& u, std::vector<double>& a, int bands);

    // Device time of the last reduce()'s two passes, ms.
    double deviceMs() const { return deviceMs_; }

  private:
    ComputeContext& cc_;
    cl::Buffer u_, x_, w_;
    PinnedHostBuffer staging_;  // U, then C_D in and C_adj out
    std::size_t capacity_ = 0;  // doubles per buffer
    double deviceMs_ = 0;
};

}  // namespace clviz
