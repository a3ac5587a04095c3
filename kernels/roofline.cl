// Ceilings for the linear-algebra lab's roofline (compute/linalg/roofline.hpp), measured on the
// device itself: the FP32 FMA issue rate and, on NVIDIA, the TF32 mma.sync issue rate with the
// operands in registers. The read bandwidth comes from reduce.cl's read_probe.

// 16 independent FMA chains per work-item (enough to cover the FMA latency), ITERS rounds. The
// result is stored only if it is an impossible value, so the compiler keeps the work.
__kernel void fma_probe(int iters, float seed, __global float* sink) {
    float a[16];
    for (int i = 0; i < 16; ++i)
        a[i] = seed + (float)(get_global_id(0) + i) * 1e-7f;
    const float m = 0.999999f, c = 1e-7f;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int i = 0; i < 16; ++i)
            a[i] = fma(a[i], m, c);
    }
    float s = 0.0f;
    for (int i = 0; i < 16; ++i)
        s += a[i];
    if (s == -1.0f) sink[0] = s;
}

#ifdef NV_INLINE_PTX
// Four independent m16n8k8 TF32 accumulators per warp, operands fixed in registers.
__kernel void mma_tf32_probe(int iters, float seed, __global float* sink) {
    float c[4][4];
    for (int k = 0; k < 4; ++k)
        for (int q = 0; q < 4; ++q)
            c[k][q] = 0.0f;
    const uint a = as_uint(seed), b = as_uint(seed * 0.5f);
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int k = 0; k < 4; ++k)
            asm volatile(
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
    float s = 0.0f;
    for (int k = 0; k < 4; ++k)
        for (int q = 0; q < 4; ++q)
            s += c[k][q];
    if (s == -1.0f) sink[0] = s;
}
#endif
