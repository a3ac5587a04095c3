// Device ceilings for the roofline chart (compute/roofline/ceiling_probes.*): short probes that
// each do one thing as fast as the device allows and leave a result the host checks.

// Memory: fills a buffer with its own indices, then copies it; one uint4 read and one written
// per work-item, so the copy's rate counts read + write bytes.
__kernel void probe_fill(__global uint4* dst) {
    const uint i = (uint)get_global_id(0);
    dst[i] = (uint4)(4u * i, 4u * i + 1u, 4u * i + 2u, 4u * i + 3u);
}

__kernel void probe_copy(__global const uint4* restrict src, __global uint4* restrict dst) {
    const size_t i = get_global_id(0);
    dst[i] = src[i];
}

// FP32 FMA issue rate: eight independent float4 chains per work-item keep the FMA pipes full
// without touching memory (a GPU runs the four lanes as four FMAs, a CPU as one SIMD FMA); the sum
// at the end keeps the chains alive and is what the host checks.
__kernel void probe_fma(__global float* out, int iterations, float b, float c) {
    const float4 start = (float)get_global_id(0) * 1e-6f + (float4)(0.0f, 0.03125f, 0.0625f, 0.09375f);
    float4 a0 = start, a1 = start + 0.125f, a2 = start + 0.25f, a3 = start + 0.375f;
    float4 a4 = start + 0.5f, a5 = start + 0.625f, a6 = start + 0.75f, a7 = start + 0.875f;
    const float4 vb = (float4)(b), vc = (float4)(c);
    for (int i = 0; i < iterations; ++i) {
        a0 = fma(a0, vb, vc);
        a1 = fma(a1, vb, vc);
        a2 = fma(a2, vb, vc);
        a3 = fma(a3, vb, vc);
        a4 = fma(a4, vb, vc);
        a5 = fma(a5, vb, vc);
        a6 = fma(a6, vb, vc);
        a7 = fma(a7, vb, vc);
    }
    const float4 s = ((((((a0 + a1) + a2) + a3) + a4) + a5) + a6) + a7;
    out[get_global_id(0)] = (s.x + s.y) + (s.z + s.w);
}

// Tensor cores: mma.sync m16n8k8 TF32 with FP32 accumulate, operands in registers, four
// independent accumulator sets per warp. A and B are all ones, so every accumulator grows by
// 8 (= k) per instruction: each work-item's sum is exactly 16 * 8 * iterations.
#include "common/nv_inline_ptx.clh"  // MMA_TF32_M16N8K8

#ifdef NV_INLINE_PTX
#define PROBE_MMA(d0, d1, d2, d3) MMA_TF32_M16N8K8(d0, d1, d2, d3, one, one, one, one, one, one)

__kernel void probe_mma_tf32(__global float* out, int iterations) {
    const uint one = as_uint(1.0f);
    float c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
    float c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
    for (int i = 0; i < iterations; ++i) {
        PROBE_MMA(c00, c01, c02, c03);
        PROBE_MMA(c10, c11, c12, c13);
        PROBE_MMA(c20, c21, c22, c23);
        PROBE_MMA(c30, c31, c32, c33);
    }
    out[get_global_id(0)] = (c00 + c01 + c02 + c03) + (c10 + c11 + c12 + c13) +
                            (c20 + c21 + c22 + c23) + (c30 + c31 + c32 + c33);
}
#else
// No tensor instructions without inline PTX: the host sees the portable build and reports the
// ceiling as absent; this body only keeps the program buildable.
__kernel void probe_mma_tf32(__global float* out, int iterations) {
    out[get_global_id(0)] = -(float)iterations;
}
#endif
