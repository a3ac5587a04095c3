// Sum, min and max of a float or uint array (compute/linalg/reduction.hpp), built with one of
// -DOP_SUM / -DOP_MIN / -DOP_MAX and -DT_UINT (else float). Every kernel reads `count` elements
// (any count) and writes one partial per work-group; identity values pad the tails.
// uint sums wrap modulo 2^32, as C's unsigned arithmetic does.

#include "common/device_fence.clh"  // DEVICE_FENCE: the one pass's ticket
#include "common/nv_inline_ptx.clh"  // NV_INLINE_PTX: shfl_bfly

#ifdef T_UINT
typedef uint T;
typedef uint4 T4;
#define LOWEST 0u
#define HIGHEST 0xffffffffu
#else
typedef float T;
typedef float4 T4;
#define LOWEST (-INFINITY)
#define HIGHEST INFINITY
#endif

#if defined(OP_SUM)
#define IDENTITY ((T)0)
#define OP(a, b) ((a) + (b))
#elif defined(OP_MIN)
#define IDENTITY HIGHEST
#define OP(a, b) min((a), (b))
#else
#define IDENTITY LOWEST
#define OP(a, b) max((a), (b))
#endif

inline T reduce4(T4 v) {
    return OP(OP(v.x, v.y), OP(v.z, v.w));
}

// Element i, or the identity past the end.
inline T at(__global const T* data, ulong count, ulong i) {
    return i < count ? data[i] : IDENTITY;
}

// ---- the course's kernel: one uint4 (T4) per work-item, interleaved tree, host adds partials ----
// The tree keeps every (2s)-th work-item busy: its idle lanes and strided local accesses are what
// the next variant removes.
__kernel void reduce_course(__global const T* data, ulong count, __global T* partials,
                            __local T* scratch) {
    const size_t gid = get_global_id(0), lid = get_local_id(0);
    const ulong base = (ulong)gid * 4;
    T4 v;
    if (base + 3 < count)
        v = vload4(gid, data);
    else
        v = (T4)(at(data, count, base), at(data, count, base + 1), at(data, count, base + 2),
                 at(data, count, base + 3));
    scratch[lid] = reduce4(v);
    barrier(CLK_LOCAL_MEM_FENCE);
    // uint, not size_t: PoCL 3 (CPU) ran a size_t version of this loop only once.
    const uint size = get_local_size(0);
    for (uint s = 1; s < size; s *= 2) {
        if (lid % (2 * s) == 0 && lid + s < size) scratch[lid] = OP(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partials[get_group_id(0)] = scratch[0];
}

// Each work-item first folds a grid-stride run of T4s in registers (few groups, one wave).
inline T privateFold(__global const T* data, ulong count) {
    const size_t gid = get_global_id(0), stride = get_global_size(0);
    const ulong quads = count / 4;
    T acc = IDENTITY;
    for (ulong q = gid; q < quads; q += stride)
        acc = OP(acc, reduce4(vload4(q, data)));
    for (ulong i = quads * 4 + gid; i < count; i += stride)  // the last 0-3 elements
        acc = OP(acc, data[i]);
    return acc;
}

// Sequential addressing: the active work-items stay contiguous (whole warps retire) and
// consecutive work-items touch consecutive banks. Returns the group's result in lane 0.
inline T localTree(T v, __local T* scratch) {
    const size_t lid = get_local_id(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] = OP(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

// ---- without bank conflicts: private folds, then a sequential-addressing tree ------------------
// Run twice: over the data, then one group over the partials.
__kernel void reduce_tree(__global const T* data, ulong count, __global T* partials,
                          __local T* scratch) {
    const T r = localTree(privateFold(data, count), scratch);
    if (get_local_id(0) == 0) partials[get_group_id(0)] = r;
}

// ---- sub-groups: the warp reduces in registers, one local slot per sub-group -------------------
// sub_group_reduce_* where the device has cl_khr_subgroups (HAS_SUBGROUPS); on NVIDIA without it,
// shfl.sync butterflies through inline PTX; elsewhere the local tree.
#if defined(HAS_SUBGROUPS)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
inline T warpReduce(T v) {
#if defined(OP_SUM)
    return sub_group_reduce_add(v);
#elif defined(OP_MIN)
    return sub_group_reduce_min(v);
#else
    return sub_group_reduce_max(v);
#endif
}
#define WARP_SIZE get_max_sub_group_size()
#define WARP_ID get_sub_group_id()
#define WARP_LANE get_sub_group_local_id()
#define WARPS get_num_sub_groups()
#elif defined(NV_INLINE_PTX)
inline T shuffleXor(T v, int mask) {
    const uint r = shfl_bfly(as_uint(v), mask);
#ifdef T_UINT
    return r;
#else
    return as_float(r);
#endif
}
inline T warpReduce(T v) {
    for (int m = 16; m > 0; m >>= 1)
        v = OP(v, shuffleXor(v, m));
    return v;
}
#define WARP_SIZE 32
#define WARP_ID (get_local_id(0) / 32)
#define WARP_LANE (get_local_id(0) % 32)
#define WARPS (get_local_size(0) / 32)
#endif

__kernel void reduce_subgroup(__global const T* data, ulong count, __global T* partials,
                              __local T* scratch) {
    const T v = privateFold(data, count);
#ifdef WARP_SIZE
    const T w = warpReduce(v);
    if (WARP_LANE == 0) scratch[WARP_ID] = w;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        T r = scratch[0];
        for (uint i = 1; i < WARPS; ++i)
            r = OP(r, scratch[i]);
        partials[get_group_id(0)] = r;
    }
#else
    const T r = localTree(v, scratch);
    if (get_local_id(0) == 0) partials[get_group_id(0)] = r;
#endif
}

// ---- one pass: the last work-group to finish reduces the partials ------------------------------
// Each group publishes its partial, fences, and takes a ticket; the group that draws the last
// ticket sees every partial, reduces them and resets the ticket for the next launch.
__kernel void reduce_onepass(__global const T* data, ulong count, __global T* partials,
                             __local T* scratch, __global volatile uint* ticket,
                             __global T* result) {
    __local uint last;
    const T r = localTree(privateFold(data, count), scratch);
    if (get_local_id(0) == 0) {
        partials[get_group_id(0)] = r;
        DEVICE_FENCE();
        last = atomic_inc(ticket) == get_num_groups(0) - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last) return;
    DEVICE_FENCE();
    T acc = IDENTITY;
    for (size_t i = get_local_id(0); i < get_num_groups(0); i += get_local_size(0))
        acc = OP(acc, ((__global volatile T*)partials)[i]);
    const T total = localTree(acc, scratch);
    if (get_local_id(0) == 0) {
        *result = total;
        *ticket = 0;
    }
}

// ---- read-bandwidth probe: the same loads, no tree, one store per work-item that never happens --
__kernel void read_probe(__global const float4* data, ulong quads, __global float* sink) {
    float4 acc = (float4)(0.0f);
    for (ulong q = get_global_id(0); q < quads; q += get_global_size(0))
        acc += data[q];
    if (acc.x == -1.0f && acc.y == -2.0f) sink[0] = acc.z + acc.w;  // keeps the loads alive
}
