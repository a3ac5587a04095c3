#include "compute/roofline/ceiling_probes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr const char* kFile = "roofline_probes.cl";
constexpr std::size_t kMmaGroup = 256;  // work-items per group: 8 warps
// The FMA chain's constants: a -> a·b + c converges to c / (1 - b) = 1, never overflows or
// goes subnormal.
constexpr float kFmaB = 0.999f;
constexpr float kFmaC = 0.001f;

// Runs `enqueue` once to warm up, then `repeats` times; the fastest run in seconds.
template <class Enqueue>
double fastestSeconds(ComputeContext& cc, int repeats, Enqueue enqueue) {
    eventMilliseconds(enqueue());
    double best = 0;
    for (int r = 0; r < std::max(1, repeats); ++r) {
        const double ms = eventMilliseconds(enqueue());
        if (r == 0 || ms < best) best = ms;
    }
    cc.queue().finish();
    // A run too short for the timer to see says nothing about the rate.
    if (!(best > 0)) throw Error("the probe ran too briefly to be timed; make it larger");
    return best * 1e-3;
}

float hostFma(std::size_t gid, int iterations) {
    const float lane[4] = {0.0f, 0.03125f, 0.0625f, 0.09375f};
    float s[4];
    for (int l = 0; l < 4; ++l) {
        const float start = float(gid) * 1e-6f + lane[l];
        float a[8] = {start,        start + 0.125f, start + 0.25f, start + 0.375f,
                      start + 0.5f, start + 0.625f, start + 0.75f, start + 0.875f};
        for (int i = 0; i < iterations; ++i)
            for (float& x : a)
                x = std::fma(x, kFmaB, kFmaC);
        s[l] = ((((((a[0] + a[1]) + a[2]) + a[3]) + a[4]) + a[5]) + a[6]) + a[7];
    }
    return (s[0] + s[1]) + (s[2] + s[3]);
}

}  // namespace

CeilingProbeSizes probeSizesFor(const DeviceInfo& device) {
    CeilingProbeSizes s;
    const std::size_t cus = std::max(1u, device.computeUnits);
    if (device.kind == DeviceKind::Gpu) {
        std::size_t bytes = std::size_t(256) << 20;
        if (device.maxAllocBytes) bytes = std::min<std::size_t>(bytes, device.maxAllocBytes);
        if (device.globalMemBytes) bytes = std::min<std::size_t>(bytes, device.globalMemBytes / 4);
        s.copyBytes = bytes;
        s.fmaWorkItems = cus * 2048;
        s.fmaIterations = 2048;
        s.mmaWorkItems = cus * 4 * kMmaGroup;
        s.mmaIterations = 8192;
    } else {
        s.copyBytes = std::size_t(64) << 20;  // beyond a server CPU's last-level cache
        s.fmaWorkItems = 4096;
        s.fmaIterations = 2048;
        s.mmaWorkItems = kMmaGroup;
        s.mmaIterations = 16;
    }
    return s;
}

ProbeResult probeCopyBandwidth(ComputeContext& cc, std::size_t bytes, int repeats) {
    const std::size_t n = bytes / 16;
    if (n == 0) throw Error("the copy probe needs at least 16 bytes");
    if (n > std::size_t(UINT32_MAX) / 4) throw Error("the copy probe is limited to 16 GiB");
    return clBoundary("the memory bandwidth probe failed", [&] {
        cl::Buffer src(cc.context(), CL_MEM_READ_WRITE, n * 16);
        cl::Buffer dst(cc.context(), CL_MEM_READ_WRITE, n * 16);
        cl::Kernel fill = cc.programs().kernel(kFile, "probe_fill", "");
        cl::Kernel copy = cc.programs().kernel(kFile, "probe_copy", "");
        fill.setArg(0, src);
        cc.queue().enqueueNDRangeKernel(fill, cl::NullRange, cl::NDRange(n), cl::NullRange);
        setArgs(copy, src, dst);
        const double seconds = fastestSeconds(cc, repeats, [&] {
            cl::Event e;
            cc.queue().enqueueNDRangeKernel(copy, cl::NullRange, cl::NDRange(n), cl::NullRange,
                                            nullptr, &e);
            return e;
        });
        // Every element, a bounded slice at a time.
        const std::size_t chunk = std::min<std::size_t>(n, std::size_t(1) << 20);
        std::vector<std::uint32_t> host(chunk * 4);
        for (std::size_t first = 0; first < n; first += chunk) {
            const std::size_t count = std::min(chunk, n - first);
            cc.queue().enqueueReadBuffer(dst, CL_TRUE, first * 16, count * 16, host.data());
            for (std::size_t k = 0; k < count * 4; ++k)
                if (host[k] != std::uint32_t(first * 4 + k))
                    throw Error("the memory bandwidth probe copied wrong data at element " +
                                std::to_string(first * 4 + k));
        }
        ProbeResult r;
        r.work = 2.0 * double(n) * 16;  // read + write
        r.seconds = seconds;
        r.rate = r.work / seconds * 1e-9;
        return r;
    });
}

ProbeResult probeFmaRate(ComputeContext& cc, std::size_t workItems, int iterations, int repeats) {
    if (workItems == 0 || iterations <= 0)
        throw Error("the FMA probe needs work-items and iterations");
    return clBoundary("the FP32 FMA probe failed", [&] {
        cl::Buffer out(cc.context(), CL_MEM_WRITE_ONLY, workItems * sizeof(float));
        cl::Kernel k = cc.programs().kernel(kFile, "probe_fma", "");
        setArgs(k, out, iterations, kFmaB, kFmaC);
        const double seconds = fastestSeconds(cc, repeats, [&] {
            cl::Event e;
            cc.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(workItems), cl::NullRange,
                                            nullptr, &e);
            return e;
        });
        std::vector<float> host(workItems);
        cc.queue().enqueueReadBuffer(out, CL_TRUE, 0, workItems * sizeof(float), host.data());
        // A sample spread over the range (the first, the last and 62 between).
        for (int s = 0; s < 64; ++s) {
            const std::size_t gid = (workItems - 1) * std::size_t(s) / 63;
            const float want = hostFma(gid, iterations);
            if (!(std::abs(host[gid] - want) <= 1e-5f * std::abs(want)))
                throw Error("the FP32 FMA probe gave " + std::to_string(host[gid]) +
                            " for work-item " + std::to_string(gid) + ", the host " +
                            std::to_string(want));
        }
        ProbeResult r;
        r.work = 2.0 * 32.0 * double(iterations) * double(workItems);  // 8 float4 chains
        r.seconds = seconds;
        r.rate = r.work / seconds * 1e-9;
        return r;
    });
}

std::optional<ProbeResult> probeTensorRate(ComputeContext& cc, InlinePtxBuilds& builds,
                                           std::size_t workItems, int iterations, int repeats,
                                           std::string& why) {
    if (!builds.active()) {
        why =
            "no tensor ceiling: the device's compiler does not take inline PTX (mma.sync is "
            "NVIDIA's)";
        return std::nullopt;
    }
    workItems = std::max(kMmaGroup, workItems / kMmaGroup * kMmaGroup);
    if (iterations <= 0 || iterations > (1 << 17))  // the sums stay exact in float
        throw Error("the tensor probe's iterations must be in 1 .. 131072");
    return clBoundary("the tensor-core probe failed", [&]() -> std::optional<ProbeResult> {
        cl::Kernel k = builds.kernel(kFile, "probe_mma_tf32", "");
        if (!builds.active()) {
            why = "no tensor ceiling: the compiler refused the inline PTX mma.sync";
            return std::nullopt;
        }
        cl::Buffer out(cc.context(), CL_MEM_WRITE_ONLY, workItems * sizeof(float));
        setArgs(k, out, iterations);
        const double seconds = fastestSeconds(cc, repeats, [&] {
            cl::Event e;
            cc.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(workItems),
                                            cl::NDRange(kMmaGroup), nullptr, &e);
            return e;
        });
        std::vector<float> host(workItems);
        cc.queue().enqueueReadBuffer(out, CL_TRUE, 0, workItems * sizeof(float), host.data());
        const float want = 16.0f * 8.0f * float(iterations);
        for (std::size_t i = 0; i < workItems; ++i)
            if (host[i] != want)
                throw Error("the tensor-core probe gave " + std::to_string(host[i]) +
                            " for work-item " + std::to_string(i) + ", expected " +
                            std::to_string(want));
        ProbeResult r;
        // Per warp instruction 2·16·8·8 flops, shared by its 32 lanes; four per iteration.
        r.work = 2.0 * 16 * 8 * 8 / 32 * 4 * double(iterations) * double(workItems);
        r.seconds = seconds;
        r.rate = r.work / seconds * 1e-9;
        why = "register-only mma.sync m16n8k8 TF32 loop";
        return r;
    });
}

RooflineCeilings DeviceCeilings::roofline() const {
    RooflineCeilings c;
    c.bandwidthGBs = bandwidthGBs;
    c.compute.push_back({kFp32CeilingName, fp32Gflops});
    if (tf32Gflops) c.compute.push_back({kTf32CeilingName, *tf32Gflops});
    return c;
}

std::string DeviceCeilings::summary() const {
    std::string s = "ceilings on " + deviceName + ": memory " + formatByteRate(bandwidthGBs) +
                    " (copy, read + write), FP32 " + formatFlopRate(fp32Gflops) + " (FMA loop)";
    if (tf32Gflops)
        s += ", TF32 " + formatFlopRate(*tf32Gflops) + " (mma.sync loop)";
    else
        s += "; " + tensorNote;
    char buf[64];
    std::snprintf(buf, sizeof buf, "; measured in %.2f s", probeSeconds);
    return s + buf;
}

DeviceCeilings measureDeviceCeilings(ComputeContext& cc) {
    InlinePtxBuilds builds(cc);
    return measureDeviceCeilings(cc, probeSizesFor(cc.info()), builds);
}

DeviceCeilings measureDeviceCeilings(ComputeContext& cc, const CeilingProbeSizes& sizes,
                                     InlinePtxBuilds& builds) {
    const auto start = std::chrono::steady_clock::now();
    DeviceCeilings d;
    d.deviceName = cc.info().name;
    d.bandwidthGBs = probeCopyBandwidth(cc, sizes.copyBytes, sizes.repeats).rate;
    d.fp32Gflops = probeFmaRate(cc, sizes.fmaWorkItems, sizes.fmaIterations, sizes.repeats).rate;
    // A tensor probe that fails leaves the chart without that ceiling, with the reason; the
    // memory and FP32 probes have no such fallback (every device must pass them).
    try {
        if (auto t = probeTensorRate(cc, builds, sizes.mmaWorkItems, sizes.mmaIterations,
                                     sizes.repeats, d.tensorNote))
            d.tf32Gflops = t->rate;
    } catch (const Error& e) {
        d.tensorNote = std::string("no tensor ceiling: ") + e.what();
    }
    d.probeSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return d;
}

}  // namespace clviz
