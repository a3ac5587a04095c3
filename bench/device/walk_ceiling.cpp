// Probe for issue 31 (not part of the CMake build): the ceiling of the group walk's list sums.
// A kernel appended to kernels/nbody_tree.cl (the build's embedded copy, or CLVIZ_KERNEL_DIR's)
// sums synthetic lists with the walk's own SUM_LISTS (GRAVITY_PULL_POTENTIAL for bodies,
// INTERACT_CELL for cells), built with the walk's options (TreeForce::refreshKernels: the default
// group walk with the far field, its register cap, NVIDIA's inline PTX where taken) and its local
// arrays, so a multiprocessor holds as many of its work-groups as of the walk's. Every work-group
// is full (every lane a body) and sums its lists `rounds` times between two barriers, as the walk's
// flush does, with no traversal: list entries per second is what the sums alone can reach.
// Build (from the repository root, after building clviz_compute in build/):
//   g++ -std=c++20 -O2 -I. -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
//     -DCL_HPP_ENABLE_EXCEPTIONS -DCL_TARGET_OPENCL_VERSION=300 \
//     -DCL_USE_DEPRECATED_OPENCL_1_2_APIS bench/device/walk_ceiling.cpp \
//     build/compute/core/libclviz_compute_core.a build/common/libclviz_common.a -lOpenCL -pthread \
//     -o walk-ceiling
// Usage: walk-ceiling [MIX...]  MIX = bodies:cells per flush (default the rows below);
// CEILING_OPTIONS="..." replaces the walk options after the -D sizes (e.g. another register cap or
// STACK), CEILING_GROUPS=k work-groups per compute unit (the walk's 32), CEILING_MS the target
// kernel time per row.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/core/profiling.hpp"

using namespace clviz;

namespace {

// Appended to nbody_tree.cl: its macros and sizes (WG, LIST, CELLS, STACK, FAR_COEFFS) apply.
const char* kCeilingKernel = R"CL(
__kernel WALK_GROUP_SIZE void walk_ceiling(__global const float4* restrict bodies,
                                           __global const float4* restrict cells, const int lc,
                                           const int cc, const int rounds, const float eps2,
                                           __global float4* restrict out) {
    // The walk's local arrays, each touched so that none is dropped: the same footprint.
    __local int stack[STACK];
    __local float4 list[LIST];
#ifdef FAR_FIELD
    __local float farSum[FAR_COEFFS];  // the shares themselves are private (registers)
#endif
    __local float4 cellCom[CELLS], cellQa[CELLS];
    __local float2 cellQb[CELLS];
    const int lid = get_local_id(0);
    for (int k = lid; k < LIST; k += WG) list[k] = bodies[k];
    for (int k = lid; k < CELLS; k += WG) {
        cellCom[k] = cells[3 * k];
        cellQa[k] = cells[3 * k + 1];
        cellQb[k] = cells[3 * k + 2].xy;
    }
    stack[lid] = lid;
#ifdef FAR_FIELD
    if (lid < FAR_COEFFS) farSum[lid] = 0;
#endif
    // Each lane's body: off the lists' cube, so no distance is 0.
    float4 p[1];
    p[0] = bodies[LIST + get_global_id(0) % WG];
    float ax[1] = {0}, ay[1] = {0}, az[1] = {0}, phi[1] = {0};
    for (int r = 0; r < rounds; ++r) {
        barrier(CLK_LOCAL_MEM_FENCE);
        SUM_LISTS(1, 0, 1);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float extra = (float)stack[(lid + 1) % WG];
#ifdef FAR_FIELD
    extra += farSum[lid % FAR_COEFFS];
#endif
    out[get_global_id(0)] = (float4)(ax[0], ay[0], az[0], phi[0] + extra);
}
)CL";

}  // namespace

int main(int argc, char** argv) {
    auto cc = ComputeContext::create(DeviceRequest{});
    const DeviceInfo& info = cc->info();
    std::printf("device: %s, %u compute units\n", info.name.c_str(), info.computeUnits);
    const int wg = 128, list = 768, cellsCap = list / 2;
    // TreeForce::refreshKernels's walk options for the default group walk with the far field
    // (theta_far > 0) on NVIDIA: sizes, then the stack (kFarWalkStack), the register cap
    // (kFarWalkRegisterCap) and the expansion's order. (Session 8's first call measured this
    // branch's parent, f83603f: STACK=1024 and a cap of 80; the same sums, ceiling-alt.txt. Its
    // ceiling was measured with lists of 512 and the far coefficients' shares in local memory;
    // since cf49a0d the walk keeps those private and has lists of 768, which this mirrors.)
    std::string sizes =
        "-DWG=128 -DBPI=1 -DLIST=768 -DCELLS=384 -DLEAF=4 -DSORT_WG=128 "
        "-DSCAN_WG=256 -DREDUCE_WG=256 -DKEY_BITS=21 -DSORT_KPI=16";
    const bool nvidia = info.hasExtension("cl_nv_compiler_options");
    std::string walkOptions =
        std::string(" -DSTACK=768 -DFAR_FIELD -DFAR_ORDER=3") +
        (nvidia ? " -DWALK_REGISTER_CAP -cl-nv-maxrregcount=72 -DNV_INLINE_PTX" : "");
    if (const char* o = std::getenv("CEILING_OPTIONS")) walkOptions = std::string(" ") + o;
    const std::string options = sizes + walkOptions;
    std::printf("options: %s\n", options.c_str());
    const std::string source = kernelSource("nbody_tree.cl") + kCeilingKernel;
    cl::Program program(cc->context(), source);
    try {
        program.build(std::vector<cl::Device>{cc->device()}, options.c_str());
    } catch (const std::exception&) {
        std::printf("build failed:\n%s\n",
                    program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(cc->device()).c_str());
        return 1;
    }
    cl::Kernel kernel(program, "walk_ceiling");
    const std::size_t perUnit =
        std::getenv("CEILING_GROUPS") ? std::atoi(std::getenv("CEILING_GROUPS")) : 32;
    const std::size_t groups = std::max<std::size_t>(1, info.computeUnits) * perUnit;
    const double targetMs = std::getenv("CEILING_MS") ? std::atof(std::getenv("CEILING_MS")) : 30;

    // Synthetic lists: bodies in the unit cube, cells with a mass and a traceless quadrupole,
    // the lanes' bodies in a cube 2 away (the walk's near lists: distances of order the cells').
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> b(4 * (list + wg)), c(12 * cellsCap);
    for (int i = 0; i < list + wg; ++i) {
        const float off = i < list ? 0.0f : 2.0f;
        b[4 * i] = u(rng) + off, b[4 * i + 1] = u(rng), b[4 * i + 2] = u(rng);
        b[4 * i + 3] = 1e-6f;
    }
    for (int i = 0; i < cellsCap; ++i) {
        float* e = &c[12 * i];
        e[0] = u(rng), e[1] = u(rng), e[2] = u(rng), e[3] = 1e-4f;
        const float qxx = 1e-7f * (u(rng) - 0.5f), qyy = 1e-7f * (u(rng) - 0.5f);
        e[4] = qxx, e[5] = qyy, e[6] = -qxx - qyy, e[7] = 1e-7f * (u(rng) - 0.5f);
        e[8] = 1e-7f * (u(rng) - 0.5f), e[9] = 1e-7f * (u(rng) - 0.5f), e[10] = e[11] = 0;
    }
    cl::Buffer bodies(cc->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 4,
                      b.data());
    cl::Buffer cells(cc->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, c.size() * 4,
                     c.data());
    cl::Buffer out(cc->context(), CL_MEM_WRITE_ONLY, groups * wg * 16);

    std::vector<std::pair<int, int>> mixes;
    for (int a = 1; a < argc; ++a) {
        int lc = 0, ncells = 0;
        if (std::sscanf(argv[a], "%d:%d", &lc, &ncells) == 2 && lc >= 0 && lc <= list &&
            ncells >= 0 && ncells <= cellsCap && lc + ncells > 0)
            mixes.push_back({lc, ncells});
        else
            std::printf("skipped %s (bodies 0..%d : cells 0..%d)\n", argv[a], list, cellsCap);
    }
    if (mixes.empty()) mixes = {{512, 0}, {0, 256}, {256, 128}, {192, 192}, {128, 256}, {80, 240}};
    const float eps2 = 0.05f * 0.05f;
    std::printf("%zu work-groups of %d (%zu per compute unit), every lane a body\n", groups, wg,
                perUnit);
    for (auto [lc, ncells] : mixes) {
        auto run = [&](int rounds) {
            kernel.setArg(0, bodies);
            kernel.setArg(1, cells);
            kernel.setArg(2, lc);
            kernel.setArg(3, ncells);
            kernel.setArg(4, rounds);
            kernel.setArg(5, eps2);
            kernel.setArg(6, out);
            cl::Event e;
            cc->queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * wg),
                                             cl::NDRange(wg), nullptr, &e);
            e.wait();
            return eventMilliseconds(e);
        };
        // Rounds for about targetMs, from a short first run.
        const double probe = run(4);
        const int rounds = std::clamp(int(4 * targetMs / std::max(probe, 1e-3)), 4, 100000);
        std::vector<double> ms;
        for (int rep = 0; rep < 5; ++rep)
            ms.push_back(run(rounds));
        std::sort(ms.begin(), ms.end());
        const double t = ms[ms.size() / 2];
        const double entries = double(groups) * wg * rounds * (lc + ncells);
        std::vector<float> o(4 * groups * wg);
        cc->queue().enqueueReadBuffer(out, CL_TRUE, 0, o.size() * 4, o.data());
        bool finite = true;
        for (float v : o)
            finite = finite && std::isfinite(v);
        std::printf(
            "bodies %d cells %d (cells %.0f%%) rounds %d: %.3f ms (min %.3f max %.3f) | "
            "%.4g list entries/s | results %s\n",
            lc, ncells, 100.0 * ncells / (lc + ncells), rounds, t, ms.front(), ms.back(),
            entries / (t * 1e-3), finite ? "finite" : "NOT FINITE");
        std::fflush(stdout);
    }
}
