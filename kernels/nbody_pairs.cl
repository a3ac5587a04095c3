// Softened gravity, direct sum, each pair once (Newton's third law): the pull of i on j is minus
// m_i / m_j times the pull of j on i, so one rsqrt and one r^-3 serve both bodies. Per pair: 16
// FP32 instructions and one rsqrt for two interactions, against 12 and one rsqrt for one in the
// all-pairs kernels (nbody_force.cl). Float only. The sums happen in another order than the
// all-pairs kernels' and, through atomics, in no fixed order: results agree to rounding, not bit
// for bit, and not from run to run.
//
// Blocks of S = WG * IPI bodies. Work-group (a, c) holds block a's bodies in registers (IPI per
// work-item) and meets blocks a + d (mod nb) for its share c of the offsets d: d = 0 is block a
// with itself (one-sided, every ordered pair), d = 1 .. (nb - 1) / 2 the blocks after it, and for
// even nb, d = nb / 2 once (a < nb / 2). So every unordered pair of blocks meets exactly once and
// the load is even. A met block passes through local memory in sub-tiles of WG * JPI bodies with
// their accumulators; in phase p work-item t owns sub-tile column (t + p) % WG, so no two
// work-items touch one body's accumulator in a phase, and a barrier ends each phase. Both sides'
// sums go into `acc` (zeroed first by the host) with float atomic adds.
//
// Build options: -DWG=n (work-group size) -DIPI=n -DJPI=n (JPI divides IPI)
//   -DSELF_GUARD (softening 0: r^2 == 0 adds 0, not 0 * inf; common/gravity.clh)
//   -DNV_INLINE_PTX  NVIDIA: rsqrt.approx.ftz (common/gravity.clh) and red.global.add.f32 through
//                    inline PTX
#include "common/gravity.clh"  // GRAVITY_PULL, softenedInv (its RSQRT through NV_INLINE_PTX)

#ifdef NV_INLINE_PTX
static inline void addTo(__global float* p, float v) {
    __asm__ __volatile__("red.global.add.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}
#else
// A compare-and-swap loop: OpenCL 1.2 has no float atomic add.
static inline void addTo(__global float* p, float v) {
    volatile __global uint* word = (volatile __global uint*)p;
    uint seen = *word;
    for (;;) {
        const uint want = as_uint(as_float(seen) + v);
        const uint was = atomic_cmpxchg(word, seen, want);
        if (was == seen) return;
        seen = was;
    }
}
#endif

#define S (WG * IPI)         // bodies per block
#define SUB (WG * JPI)       // bodies per sub-tile of a met block
#define ZERO4 ((float4)(0.0f))

static inline float4 bodyOr0(__global const float4* pos, const int j, const int n) {
    return j < n ? pos[j] : ZERO4;
}

// Adds an accumulated acceleration to body i's, if i is a body.
static inline void flush(__global float4* acc, const int i, const int n, const float4 a) {
    if (i >= n || (a.x == 0.0f && a.y == 0.0f && a.z == 0.0f)) return;
    __global float* p = (__global float*)(acc + i);
    addTo(p, a.x);
    addTo(p + 1, a.y);
    addTo(p + 2, a.z);
}

// Block b against itself or another, one sided: every work-item adds the pull of all of b's
// bodies on its own (tiles of WG through local memory). Used for d = 0, where b is block a.
static inline void meetOneSided(__global const float4* pos, const int n, const int b,
                                const float eps2, const float4* p, float4* ai,
                                __local float4* tile) {
    const int lid = get_local_id(0);
    for (int t = 0; t < S; t += WG) {
        tile[lid] = bodyOr0(pos, b * S + t + lid, n);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int u = 0; u < WG; ++u) {
            const float4 q = tile[u];
#pragma unroll
            for (int k = 0; k < IPI; ++k) {
                GRAVITY_PULL(p[k], q, eps2, ai[k].x, ai[k].y, ai[k].z);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Block b (another block) against this group's bodies, both sides: the pull of b on p goes into
// ai, the pull of p on b's bodies into their accumulators, flushed to `acc` per sub-tile.
static inline void meetBothSides(__global const float4* pos, __global float4* acc, const int n,
                                 const int b, const float eps2, const float4* p, float4* ai,
                                 __local float4* jpos, __local float4* jacc) {
    const int lid = get_local_id(0);
    for (int t = 0; t < S; t += SUB) {
        // Sub-tile body k * WG + column lives at [k * WG + column]: work-item t reads column
        // (t + p) % WG, so a warp's reads are consecutive.
#pragma unroll
        for (int k = 0; k < JPI; ++k) {
            jpos[k * WG + lid] = bodyOr0(pos, b * S + t + k * WG + lid, n);
            jacc[k * WG + lid] = ZERO4;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int phase = 0; phase < WG; ++phase) {
            const int column = (lid + phase) % WG;
            float4 q[JPI], aj[JPI];
#pragma unroll
            for (int k = 0; k < JPI; ++k) {
                q[k] = jpos[k * WG + column];
                aj[k] = jacc[k * WG + column];
            }
#pragma unroll
            for (int m = 0; m < JPI; ++m)
#pragma unroll
                for (int k = 0; k < IPI; ++k) {
                    const float dx = q[m].x - p[k].x, dy = q[m].y - p[k].y, dz = q[m].z - p[k].z;
                    const float inv = softenedInv(dx, dy, dz, eps2);
                    const float inv3 = inv * inv * inv;
                    const float si = q[m].w * inv3, sj = p[k].w * inv3;
                    ai[k].x = mad(dx, si, ai[k].x);
                    ai[k].y = mad(dy, si, ai[k].y);
                    ai[k].z = mad(dz, si, ai[k].z);
                    aj[m].x = mad(-dx, sj, aj[m].x);
                    aj[m].y = mad(-dy, sj, aj[m].y);
                    aj[m].z = mad(-dz, sj, aj[m].z);
                }
#pragma unroll
            for (int k = 0; k < JPI; ++k)
                jacc[k * WG + column] = aj[k];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#pragma unroll
        for (int k = 0; k < JPI; ++k)
            flush(acc, b * S + t + k * WG + lid, n, jacc[k * WG + lid]);
        barrier(CLK_LOCAL_MEM_FENCE);  // before the next sub-tile overwrites jpos and jacc
    }
}

// Offsets block a meets: 0 .. count-1.
static inline int offsetsOf(const int a, const int nb) {
    return 1 + (nb - 1) / 2 + (nb % 2 == 0 && a < nb / 2 ? 1 : 0);
}

// Launch: blocks * chunks work-groups of WG for the blocks firstBlock .. firstBlock + blocks - 1
// (all nb = ceil(n / S) on one device; a device's share of them when the system is split, each
// device adding the pulls of its blocks' meetings into its own acc). acc must hold zeros.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_pairs(
    __global const float4* restrict pos, __global float4* restrict acc, const int n,
    const int chunks, const float eps2, const int firstBlock) {
    __local float4 jpos[SUB], jacc[SUB];
    const int nb = (n + S - 1) / S;
    const int a = firstBlock + get_group_id(0) / chunks, c = get_group_id(0) % chunks;
    const int count = offsetsOf(a, nb);
    const int first = c * count / chunks, last = (c + 1) * count / chunks;
    if (first == last) return;  // the same for the whole group: no barrier is skipped by some
    const int lid = get_local_id(0);
    float4 p[IPI], ai[IPI];
#pragma unroll
    for (int k = 0; k < IPI; ++k) {
        p[k] = bodyOr0(pos, a * S + k * WG + lid, n);
        ai[k] = ZERO4;
    }
    for (int d = first; d < last; ++d) {
        if (d == 0)
            meetOneSided(pos, n, a, eps2, p, ai, jpos);
        else
            meetBothSides(pos, acc, n, (a + d) % nb, eps2, p, ai, jpos, jacc);
    }
#pragma unroll
    for (int k = 0; k < IPI; ++k)
        flush(acc, a * S + k * WG + lid, n, ai[k]);
}

// The closing half-kick of leapfrog, v_i += a_i * kick, which the all-pairs kernels fuse into
// their store: here the accelerations are complete only when nbody_pairs has finished.
__kernel void nbody_pairs_kick(__global const float4* restrict acc, __global float4* restrict vel,
                               const int n, const float kick) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const float4 a = acc[i], v = vel[i];
    vel[i] = (float4)(mad(a.x, kick, v.x), mad(a.y, kick, v.y), mad(a.z, kick, v.z), v.w);
}
