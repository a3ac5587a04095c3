// Every eigenvalue of a symmetric tridiagonal matrix in FP64 by multisection on Sturm counts
// (compute/spectral/tridiagonal_bisection.*): the MNF eigen step's eigenvalues after the host's
// dsytrd, one work-group per eigenvalue, its work-items counting at as many points at once.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// How many eigenvalues of the tridiagonal (d, e^2 in e2) are below x: the signs of the pivots of
// T - xI (LAPACK's dlaebz recurrence; a pivot smaller than pivmin is replaced by -pivmin).
int sturm_count(__local const double* d, __local const double* e2, int n, double x,
                double pivmin) {
    int count = 0;
    double q = d[0] - x;
    for (int i = 0;;) {
        if (fabs(q) < pivmin) q = -pivmin;
        count += q < 0.0;
        if (++i == n) break;
        q = d[i] - x - e2[i - 1] / q;
    }
    return count;
}

// Work-group k finds eigenvalue k (ascending) in [lo, hi] (Gershgorin bounds, widened): while the
// bracket is wider than a few units in the last place, its P work-items count at P points evenly
// inside it, and the bracket shrinks to the two neighbouring points where the count passes k.
// `d`, `e2`: n and n - 1 values; scratch: n + n doubles and one int of local memory.
__kernel void tridiagonal_bisect(__global const double* d, __global const double* e2, int n,
                                 double lo, double hi, double pivmin, __global double* values,
                                 __local double* ld, __local double* le2, __local int* below) {
    const int k = get_group_id(0), lane = get_local_id(0), p = get_local_size(0);
    for (int i = lane; i < n; i += p) {
        ld[i] = d[i];
        if (i + 1 < n) le2[i] = e2[i];
    }
    // Each round divides the bracket by p + 1: 64 rounds are far more than FP64 needs.
    for (int round = 0; round < 64; ++round) {
        const double width = hi - lo;
        if (width <= 4.0 * DBL_EPSILON * fmax(fabs(lo), fabs(hi)) + 2.0 * pivmin) break;
        if (lane == 0) *below = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        const double x = lo + width * (double)(lane + 1) / (double)(p + 1);
        if (sturm_count(ld, le2, n, x, pivmin) <= k) atomic_inc(below);
        barrier(CLK_LOCAL_MEM_FENCE);
        // The points are in order and the counts grow with x: the first `j` points are at or
        // below eigenvalue k, the others above it.
        const int j = *below;
        const double nextLo = j == 0 ? lo : lo + width * (double)j / (double)(p + 1);
        const double nextHi = j == p ? hi : lo + width * (double)(j + 1) / (double)(p + 1);
        barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read `below` before it is reset
        if (nextLo == lo && nextHi == hi) break;  // no representable point inside any more
        lo = nextLo;
        hi = nextHi;
    }
    if (lane == 0) values[k] = 0.5 * (lo + hi);
}
