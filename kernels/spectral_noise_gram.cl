// noise=diff on u8 cubes (compute/spectral/noise_diff_gram.*): the Gram product of the stacked
// windows [Xa; Xb] (2B rows, covariance.cl or cov_gram_u8_staged.cl, one u32 partial per chunk)
// folded into the B x B numerators of N = Xa - Xb while the chunks are added, so that only
// B x B 64-bit integers come back instead of the (2B)^2 of the stacked Gram matrix:
//   sum_p N_i N_j = Gaa_ij - Gab_ij - Gba_ij + Gbb_ij,   sum_p N_i = sa_i - sb_i.
// The partial kernels write the upper triangle (row <= column) of the stacked matrix, which holds
// all four: Gaa (i, j), Gab (i, B + j), Gba_ij = Gab_ji (j, B + i), Gbb (B + i, B + j), i <= j.
// Exact: every chunk's partial is below 2^31, each term added in 64 bits; |sum N_i N_j| stays
// below 65025 n < 2^63. One work-item per upper entry (i <= j) of the B x B result and per band's
// sum; out holds B x B numerators (upper triangle written) then B sums.

__kernel void noise_diff_gram_reduce(int bands, int chunks, __global const uint* partial,
                                     __global const uint* partialSums, __global long* out) {
    const int id = get_global_id(0);
    const int B = bands, W = 2 * bands;
    const size_t entries = (size_t)W * W;
    if (id < B * B) {
        const int i = id / B, j = id - i * B;
        if (i > j) return;  // the host mirrors the lower triangle
        const size_t aa = (size_t)i * W + j, ab = (size_t)i * W + B + j;
        const size_t ba = (size_t)j * W + B + i, bb = (size_t)(B + i) * W + B + j;
        long s = 0;
        for (int c = 0; c < chunks; ++c) {
            __global const uint* p = partial + (size_t)c * entries;
            s += ((long)p[aa] + (long)p[bb]) - ((long)p[ab] + (long)p[ba]);
        }
        out[id] = s;
    } else if (id < B * B + B) {
        const int b = id - B * B;
        long s = 0;
        for (int c = 0; c < chunks; ++c)
            s += (long)partialSums[(size_t)c * W + b] - (long)partialSums[(size_t)c * W + B + b];
        out[id] = s;
    }
}
