#pragma once
// The device's ceilings for the roofline chart, measured by clviz itself: memory bandwidth from a
// device-to-device copy (read + write bytes counted), the FP32 FMA issue rate from a register-only
// FMA loop, and where NVIDIA's compiler takes inline PTX the TF32 tensor-core rate from a
// register-only mma.sync loop. Each probe checks its own result and throws clviz::Error when it is
// wrong; each is short (sizes from probeSizesFor: well under a second on a GPU, bounded on a CPU).
#include <cstddef>
#include <optional>
#include <string>

#include "common/roofline.hpp"

namespace clviz {

class ComputeContext;
class InlinePtxBuilds;
struct DeviceInfo;

struct CeilingProbeSizes {
    std::size_t copyBytes = 0;  // one buffer; the copy reads and writes this many bytes
    std::size_t fmaWorkItems = 0;
    int fmaIterations = 0;         // of 8 FMAs each
    std::size_t mmaWorkItems = 0;  // a multiple of the work-group (256)
    int mmaIterations = 0;         // of 4 mma.sync each
    int repeats = 3;               // timed runs after one warm-up; the fastest counts
};
// GPUs: a 256 MiB copy (less where the device allows less), enough FMA and MMA work to fill
// every compute unit for about a millisecond. Others (PoCL on the CI box): 64 MiB and 268 million
// FMAs, enough that launch overhead does not hide a CPU's FMA rate.
CeilingProbeSizes probeSizesFor(const DeviceInfo& device);

struct ProbeResult {
    double rate = 0;     // GB/s for the copy, GFLOP/s for the others
    double seconds = 0;  // the fastest timed run
    double work = 0;     // bytes (copy) or flops of one run
};

// Copies `bytes` (rounded down to 16) from one device buffer to another; rate in GB/s counting
// read + write. Checks every copied element.
ProbeResult probeCopyBandwidth(ComputeContext& cc, std::size_t bytes, int repeats);
// 2 flops per FMA, 32 FMAs per work-item and iteration; checks a sample of the work-items'
// results against the same FMAs on the host.
ProbeResult probeFmaRate(ComputeContext& cc, std::size_t workItems, int iterations, int repeats);
// TF32 mma.sync m16n8k8 (2·16·8·8 flops per warp instruction); checks the exact sums. nullopt with
// `why` set where the program is built without inline PTX (not NVIDIA, or its compiler refused).
std::optional<ProbeResult> probeTensorRate(ComputeContext& cc, InlinePtxBuilds& builds,
                                           std::size_t workItems, int iterations, int repeats,
                                           std::string& why);

struct DeviceCeilings {
    double bandwidthGBs = 0;
    double fp32Gflops = 0;
    std::optional<double> tf32Gflops;
    std::string tensorNote;   // why there is no tensor ceiling, or how it was measured
    double probeSeconds = 0;  // wall time of all probes, builds included
    std::string deviceName;

    // "memory (copy, read + write)" bandwidth, "FP32 FMA" and, where measured, "TF32 mma.sync".
    RooflineCeilings roofline() const;
    std::string summary() const;  // one line with units
};

// All three probes with probeSizesFor(cc.info()).
DeviceCeilings measureDeviceCeilings(ComputeContext& cc);
DeviceCeilings measureDeviceCeilings(ComputeContext& cc, const CeilingProbeSizes& sizes,
                                     InlinePtxBuilds& builds);

// Names of the compute ceilings in DeviceCeilings::roofline().
inline constexpr const char* kFp32CeilingName = "FP32 FMA";
inline constexpr const char* kTf32CeilingName = "TF32 mma.sync";

}  // namespace clviz
