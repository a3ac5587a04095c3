// Step 5 of MNF in FP64 (compute/spectral/mnf_device_reduce.*): C_adj = U^-T C_D U^-1, given the
// Cholesky factor C_N = U^T U from the host, as two passes of forward substitution with U^T.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Work-group c solves U^T y = x_c, x_c the c-th column of X (element (r, c) at x[r * rs + c * cs]),
// and writes y as column c of Y (n x n, column-major). U is upper triangular and column-major, so
// U^T's (r, i) entry is u[r * n + i]: work-item r reads along its own row as i grows (cached
// lines). b (n doubles) holds the right-hand side as it is reduced: at step i, b[i] is final, every
// work-item takes y_i = b[i] / U(i, i) and removes it from its rows below i. One barrier a step.
__kernel void mnf_forward_solve(__global const double* u, __global const double* x,
                                __global double* y, int n, int rs, int cs, __local double* b) {
    const int c = get_group_id(0), lid = get_local_id(0), g = get_local_size(0);
    for (int r = lid; r < n; r += g)
        b[r] = x[(size_t)r * rs + (size_t)c * cs];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < n; ++i) {
        const double yi = b[i] / u[(size_t)i * n + i];
        for (int r = lid; r < n; r += g)
            if (r > i) b[r] -= u[(size_t)r * n + i] * yi;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int r = lid; r < n; r += g)
        y[(size_t)c * n + r] = b[r] / u[(size_t)r * n + r];
}
