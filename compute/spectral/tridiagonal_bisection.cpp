#include "compute/spectral/tridiagonal_bisection.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

// Work-items per eigenvalue: the points counted at once (a warp on NVIDIA).
constexpr std::size_t kPoints = 32;

}  // namespace

TridiagonalBisection::TridiagonalBisection(ComputeContext& cc) : cc_(cc) {}

bool TridiagonalBisection::supported(ComputeContext& cc, int n) {
    return n >= 1 && cc.info().hasExtension("cl_khr_fp64") &&
           std::uint64_t(2 * n) * sizeof(double) + 1024 <= cc.info().localMemBytes;
}

std::vector<double> TridiagonalBisection::eigenvalues(const std::vector<double>& d,
                                                      const std::vector<double>& e) {
    const int n = int(d.size());
    if (!supported(cc_, n))
        throw Error("tridiagonal eigenvalues: the device cannot take " + std::to_string(n) +
                    " rows in FP64 (cl_khr_fp64 and local memory for the matrix needed)");
    if (e.size() + 1 < d.size())
        throw Error("tridiagonal eigenvalues: the off-diagonal needs n - 1 values");
    const std::size_t count = std::size_t(n);
    // Gershgorin bounds, widened as LAPACK's dstebz does so that the bracket holds every
    // eigenvalue despite rounding; pivmin keeps the Sturm recurrence from dividing by zero.
    std::vector<double> e2(std::max<std::size_t>(count, 1), 0.0);
    double lo = d[0], hi = d[0], largestE2 = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double left = i > 0 ? std::abs(e[i - 1]) : 0.0;
        const double right = i + 1 < count ? std::abs(e[i]) : 0.0;
        if (!std::isfinite(d[i]) || !std::isfinite(right))
            throw Error("tridiagonal eigenvalues: the matrix holds a value that is not finite");
        lo = std::min(lo, d[i] - left - right);
        hi = std::max(hi, d[i] + left + right);
        if (i + 1 < count) {
            e2[i] = e[i] * e[i];
            largestE2 = std::max(largestE2, e2[i]);
        }
    }
    const double pivmin = DBL_MIN * std::max(1.0, largestE2);
    const double norm = std::max(std::abs(lo), std::abs(hi));
    const double widen = 2.1 * DBL_EPSILON * norm * double(n) + 4.2 * pivmin;
    lo -= widen;
    hi += widen;

    cl::CommandQueue& q = cc_.queue();
    if (capacity_ < count) {
        d_ = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, count * sizeof(double));
        e2_ = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, count * sizeof(double));
        values_ = cl::Buffer(cc_.context(), CL_MEM_WRITE_ONLY, count * sizeof(double));
        capacity_ = count;
    }
    q.enqueueWriteBuffer(d_, CL_FALSE, 0, count * sizeof(double), d.data());
    q.enqueueWriteBuffer(e2_, CL_FALSE, 0, count * sizeof(double), e2.data());
    cl::Kernel k =
        cc_.programs().kernel("spectral_tridiagonal_bisect.cl", "tridiagonal_bisect", "");
    const std::size_t points = std::min(kPoints, cc_.info().maxWorkGroupSize);
    setArgs(k, d_, e2_, cl_int(n), lo, hi, pivmin, values_);
    k.setArg(7, cl::Local(count * sizeof(double)));
    k.setArg(8, cl::Local(count * sizeof(double)));
    k.setArg(9, cl::Local(sizeof(cl_int)));
    cl::Event done;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(count * points), cl::NDRange(points),
                           nullptr, &done);
    std::vector<double> values(count);
    q.enqueueReadBuffer(values_, CL_TRUE, 0, count * sizeof(double), values.data());
    deviceMs_ = eventMilliseconds(done);
    return values;
}

}  // namespace clviz
