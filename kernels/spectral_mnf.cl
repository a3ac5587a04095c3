// The spectral lab's MNF kernels (compute/spectral/mnf.*). A cube is BSQ: band b's image is row b
// of a bands x pixels matrix, pixel (line l, sample s) at l * samples + s. IN_T is the stored type
// (uchar for u8 cubes, which keep the covariance's exact integer path; float otherwise).
//
// The image lab's 3 x 3 filters (noise_filters.cl) are not reused: they take RGBA8 pixels, round
// the mean to an integer (adding a quantisation error of variance 1/12 to every residual, a bias
// in C_N) and replicate the border; MNF needs the unrounded residual of one band on the interior.
#ifndef IN_T
#define IN_T float
#endif

// Step 1 reads the rectangle whose top-left pixel is (l0, s0) and writes outLines x outSamples
// residuals per band (the rectangle less one or two lines and samples).

// noise=diff: r = X(l, s) - X(l + 1, s + 1). Global (outSamples, outLines, bands).
__kernel void noise_diff(__global const IN_T* x, __global float* r, int samples, int lines, int s0,
                         int l0, int outSamples, int outLines) {
    const int s = get_global_id(0), l = get_global_id(1), b = get_global_id(2);
    if (s >= outSamples || l >= outLines) return;
    __global const IN_T* p = x + (size_t)b * samples * lines + (size_t)(l0 + l) * samples + s0 + s;
    const float d = (float)p[0] - (float)p[samples + 1];
    r[((size_t)b * outLines + l) * outSamples + s] = d;
}

// noise=mean3 / median3: r = X - (3 x 3 mean or median) at the rectangle's interior pixels, the
// window's top-left at (l0 + l, s0 + s). Global (outSamples, outLines, bands).
#define SORT2(a, b)             \
    {                           \
        const float lo = fmin(a, b); \
        b = fmax(a, b);         \
        a = lo;                 \
    }

__kernel void noise_window3(__global const IN_T* x, __global float* r, int samples, int lines,
                            int s0, int l0, int outSamples, int outLines) {
    const int s = get_global_id(0), l = get_global_id(1), b = get_global_id(2);
    if (s >= outSamples || l >= outLines) return;
    __global const IN_T* p = x + (size_t)b * samples * lines + (size_t)(l0 + l) * samples + s0 + s;
    float v0 = p[0], v1 = p[1], v2 = p[2];
    float v3 = p[samples], v4 = p[samples + 1], v5 = p[samples + 2];
    float v6 = p[2 * samples], v7 = p[2 * samples + 1], v8 = p[2 * samples + 2];
    const float centre = v4;
#ifdef MEDIAN
    // The classic 19-exchange median-of-9 network (Paeth): v4 ends as the median.
    SORT2(v1, v2); SORT2(v4, v5); SORT2(v7, v8);
    SORT2(v0, v1); SORT2(v3, v4); SORT2(v6, v7);
    SORT2(v1, v2); SORT2(v4, v5); SORT2(v7, v8);
    SORT2(v0, v3); SORT2(v5, v8); SORT2(v4, v7);
    SORT2(v3, v6); SORT2(v1, v4); SORT2(v2, v5);
    SORT2(v4, v7); SORT2(v4, v2); SORT2(v6, v4);
    SORT2(v4, v2);
    const float filtered = v4;
#else
    // Integer cubes sum exactly in float (9 x 255 or 9 x 65535 < 2^24).
    const float filtered = (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8) / 9.0f;
#endif
    r[((size_t)b * outLines + l) * outSamples + s] = centre - filtered;
}

// Steps 8 and the inverse: out(row, p) = sum_b w(row, b) * (x(b, p) - mu(b)) + offset(row).
// w is rows x bands, row-major. The transform is w = T_m^T, offset 0; the denoise w = D_k,
// offset = mu. Tiles: a 16 x 16 work-group makes 16 rows x 64 pixels, each work-item 4 pixels
// 16 apart, from a 16 x 16 tile of w and a 16 x 64 tile of centred x in local memory.
#define TR 16
#define TP 64
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void mnf_project(
    __global const IN_T* x, __global const float* mu, __global const float* w,
    __global const float* offset, __global float* out, int bands, int rows, int pixels) {
    __local float wt[TR][TR + 1];
    __local float xt[TR][TP];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int row = get_group_id(1) * TR + ty;
    const int p0 = get_group_id(0) * TP;
    float acc[4] = {0, 0, 0, 0};
    for (int b0 = 0; b0 < bands; b0 += TR) {
        const int wb = b0 + tx;
        wt[ty][tx] = (row < rows && wb < bands) ? w[(size_t)row * bands + wb] : 0.0f;
        const int xb = b0 + ty;
        const float m = xb < bands ? mu[xb] : 0.0f;
        for (int k = 0; k < 4; ++k) {
            const int p = p0 + tx + 16 * k;
            xt[ty][tx + 16 * k] =
                (xb < bands && p < pixels) ? (float)x[(size_t)xb * pixels + p] - m : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TR; ++j) {
            const float wv = wt[ty][j];
            for (int k = 0; k < 4; ++k) acc[k] = fma(wv, xt[j][tx + 16 * k], acc[k]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row >= rows) return;
    const float off = offset[row];
    for (int k = 0; k < 4; ++k) {
        const int p = p0 + tx + 16 * k;
        if (p < pixels) out[(size_t)row * pixels + p] = acc[k] + off;
    }
}
