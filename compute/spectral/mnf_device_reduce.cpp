#include "compute/spectral/mnf_device_reduce.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

// Work-items per column: one row each at the lab's sizes (up to 256 bands).
constexpr std::size_t kGroup = 256;

std::size_t groupFor(ComputeContext& cc) {
    return std::min<std::size_t>(kGroup, cc.info().maxWorkGroupSize);
}

}  // namespace

MnfDeviceReduce::MnfDeviceReduce(ComputeContext& cc) : cc_(cc) {}

bool MnfDeviceReduce::supported(ComputeContext& cc, int bands) {
    // The column in local memory, leaving room for what the implementation keeps there.
    return bands >= 1 && cc.info().hasExtension("cl_khr_fp64") &&
           std::uint64_t(bands) * sizeof(double) + 1024 <= cc.info().localMemBytes;
}

void MnfDeviceReduce::reduce(const std::vector<double>& u, std::vector<double>& a, int bands) {
    if (!supported(cc_, bands))
        throw Error("MNF: the device cannot reduce " + std::to_string(bands) +
                    " bands in FP64 (cl_khr_fp64 and local memory for a column needed)");
    const std::size_t n = std::size_t(bands), count = n * n, bytes = count * sizeof(double);
    if (u.size() != count || a.size() != count)
        throw Error("MNF: the reduction's matrices must be bands x bands");
    cl::CommandQueue& q = cc_.queue();
    if (capacity_ < count) {
        u_ = cl::Buffer(cc_.context(), CL_MEM_READ_ONLY, bytes);
        x_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, bytes);
        w_ = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, bytes);
        capacity_ = count;
    }
    // Through pinned memory: pageable transfers pass through the driver's own staging copy.
    if (staging_.bytes() < 2 * bytes) staging_ = PinnedHostBuffer(cc_.context(), q, 2 * bytes);
    double* stagedU = static_cast<double*>(staging_.data());
    double* stagedA = stagedU + count;
    std::copy(u.begin(), u.end(), stagedU);
    std::copy(a.begin(), a.end(), stagedA);
    // Non-blocking writes: the blocking read at the end comes after them in the queue.
    q.enqueueWriteBuffer(u_, CL_FALSE, 0, bytes, stagedU);
    q.enqueueWriteBuffer(x_, CL_FALSE, 0, bytes, stagedA);
    cl::Kernel k = cc_.programs().kernel("spectral_mnf_reduce.cl", "mnf_forward_solve", "");
    const std::size_t group = groupFor(cc_);
    const cl::NDRange global(n * group), local(group);
    cl::Event first, last;
    // W = U^-T C_D: columns of C_D (element (r, c) at r + c n).
    setArgs(k, u_, x_, w_, cl_int(bands), cl_int(1), cl_int(bands));
    k.setArg(6, cl::Local(n * sizeof(double)));
    q.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &first);
    // C_adj = U^-T W^T: the columns of W^T are W's rows (element (r, c) at r n + c).
    setArgs(k, u_, w_, x_, cl_int(bands), cl_int(bands), cl_int(1));
    k.setArg(6, cl::Local(n * sizeof(double)));
    q.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &last);
    q.enqueueReadBuffer(x_, CL_TRUE, 0, bytes, stagedA);
    std::copy(stagedA, stagedA + count, a.begin());
    deviceMs_ = spanMilliseconds(first, last);
}

}  // namespace clviz
