// The spectral lab's MNF kernels (compute/spectral/mnf.*). A cube is BSQ: band b's image is row b
// of a bands x pixels matrix, pixel (line l, sample s) at l * samples + s. IN_T is the stored type
// (uchar for u8 cubes, which keep the covariance's exact integer path; float otherwise). Band b
// starts at element b * bandPitch (the pixel count rounded up to 16: aligned rows for the
// covariance's 16-byte loads).
//
// The image lab's 3 x 3 filters (noise_filters.cl) are not reused: they take RGBA8 pixels, round
// the mean to an integer (adding a quantisation error of variance 1/12 to every residual, a bias
// in C_N) and replicate the border; MNF needs the unrounded residual of one band on the interior.
#ifndef IN_T
#define IN_T float
#define IN_T4 float4
#endif

// Step 1 reads the rectangle whose top-left pixel is (l0, s0) and writes outLines x outSamples
// residuals per band (the rectangle less one or two lines and samples).

// noise=diff: r = X(l, s) - X(l + 1, s + 1). Global (outSamples, outLines, bands).
__kernel void noise_diff(__global const IN_T* x, __global float* r, int samples, int lines, int s0,
                         int l0, int outSamples, int outLines, int bandPitch) {
    const int s = get_global_id(0), l = get_global_id(1), b = get_global_id(2);
    if (s >= outSamples || l >= outLines) return;
    __global const IN_T* p = x + (size_t)b * bandPitch + (size_t)(l0 + l) * samples + s0 + s;
    const float d = (float)p[0] - (float)p[samples + 1];
    r[((size_t)b * outLines + l) * outSamples + s] = d;
}

// 16 bytes from p, any alignment: the two aligned 16-byte words around them, joined at the byte
// offset (select the words, then one funnel shift per word through 64 bits). Reads up to 31
// bytes past p (the host leaves that slack after the cube).
inline uint4 load16Unaligned(__global const uchar* p) {
    const int sh = (int)((size_t)p & 15);
    __global const uint4* q = (__global const uint4*)(p - sh);
    const uint4 lo = q[0], hi = sh ? q[1] : (uint4)(0);
    uint w0 = lo.x, w1 = lo.y, w2 = lo.z, w3 = lo.w, w4 = hi.x, w5 = hi.y, w6 = hi.z, w7 = hi.w;
    if (sh & 8) w0 = w2, w1 = w3, w2 = w4, w3 = w5, w4 = w6, w5 = w7;
    if (sh & 4) w0 = w1, w1 = w2, w2 = w3, w3 = w4, w4 = w5;
    const uint kb = 8 * (sh & 3);
#define JOIN(lo, hi) ((uint)(((((ulong)(hi)) << 32) | (lo)) >> kb))
    return (uint4)(JOIN(w0, w1), JOIN(w1, w2), JOIN(w2, w3), JOIN(w3, w4));
#undef JOIN
}

// noise=diff on u8 cubes, exactly: instead of the residuals, the two shifted windows stacked as
// one 2B x n u8 matrix (rows 0..B-1: X(l, s), rows B..2B-1: X(l + 1, s + 1)), row pitch `pitch`
// (a multiple of 16). Its integer Gram matrix holds every block cov(Xa - Xb) needs
// (compute/spectral/mnf.cpp). A work-item writes 16 consecutive outputs of one band as one 16-byte
// store each; where the 16 lie in one line of the window it reads them as 16-byte words too
// (load16Unaligned), else byte by byte (a line's end, the last group); the pitch's padding past n
// is written as zeros. Global (pitch / 16, bands).
__kernel void noise_diff_stack(__global const uchar* x, __global uchar* stacked, int samples,
                               int lines, int s0, int l0, int outSamples, int outLines,
                               int bands, int pitch, int bandPitch) {
    const int i0 = get_global_id(0) * 16, b = get_global_id(1);
    if (i0 >= pitch) return;
    const int n = outSamples * outLines;
    __global const uchar* band = x + (size_t)b * bandPitch;
    int l = i0 / outSamples, s = i0 - l * outSamples;
    uint4 a, d;
    if (s + 15 < outSamples && i0 + 15 < n) {
        __global const uchar* p = band + (size_t)(l0 + l) * samples + s0 + s;
        a = load16Unaligned(p);
        d = load16Unaligned(p + samples + 1);
    } else {
        uint wa[4] = {0, 0, 0, 0}, wd[4] = {0, 0, 0, 0};
#pragma unroll
        for (int q = 0; q < 16; ++q) {
            if (i0 + q < n) {
                const size_t at = (size_t)(l0 + l) * samples + s0 + s;
                wa[q >> 2] |= (uint)band[at] << (8 * (q & 3));
                wd[q >> 2] |= (uint)band[at + samples + 1] << (8 * (q & 3));
            }
            if (++s == outSamples) s = 0, ++l;
        }
        a = (uint4)(wa[0], wa[1], wa[2], wa[3]);
        d = (uint4)(wd[0], wd[1], wd[2], wd[3]);
    }
    *(__global uint4*)(stacked + (size_t)b * pitch + i0) = a;
    *(__global uint4*)(stacked + (size_t)(bands + b) * pitch + i0) = d;
}

// noise=diff on a whole u8 cube for the cross Gram product (kernels/spectral_noise_cross.cl): only
// the shifted window, in the cube's own pixel order: y(p) = x(p + samples + 1) for the flat pixel
// p < n = (lines - 1) * samples, so that pixel p of the cube and of y are the pair (l, s) and
// (l + 1, s + 1); at the last sample of a line (s = samples - 1, no pair) y(p) = x(p), whose
// difference is 0 and adds nothing to any sum. Past n up to `pitch`, zeros. 16 outputs per
// work-item, read as 16-byte words where no line end falls among them. Global (pitch / 16, bands).
__kernel void noise_diff_shift(__global const uchar* x, __global uchar* y, int samples, int n,
                               int pitch, int bandPitch) {
    const int p0 = get_global_id(0) * 16, b = get_global_id(1);
    if (p0 >= pitch) return;
    __global const uchar* band = x + (size_t)b * bandPitch;
    const int s0 = p0 % samples;
    uint4 v;
    if (s0 + 15 < samples - 1 && p0 + 15 < n) {
        v = load16Unaligned(band + p0 + samples + 1);
    } else {
        uint w[4] = {0, 0, 0, 0};
        int s = s0;
#pragma unroll
        for (int q = 0; q < 16; ++q) {
            const int p = p0 + q;
            if (p < n) {
                const uint value = s == samples - 1 ? band[p] : band[p + samples + 1];
                w[q >> 2] |= value << (8 * (q & 3));
            }
            if (++s == samples) s = 0;
        }
        v = (uint4)(w[0], w[1], w[2], w[3]);
    }
    *(__global uint4*)(y + (size_t)b * pitch + p0) = v;
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
                            int s0, int l0, int outSamples, int outLines, int bandPitch) {
    const int s = get_global_id(0), l = get_global_id(1), b = get_global_id(2);
    if (s >= outSamples || l >= outLines) return;
    __global const IN_T* p = x + (size_t)b * bandPitch + (size_t)(l0 + l) * samples + s0 + s;
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

// Steps 8 and the inverse: out(row, p) = sum_b w(row, b) * (x(b, p) - mu(b)) + offset(row), for
// rows row0 .. row0 + ROWS - 1 (fewer at the end). w is rows x bands, row-major. The transform is
// w = T_m^T, offset 0; the denoise w = D_k, offset = mu. One work-item per PIX adjacent pixels
// keeps their ROWS sums in registers and reads each of its pixels' values once (one PIX-wide load
// per band; adjacent work-items, adjacent pixels: coalesced), so the cube is read once per ROWS
// output rows; w and mu come through local memory a tile of bands at a time, each weight read from
// there serving PIX multiply-adds. out has rows of `pixels` values.
// Built with -DIN_T4 (IN_T's 4-vector), -DROWS (rows per pass: the rows the host needs rounded up
// to a multiple of 4, at most 32) and
// -DGROUP (the work-group size the host launches, mnf.cpp's kProjectGroup).
#if defined(ROWS) && defined(GROUP)
#if ROWS % 4 != 0
#error "mnf_project reads its weights four rows at a time: build it with ROWS a multiple of 4"
#endif
#define BAND_TILE 64
#define PIX 4
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void mnf_project(
    __global const IN_T* x, __global const float* mu, __global const float* w,
    __global const float* offset, __global float* out, int bands, int rows, int pixels, int row0,
    int bandPitch) {
    __local float wt[BAND_TILE][ROWS] __attribute__((aligned(16)));  // w(row0 + r, b0 + j) at [j][r]
    __local float mt[BAND_TILE];
    const int p = get_global_id(0) * PIX;
    const int lid = get_local_id(0);
    const int nrows = min(ROWS, rows - row0);
    // A whole group of PIX pixels takes the vector load (bandPitch is a multiple of PIX, so it is
    // aligned); the last, partial group reads its pixels one by one.
    const bool whole = p + PIX <= pixels;
    float acc[ROWS][PIX];
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
#pragma unroll
        for (int q = 0; q < PIX; ++q) acc[r][q] = 0.0f;
    for (int b0 = 0; b0 < bands; b0 += BAND_TILE) {
        const int nb = min(BAND_TILE, bands - b0);
        for (int i = lid; i < BAND_TILE * ROWS; i += GROUP) {
            const int j = i / ROWS, r = i % ROWS;
            wt[j][r] = (j < nb && r < nrows) ? w[(size_t)(row0 + r) * bands + b0 + j] : 0.0f;
        }
        if (lid < BAND_TILE) mt[lid] = lid < nb ? mu[b0 + lid] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (p < pixels) {
            __global const IN_T* xp = x + (size_t)b0 * bandPitch + p;
            for (int j = 0; j < nb; ++j) {
                float v[PIX];
                if (whole) {
                    const float4 f =
                        convert_float4(*(__global const IN_T4*)(xp + (size_t)j * bandPitch));
                    v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
                } else {
                    for (int q = 0; q < PIX; ++q)
                        v[q] = p + q < pixels ? (float)xp[(size_t)j * bandPitch + q] : 0.0f;
                }
#pragma unroll
                for (int q = 0; q < PIX; ++q) v[q] -= mt[j];
                // Four weights per local read (ROWS is a multiple of 4; rows 16-byte aligned).
#pragma unroll
                for (int r = 0; r < ROWS; r += 4) {
                    const float4 w4 = *(__local const float4*)&wt[j][r];
                    const float wr[4] = {w4.x, w4.y, w4.z, w4.w};
#pragma unroll
                    for (int u = 0; u < 4; ++u)
#pragma unroll
                        for (int q = 0; q < PIX; ++q)
                            acc[r + u][q] = fma(wr[u], v[q], acc[r + u][q]);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (p >= pixels) return;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {  // unrolled, so that acc stays in registers
        if (r >= nrows) break;
        __global float* o = out + (size_t)(row0 + r) * pixels + p;
        const float off = offset[row0 + r];
        if (whole) {
            vstore4((float4)(acc[r][0], acc[r][1], acc[r][2], acc[r][3]) + off, 0, o);
        } else {
            for (int q = 0; q < PIX && p + q < pixels; ++q) o[q] = acc[r][q] + off;
        }
    }
}
#endif  // ROWS && GROUP
