// Whole-system diagnostics: kinetic and potential energy, momentum and a NaN/Inf census, reduced
// per work-group with the course's local-memory tree reduction; the host adds the group partials in
// double. Built WITHOUT -cl-fast-relaxed-math, so the potential uses an accurate sqrt and the
// non-finite test below cannot be optimized away (it looks at the exponent bits anyway).
// -DWG=n (power of two) is the work-group size; -DREAL_DOUBLE for the fp64 state.
#include "common/real.clh"

#define PARTIALS 8  // per group: kinetic, potential, px, py, pz, non-finite count, 0, 0

static bool nonFinite(const real4 v) {
#ifdef REAL_DOUBLE
    const long4 e = as_long4(v) & (long4)(0x7ff0000000000000L);
    return any(e == (long4)(0x7ff0000000000000L));
#else
    const int4 e = as_int4(v) & (int4)(0x7f800000);
    return any(e == (int4)(0x7f800000));
#endif
}

// Sums one group's five values and its NaN/Inf census into partials[g * PARTIALS ..] and
// firstBad[g] (the smallest non-finite index, or n). red and bad: WG each, in local memory.
static void storeGroupSums(const real values[5], const bool mine, const bool isBad, const int i,
                           const int n, const int g, __local real* red, __local int* bad,
                           __global real* restrict partials, __global int* restrict firstBad) {
    const int lid = get_local_id(0);
    for (int c = 0; c < 5; ++c) {
        red[lid] = mine ? values[c] : (real)0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s) red[lid] += red[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) partials[g * PARTIALS + c] = red[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    bad[lid] = isBad ? i : n;
    red[lid] = isBad ? (real)1 : (real)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            bad[lid] = min(bad[lid], bad[lid + s]);
            red[lid] += red[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partials[g * PARTIALS + 5] = red[0];
        partials[g * PARTIALS + 6] = 0;
        partials[g * PARTIALS + 7] = 0;
        firstBad[g] = bad[0];
    }
}

// The sums cover bodies i0 .. i0+ni-1 (one device's slice, or all n), each against the bodies
// j0 .. j0+nj-1 (all n in one launch; a measurement spread over frames takes the j range in slices
// of whole tiles, each launch still covering every i, so that each fills the device and its time
// is set by nj), so the slices of several devices add up to the whole system's figures.
// partials: PARTIALS reals per group; firstBad: per group, the smallest index of a non-finite body,
// or n if none. The launch with j0 = 0 writes them all; a later j slice adds its potential to
// partials[g * PARTIALS + 1] (the launches run in order on one queue).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_energy(
    __global const real4* restrict pos, __global const real4* restrict vel, const int n,
    const int i0, const int ni, const real eps2, __global real* restrict partials,
    __global int* restrict firstBad, const int j0, const int nj) {
    __local real4 tile[WG];
    __local real red[WG];
    __local int bad[WG];
    const int lid = get_local_id(0);
    const bool mine = get_global_id(0) < ni;
    const int i = i0 + get_global_id(0);
    const real4 p = mine ? pos[i] : (real4)(0);
    const real4 v = mine ? vel[i] : (real4)(0);

    // Potential of body i: -m_i sum_{j != i} m_j / sqrt(r^2 + eps^2); halved below because every
    // pair is seen from both ends.
    real phi = 0;
    const int jEnd = j0 + nj;
    for (int t = j0; t < jEnd; t += WG) {
        const int j = t + lid;
        tile[lid] = j < jEnd ? pos[j] : (real4)(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int count = min(WG, jEnd - t);
        for (int u = 0; u < count; ++u) {
            const real4 q = tile[u];
            const real3 d = q.xyz - p.xyz;
            const real r2 = dot(d, d) + eps2;
            if (t + u != i && r2 > (real)0) phi += q.w / sqrt(r2);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    real values[5];
    values[0] = (real)0.5 * p.w * dot(v.xyz, v.xyz);
    values[1] = (real)(-0.5) * p.w * phi;
    values[2] = p.w * v.x;
    values[3] = p.w * v.y;
    values[4] = p.w * v.z;
    if (j0 > 0) {  // a later j slice: its share of the group's potential only
        red[lid] = mine ? values[1] : (real)0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s) red[lid] += red[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) partials[get_group_id(0) * PARTIALS + 1] += red[0];
        return;
    }
    const bool isBad = mine && (nonFinite(p) || nonFinite(v));
    storeGroupSums(values, mine, isBad, i, n, get_group_id(0), red, bad, partials, firstBad);
}

// The same figures in O(N) from the potential the tree's walk left in acc.w
// (phi_i = -sum_{j != i} m_j / sqrt(r^2 + eps^2), cells as monopole + quadrupole): the energy of
// the tree variant, to the tree's accuracy. Float only, like the tree. Bodies 0 .. n-1.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void nbody_energy_from_potential(
    __global const real4* restrict pos, __global const real4* restrict vel,
    __global const real4* restrict acc, const int n, __global real* restrict partials,
    __global int* restrict firstBad) {
    __local real red[WG];
    __local int bad[WG];
    const int i = get_global_id(0);
    const bool mine = i < n;
    const real4 p = mine ? pos[i] : (real4)(0);
    const real4 v = mine ? vel[i] : (real4)(0);
    const real phi = mine ? acc[i].w : (real)0;
    real values[5];
    values[0] = (real)0.5 * p.w * dot(v.xyz, v.xyz);
    values[1] = (real)0.5 * p.w * phi;
    values[2] = p.w * v.x;
    values[3] = p.w * v.y;
    values[4] = p.w * v.z;
    const bool isBad = mine && (nonFinite(p) || nonFinite(v));
    storeGroupSums(values, mine, isBad, i, n, get_group_id(0), red, bad, partials, firstBad);
}
