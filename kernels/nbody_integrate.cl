// Cheap per-body updates around the force pass (which is where the time goes), and the
// float <-> double conversions of the fp64 path. -DREAL_DOUBLE selects the fp64 state.
// Positions keep their mass in w; velocities keep w untouched.
#include "common/real.clh"

// Leapfrog, first half: v = damping * v + a dt/2 (a from the previous force pass), x += v dt.
// The closing half-kick is fused into the force kernel.
__kernel void nbody_kick_drift(__global real4* restrict pos, __global real4* restrict vel,
                               __global const real4* restrict acc, const int n,
                               const real halfDt, const real dt, const real damping) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const real4 a = acc[i];
    real4 v = vel[i];
    v.xyz = mad(a.xyz, (real3)(halfDt), v.xyz * damping);
    vel[i] = v;
    real4 p = pos[i];
    p.xyz = mad(v.xyz, (real3)(dt), p.xyz);
    pos[i] = p;
}

// The course's original update with a = a(x): x += v dt + a dt^2/2, then v = damping * (v + a dt).
__kernel void nbody_taylor(__global real4* restrict pos, __global real4* restrict vel,
                           __global const real4* restrict acc, const int n, const real dt,
                           const real damping) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const real4 a = acc[i];
    real4 v = vel[i];
    real4 p = pos[i];
    p.xyz += v.xyz * dt + a.xyz * ((real)0.5 * dt * dt);
    v.xyz = (v.xyz + a.xyz * dt) * damping;
    pos[i] = p;
    vel[i] = v;
}

// Renumbering (NbodySimulation: the bodies into the tree's Morton order) of the bodies' ids:
// dst[i] = src[order[i]] (the tree's gather_sorted moves the state).
__kernel void nbody_gather_uint(__global const uint* restrict src,
                                __global const uint* restrict order, const int n,
                                __global uint* restrict dst) {
    const int i = get_global_id(0);
    if (i < n) dst[i] = src[order[i]];
}

#ifdef REAL_DOUBLE
// fp64 state -> the float buffers the viewer draws from.
__kernel void nbody_to_float(__global const double4* restrict src, __global float4* restrict dst,
                             const int n) {
    const int i = get_global_id(0);
    if (i < n) dst[i] = convert_float4(src[i]);
}

__kernel void nbody_to_double(__global const float4* restrict src, __global double4* restrict dst,
                              const int n) {
    const int i = get_global_id(0);
    if (i < n) dst[i] = convert_double4(src[i]);
}
#endif
