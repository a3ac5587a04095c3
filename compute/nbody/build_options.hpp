#pragma once
// How a force-kernel launch config becomes an OpenCL build: the built-in defaults, the order in
// which requested, tuned and default values win, the clamps to what the device can run, and the
// -D options kernels/nbody_force.cl reads. Pure functions of plain values (no OpenCL calls), so every
// variant's options and every clamp is unit-tested without a device.
#include <cstddef>
#include <string>

#include "compute/nbody/variants.hpp"

namespace clviz {

struct DeviceInfo;

// The launch config when nothing was asked for and nothing was tuned, from auto-tune runs on an
// NVIDIA H200 (GPU) and PoCL (CPU); see docs/benchmarks.md. split stays 0 (small-n picks it).
NbodyKernelConfig nbodyDeviceDefaults(NbodyVariant v, bool gpu, std::size_t n,
                                      unsigned computeUnits);

// Field by field: the requested value if set (non-zero), else the tuned one if any, else the
// default. The variant is the requested one.
NbodyKernelConfig resolveKernelConfig(const NbodyKernelConfig& requested,
                                      const NbodyKernelConfig& defaults,
                                      const NbodyKernelConfig* tuned);

// Bytes of local memory the force kernel uses per work-group.
std::size_t nbodyLocalBytes(NbodyVariant v, int workGroupSize, NbodyPrecision p);

struct NbodyForceBuildRequest {
    NbodyKernelConfig
        config;  // resolved; small-n's split may be 0 (enough groups to fill the device)
    std::size_t n = 0;
    NbodyPrecision precision = NbodyPrecision::Float;
    float softening = 0.05f;
    bool inlinePtx = true;         // false once NVIDIA's compiler refused it for this variant
    bool verboseBuildLog = false;  // NVIDIA: registers in the build log (the kernel dump)
    // CL_KERNEL_WORK_GROUP_SIZE an earlier build of this request reported; 0 = not built yet.
    std::size_t kernelMaxWorkGroup = 0;
};

// The vectorized variant's j-vector width VW (4, 8 or 16 bodies per vector operation): the
// device's native SIMD width for the precision (4 on GPUs, whose lanes are work-items; 16 floats
// on AVX-512 CPUs), at most the work-group size; $CLVIZ_NBODY_VECTOR_WIDTH (4, 8, 16) overrides.
int vectorizedWidth(const DeviceInfo& dev, NbodyPrecision precision, int workGroupSize);

struct NbodyForceBuild {
    NbodyKernelConfig config;        // what runs: clamped to the device and the kernel
    std::string options;             // clBuildProgram options for kernels/nbody_force.cl
    std::size_t bodiesPerGroup = 1;  // i-bodies one work-group computes
    std::string note;                // every clamp, "; "-separated; "" when the request fitted
};

NbodyForceBuild nbodyForceBuild(const NbodyForceBuildRequest& request, const DeviceInfo& device);

}  // namespace clviz
