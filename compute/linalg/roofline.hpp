#pragma once
// The roofline's ceilings, measured by clviz on the device it runs on (kernels/roofline.cl and
// reduce.cl's read probe), and the arithmetic intensity of the lab's operations, so every variant
// can be placed on the chart as (flops per byte, flops per second).
#include <cstddef>
#include <string>

#include "compute/linalg/gemm.hpp"

namespace clviz {

class ComputeContext;

struct RooflineCeilings {
    double readGBs = 0;     // bytes read per second / 1e9 (float4 loads of a large buffer)
    double fp32Gflops = 0;  // FMA issue rate, 2 flops per FMA
    double tf32Gflops = 0;  // mma.sync TF32 with register operands; 0 where there is none
    std::string tf32Note;   // why there is no TF32 ceiling ("" when measured)
    double ridgeFp32() const { return readGBs > 0 ? fp32Gflops / readGBs : 0; }  // flops/byte
};

// Best of a few short runs of each probe (a few hundred milliseconds in all on a GPU).
// `readBytes`: the buffer the read probe streams (capped by the device's largest buffer).
RooflineCeilings measureRooflineCeilings(ComputeContext& cc,
                                         std::size_t readBytes = std::size_t(256) << 20);

// Flops per byte of DRAM traffic if every matrix crossed it once: 2MNK / 4(MK + KN + MN), plus MN
// when beta != 0 (C is read too). The ideal a tiled kernel approaches.
double gemmArithmeticIntensity(const GemmShape& shape, bool readsC = false);

}  // namespace clviz
