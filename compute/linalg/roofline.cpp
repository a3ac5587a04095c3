#include "compute/linalg/roofline.hpp"

#include <algorithm>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

// The shortest of `runs` launches, in milliseconds.
double bestOf(ComputeContext& cc, cl::Kernel& k, std::size_t global, std::size_t local, int runs) {
    double best = 0;
    for (int r = 0; r < runs; ++r) {
        cl::Event e;
        cc.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(local),
                                        nullptr, &e);
        const double ms = eventMilliseconds(e);
        if (r == 0 || ms < best) best = ms;
    }
    return best;
}

}  // namespace

double gemmArithmeticIntensity(const GemmShape& s, bool readsC) {
    const double bytes =
        4.0 * (double(s.m) * s.k + double(s.k) * s.n + double(s.m) * s.n * (readsC ? 2 : 1));
    return bytes > 0 ? s.flops() / bytes : 0;
}

RooflineCeilings measureRooflineCeilings(ComputeContext& cc, std::size_t readBytes) {
    const DeviceInfo& info = cc.info();
    RooflineCeilings out;
    cl::Buffer sink(cc.context(), CL_MEM_READ_WRITE, sizeof(float));
    const std::size_t units = std::max(1u, info.computeUnits);
    const bool gpu = info.kind == DeviceKind::Gpu;

    // Read bandwidth: the same probe the reduction benchmark compares with.
    readBytes = std::min<std::size_t>(readBytes, info.maxAllocBytes) / 16 * 16;
    if (readBytes < 16) throw Error("roofline: the read probe needs at least 16 bytes");
    {
        cl::Buffer data(cc.context(), CL_MEM_READ_ONLY, readBytes);
        cc.queue().enqueueFillBuffer(data, cl_float(1), 0, readBytes);
        cl::Kernel k = cc.programs().kernel("reduce.cl", "read_probe", "-DOP_SUM");
        const std::size_t wg = std::min<std::size_t>(256, info.maxWorkGroupSize);
        const std::size_t groups =
            std::max<std::size_t>(1, std::min(readBytes / 16 / wg, units * (gpu ? 8 : 1)));
        setArgs(k, data, cl_ulong(readBytes / 16), sink);
        out.readGBs = double(readBytes) / (bestOf(cc, k, groups * wg, wg, 5) * 1e6);
    }

    // FP32: 16 chains x iters FMAs per work-item, 2 flops each.
    {
        cl::Kernel k = cc.programs().kernel("roofline.cl", "fma_probe", "");
        const std::size_t wg = std::min<std::size_t>(256, info.maxWorkGroupSize);
        const std::size_t items = units * (gpu ? 2048 : wg);
        const int iters = gpu ? 4096 : 256;
        setArgs(k, cl_int(iters), cl_float(1.0f), sink);
        const double ms = bestOf(cc, k, items, wg, 3);
        out.fp32Gflops = 2.0 * 16 * double(iters) * double(items) / (ms * 1e6);
    }

    // TF32 mma.sync: only where NVIDIA's compiler takes the inline PTX.
    InlinePtxBuilds ptx(cc);
    if (!ptx.active()) {
        out.tf32Note = "no inline PTX on this device (mma.sync is NVIDIA's)";
    } else {
        try {
            cl::Kernel k = cc.programs().kernel("roofline.cl", "mma_tf32_probe", "-DNV_INLINE_PTX");
            const std::size_t wg = 256, items = units * 2048;
            const int iters = 2048;
            setArgs(k, cl_int(iters), cl_float(1.0f), sink);
            const double ms = bestOf(cc, k, items, wg, 3);
            // Per warp and iteration: 4 MMAs of 16 x 8 x 8, 2 flops per multiply-add.
            out.tf32Gflops = double(items / 32) * iters * 4 * (2.0 * 16 * 8 * 8) / (ms * 1e6);
        } catch (const Error& e) {
            out.tf32Note = std::string("the TF32 probe did not build: ") + e.what();
        }
    }
    return out;
}

}  // namespace clviz
