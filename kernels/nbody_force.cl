// Softened gravity, direct sum: a_i = sum_j m_j r_ij / (|r_ij|^2 + eps^2)^(3/2), G = 1.
// One source for the six variants, chosen by build options (see NbodySimulation):
//   -DVARIANT_NAIVE | _TILED | _UNROLLED | _VECTORIZED | _ASYNC_COPY | _SMALL_N
//   -DWG=n      work-group size (compile time: it is also the local tile length)
//   -DUNROLL=n  inner-loop unroll factor (divides the j-range each work-item walks per tile)
//   -DBPI=n     i-bodies per work-item: each local-memory read of a j-body serves BPI interactions
//   -DSPLIT=n   small-n: work-items sharing one body; each walks 1/SPLIT of every tile
//   -DSELF_GUARD, -DREAL_DOUBLE, -DNV_INLINE_PTX  as common/gravity.clh says
// Every variant handles any n >= 1: tiles past the end are filled with zero-mass bodies, which
// add exactly 0, and only the ni bodies from i0 are stored.
//
// Arguments (identical for all variants):
//   pos   n bodies: xyz and mass in w          acc  out: acceleration of bodies 0 .. ni-1
//   vel   if kick != 0: v_i += a_i * kick (the closing half-kick of leapfrog, fused here)
//   n     bodies that pull (j-range: all of them)
//   i0, ni  the bodies whose acceleration is computed: i0 .. i0+ni-1 (one device's slice when
//           several devices share the work; 0, n otherwise)
#include "common/gravity.clh"  // real, RSQRT, guardSelf, interact

#if defined(NV_INLINE_PTX) && !defined(REAL_DOUBLE)
#define RSQRT4(v) ((float4)(rsqrtFtz((v).s0), rsqrtFtz((v).s1), rsqrtFtz((v).s2), rsqrtFtz((v).s3)))
#else
#define RSQRT4(x) RSQRT(x)
#endif

// The vectorized variant's j-vector: VW j-bodies per vector operation. 4 suits GPUs (one body's
// float4 per load); CPUs with wide SIMD (AVX2: 8, AVX-512: 16 floats) fill their registers with
// 8 or 16.
#ifndef VW
#define VW 4
#endif
#if VW == 16
#define VTYPE(t) t##16
#elif VW == 8
#define VTYPE(t) t##8
#else
#define VTYPE(t) t##4
#endif
#ifdef REAL_DOUBLE
typedef VTYPE(double) realV;
typedef double8 real8;
#define RSQRTV(x) rsqrt(x)
#else
typedef VTYPE(float) realV;
typedef float8 real8;
#define RSQRTV(x) native_rsqrt(x)
#endif
#if VW == 4
#undef RSQRTV
#define RSQRTV(x) RSQRT4(x)
#endif

#ifndef BPI
#define BPI 1
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif

// guardSelf (common/gravity.clh) for VW lanes.
static inline realV guardSelfV(const realV inv, const realV r2) {
#ifdef SELF_GUARD
    return select((realV)(0), inv, r2 > (realV)(0));
#else
    return inv;
#endif
}

// interact (common/gravity.clh) for VW j-bodies at once (structure of arrays: their x, y, z
// and masses).
static inline void interactV(const real4 p, const realV xj, const realV yj, const realV zj,
                             const realV mj, const real eps2, realV* ax, realV* ay, realV* az) {
    const realV dx = xj - p.x;
    const realV dy = yj - p.y;
    const realV dz = zj - p.z;
    const realV r2 = mad(dx, dx, mad(dy, dy, mad(dz, dz, (realV)(eps2))));
    const realV inv = guardSelfV(RSQRTV(r2), r2);
    const realV s = mj * (inv * inv * inv);
    *ax = mad(dx, s, *ax);
    *ay = mad(dy, s, *ay);
    *az = mad(dz, s, *az);
}

// The VW lanes' sum, pairwise (for VW = 4: (x + y) + (z + w)).
static inline real sumV(const realV v) {
#if VW == 16
    const real8 a = v.lo + v.hi;
    const real4 b = a.lo + a.hi;
#elif VW == 8
    const real4 b = v.lo + v.hi;
#else
    const real4 b = v;
#endif
    return (b.x + b.y) + (b.z + b.w);
}

// a_i out, and the closing half-kick of leapfrog (v_i += a_i * kick) fused here when kick != 0.
static inline void store(__global real4* restrict acc, __global real4* restrict vel, const int i,
                         const real ax, const real ay, const real az, const real kick) {
    acc[i] = (real4)(ax, ay, az, (real)0);
    if (kick != (real)0) {
        const real4 v = vel[i];
        vel[i] = (real4)(mad(ax, kick, v.x), mad(ay, kick, v.y), mad(az, kick, v.z), v.w);
    }
}

#define ZERO4 ((real4)((real)0, (real)0, (real)0, (real)0))

#if defined(VARIANT_NAIVE)

// Every work-item streams all bodies from global memory (caches do what they can).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_force(
    __global const real4* restrict pos, __global real4* restrict acc, __global real4* restrict vel,
    const int n, const int i0, const int ni, const real eps2, const real kick) {
    const int i = get_global_id(0);
    if (i >= ni) return;
    const real4 p = pos[i0 + i];
    real ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
        interact(p, pos[j], eps2, &ax, &ay, &az);
    }
    store(acc, vel, i0 + i, ax, ay, az, kick);
}

#elif defined(VARIANT_VECTORIZED)

// Tiles in structure-of-arrays layout: the inner loop computes VW j-bodies per vector operation.
// A tile holds WG / VW vectors; the unroll factor is capped there (both are powers of two).
#define UNROLL_V (UNROLL < WG / VW ? UNROLL : WG / VW)
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_force(
    __global const real4* restrict pos, __global real4* restrict acc, __global real4* restrict vel,
    const int n, const int i0, const int ni, const real eps2, const real kick) {
    __local realV tx[WG / VW], ty[WG / VW], tz[WG / VW], tm[WG / VW];
    const int lid = get_local_id(0);
    const int base = get_group_id(0) * (WG * BPI);
    real4 p[BPI];
    realV ax[BPI], ay[BPI], az[BPI];
#pragma unroll
    for (int k = 0; k < BPI; ++k) {
        const int i = base + k * WG + lid;
        p[k] = i < ni ? pos[i0 + i] : ZERO4;
        ax[k] = ay[k] = az[k] = (realV)(0);
    }
    for (int t = 0; t < n; t += WG) {
        const int j = t + lid;
        const real4 q = j < n ? pos[j] : ZERO4;
        ((__local real*)tx)[lid] = q.x;
        ((__local real*)ty)[lid] = q.y;
        ((__local real*)tz)[lid] = q.z;
        ((__local real*)tm)[lid] = q.w;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int u0 = 0; u0 < WG / VW; u0 += UNROLL_V) {
#pragma unroll
            for (int du = 0; du < UNROLL_V; ++du) {
                const realV xj = tx[u0 + du], yj = ty[u0 + du], zj = tz[u0 + du];
                const realV mj = tm[u0 + du];
#pragma unroll
                for (int k = 0; k < BPI; ++k)
                    interactV(p[k], xj, yj, zj, mj, eps2, &ax[k], &ay[k], &az[k]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int k = 0; k < BPI; ++k) {
        const int i = base + k * WG + lid;
        if (i < ni) store(acc, vel, i0 + i, sumV(ax[k]), sumV(ay[k]), sumV(az[k]), kick);
    }
}

#else  // the tiled family: tiled, unrolled, async-copy, small-n

#if defined(VARIANT_TILED)
#undef BPI
#define BPI 1
#undef SPLIT
#define SPLIT 1
#endif
#if !defined(VARIANT_SMALL_N)
#undef SPLIT
#define SPLIT 1
#endif

#define LANES (WG / SPLIT)  // bodies per row of the work-group; each walks LANES j per tile
#ifdef VARIANT_ASYNC_COPY
#define BUFFERS 2  // double buffering: the next tile is fetched while this one is used
#else
#define BUFFERS 1
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_force(
    __global const real4* restrict pos, __global real4* restrict acc, __global real4* restrict vel,
    const int n, const int i0, const int ni, const real eps2, const real kick) {
    __local real4 tile[BUFFERS][WG];
    const int lid = get_local_id(0);
    const int lane = lid % LANES;
    const int part = lid / LANES;  // which 1/SPLIT of each tile this work-item walks
    const int base = get_group_id(0) * (LANES * BPI);

    real4 p[BPI];
    real ax[BPI], ay[BPI], az[BPI];
#pragma unroll
    for (int k = 0; k < BPI; ++k) {
        const int i = base + k * LANES + lane;
        p[k] = i < ni ? pos[i0 + i] : ZERO4;
        ax[k] = ay[k] = az[k] = 0;
    }

#ifdef VARIANT_ASYNC_COPY
    event_t fetch = async_work_group_copy(tile[0], pos, (size_t)min(WG, n), 0);
    if (lid >= n) tile[0][lid] = ZERO4;
#endif
    // Stepping by the tile's first body, not by a tile index (`t * WG`): faster on the H200
    // (docs/benchmarks.md, issue 11).
    for (int start = 0, t = 0; start < n; start += WG, ++t) {
        // This tile into local memory (async-copy: it was fetched during the previous tile; fetch
        // the next one now), then each work-item walks its part of it.
#ifdef VARIANT_ASYNC_COPY
        wait_group_events(1, &fetch);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (start + WG < n) {
            const int count = min(WG, n - (start + WG));
            fetch = async_work_group_copy(tile[(t + 1) & 1], pos + start + WG, (size_t)count, 0);
            if (lid >= count) tile[(t + 1) & 1][lid] = ZERO4;
        }
        __local const real4* cur = tile[t & 1] + part * LANES;
#else
        const int j = start + lid;
        tile[0][lid] = j < n ? pos[j] : ZERO4;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local const real4* cur = tile[0] + part * LANES;
#endif

#if defined(VARIANT_TILED)
        // The textbook loop: tile length known only at run time, not unrolled.
        const int count = get_local_size(0);
#pragma unroll 1
        for (int u = 0; u < count; ++u) {
            interact(p[0], cur[u], eps2, &ax[0], &ay[0], &az[0]);
        }
#else
        for (int u0 = 0; u0 < LANES; u0 += UNROLL) {
#pragma unroll
            for (int du = 0; du < UNROLL; ++du) {
                const real4 q = cur[u0 + du];
#pragma unroll
                for (int k = 0; k < BPI; ++k)
                    interact(p[k], q, eps2, &ax[k], &ay[k], &az[k]);
            }
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#if SPLIT > 1
    // Sum the SPLIT partial accelerations of each body through local memory (the tile is free).
#pragma unroll
    for (int k = 0; k < BPI; ++k) {
        tile[0][lid] = (real4)(ax[k], ay[k], az[k], (real)0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (part == 0) {
            real4 sum = tile[0][lane];
            for (int s = 1; s < SPLIT; ++s)
                sum += tile[0][s * LANES + lane];
            ax[k] = sum.x;
            ay[k] = sum.y;
            az[k] = sum.z;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (part != 0) return;
#endif

#pragma unroll
    for (int k = 0; k < BPI; ++k) {
        const int i = base + k * LANES + lane;
        if (i < ni) store(acc, vel, i0 + i, ax[k], ay[k], az[k], kick);
    }
}

#endif
