// 3 x 3 mean and median, per channel on all four channels; borders replicate the edge pixel.
//
// Each work-item makes a strip of 4 pixels across and ROWS pixels down. It loads the ROWS + 2
// source rows it needs (4 pixels and one neighbour each side) before computing anything, so all
// its loads are in flight at once, then slides the 3 x 3 window down the strip: every source
// row is unpacked once and serves three output rows. The caches absorb the overlap between
// neighbouring strips. Channels are processed two at a time in 16-bit lanes of a 32-bit word
// (R and B in one word, G and A in the other), so one add or min/max does two channels.
// ALIGNED_ROWS (the host defines it when the width is a multiple of 4): each row of a strip is
// one 16-byte load and one 16-byte store; otherwise pixel by pixel with the same arithmetic.
// This shape replaced a tile-plus-halo kernel in local memory, and ROWS = 4 beat 2 and 8
// (docs/kernel-measurements.md).
#ifndef ROWS
#define ROWS 4  // even (the median makes two rows at a time)
#endif
#define GROUP_X 32
#define GROUP_Y 4

#define LANES_EVEN 0x00ff00ffu  // R and B of an RGBA8 word, each in its own 16-bit lane

// Source row y (clamped by the caller) at columns x - 1 .. x + 4, clamped to the image.
inline void load_row(const __global uint* src, int w, int x, int y, uint a[6]) {
    const __global uint* row = src + (size_t)y * w;
#ifdef ALIGNED_ROWS
    const uint4 q = *(const __global uint4*)(row + x);
    a[0] = x > 0 ? row[x - 1] : q.x;
    a[1] = q.x, a[2] = q.y, a[3] = q.z, a[4] = q.w;
    a[5] = x + 4 < w ? row[x + 4] : q.w;
#else
    for (int k = 0; k < 6; ++k) a[k] = row[clamp(x - 1 + k, 0, w - 1)];
#endif
}

inline void store_row(__global uint* dst, int w, int x, int y, const uint v[4]) {
    __global uint* row = dst + (size_t)y * w;
#ifdef ALIGNED_ROWS
    *(__global uint4*)(row + x) = (uint4)(v[0], v[1], v[2], v[3]);
#else
    for (int k = 0; k < 4; ++k)
        if (x + k < w) row[x + k] = v[k];
#endif
}

// Loads the strip's rows: r[0] is source row y0 - 1, r[ROWS + 1] is y0 + ROWS (clamped).
#define LOAD_STRIP(r)                                                        \
    const int x = get_global_id(0) * 4, y0 = get_global_id(1) * ROWS;       \
    if (x >= w || y0 >= h) return;                                           \
    uint r[ROWS + 2][6];                                                     \
    _Pragma("unroll") for (int i = 0; i < ROWS + 2; ++i)                     \
        load_row(src, w, x, clamp(y0 - 1 + i, 0, h - 1), r[i]);

// --- mean: (sum of the 9 values + 4) / 9, exact ---------------------------------------------------
// Horizontal 3-sums of one row for the 4 output columns, in 16-bit lanes: e[] R and B, o[] G and
// A (at most 3 * 255 per lane).
inline void row_sums(const uint a[6], uint e[4], uint o[4]) {
    uint ae[6], ao[6];
    for (int k = 0; k < 6; ++k) {
        ae[k] = a[k] & LANES_EVEN;
        ao[k] = (a[k] >> 8) & LANES_EVEN;
    }
    for (int k = 0; k < 4; ++k) {
        e[k] = ae[k] + ae[k + 1] + ae[k + 2];
        o[k] = ao[k] + ao[k + 1] + ao[k + 2];
    }
}

// Two 16-bit lanes s (each at most 9 * 255 + 4 = 2299) divided by 9, as bytes 0 and 2.
// n * 7282 >> 16 == n / 9 for n <= 2299, and the product stays below 2^24.
inline uint div9_lanes(uint s) {
    return (((s & 0xffffu) * 7282u) >> 16) | (((s >> 16) * 7282u) & 0x00ff0000u);
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void mean3(const __global uint* src, __global uint* dst, int w, int h) {
    LOAD_STRIP(r)
    uint e[3][4], o[3][4];  // row sums of the window's three rows, as a ring
    row_sums(r[0], e[0], o[0]);
    row_sums(r[1], e[1], o[1]);
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
        row_sums(r[i + 2], e[(i + 2) % 3], o[(i + 2) % 3]);
        uint v[4];
        for (int k = 0; k < 4; ++k) {
            const uint se = e[0][k] + e[1][k] + e[2][k] + 0x00040004u;
            const uint so = o[0][k] + o[1][k] + o[2][k] + 0x00040004u;
            v[k] = div9_lanes(se) | (div9_lanes(so) << 8);
        }
        if (y0 + i < h) store_row(dst, w, x, y0 + i, v);
    }
}

// --- median: the 5th of the 9 values -------------------------------------------------------------
// Each column of the window is sorted (low, mid, high); then the median of the 9 is
// med3(max of the lows, med3 of the mids, min of the highs). Values sit in 16-bit lanes, and
// min/max work on both lanes at once. About 35 min/max per pixel: on NVIDIA the median is bound
// by the integer pipe (half rate on Hopper), not by memory. NV_INLINE_PTX (the host sets it on
// NVIDIA, and drops it if the compiler refuses) turns on three inline-PTX paths:
// - min.u16x2 / max.u16x2: one instruction each; NVIDIA's compiler splits OpenCL's ushort2
//   min/max into halves and repacks them;
// - the column sorts' compare-exchanges on the FP16 pipe (ce_column), which runs beside the
//   integer one: 40% of the min/max leave the integer pipe. Moving the med3 ones as well was
//   slower (longer dependent chains);
// - one byte permute (PRMT) to unpack G and A and one to repack a pixel, instead of a shift
//   and a mask or an or.
// Each path was measured faster on NVIDIA (docs/kernel-measurements.md, docs/benchmarks.md).
typedef ushort2 lanes;
#define as_lanes as_ushort2

#include "common/nv_inline_ptx.clh"  // NV_INLINE_PTX: prmt, h2_fma_relu, h2_sub, h2_add
#if defined(NV_INLINE_PTX)
inline lanes mn(lanes a, lanes b) {
    uint r;
    asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(as_uint(a)), "r"(as_uint(b)));
    return as_ushort2(r);
}
inline lanes mx(lanes a, lanes b) {
    uint r;
    asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(as_uint(a)), "r"(as_uint(b)));
    return as_ushort2(r);
}
// Compare-exchange on the FP16 pipe: a lane holding 0..255, read as FP16, is the subnormal
// k * 2^-24; differences and sums of such values are exact, so with d = relu(a - b),
// min = a - d and max = b + d. Three FMA-pipe instructions instead of two integer ones.
inline void ce_column(lanes a, lanes b, lanes* lo, lanes* hi) {
    const uint minus_one = 0xbc00bc00u, ua = as_uint(a), ub = as_uint(b);
    const uint d = h2_fma_relu(ub, minus_one, ua);
    const uint l = h2_sub(ua, d);
    const uint h = h2_add(ub, d);
    *lo = as_ushort2(l), *hi = as_ushort2(h);
}
// G and A of an RGBA8 word into 16-bit lanes; an R, B and a G, A lane word back into RGBA8.
inline uint odd_lanes(uint rgba) { return prmt(rgba, 0u, 0x4341u); }
inline uint pack_lanes(uint even, uint odd) { return prmt(even, odd, 0x6240u); }
#else
inline lanes mn(lanes a, lanes b) { return min(a, b); }
inline lanes mx(lanes a, lanes b) { return max(a, b); }
inline void ce_column(lanes a, lanes b, lanes* lo, lanes* hi) { *lo = mn(a, b), *hi = mx(a, b); }
inline uint odd_lanes(uint rgba) { return (rgba >> 8) & LANES_EVEN; }
inline uint pack_lanes(uint even, uint odd) { return even | (odd << 8); }
#endif
inline lanes med3(lanes a, lanes b, lanes c) { return mx(mn(a, b), mn(mx(a, b), c)); }

// The 4 medians of one output row from its window's columns sorted (lo, mid, hi). Neighbouring
// windows share two columns, so the max of the lows and the min of the highs share pairs.
inline void medians_of_columns(const lanes lo[6], const lanes mid[6], const lanes hi[6],
                               lanes out[4]) {
    const lanes l12 = mx(lo[1], lo[2]), l34 = mx(lo[3], lo[4]);
    const lanes h12 = mn(hi[1], hi[2]), h34 = mn(hi[3], hi[4]);
    const lanes l[4] = {mx(lo[0], l12), mx(l12, lo[3]), mx(lo[2], l34), mx(l34, lo[5])};
    const lanes u[4] = {mn(hi[0], h12), mn(h12, hi[3]), mn(hi[2], h34), mn(h34, hi[5])};
    // med3 of the mids: windows k and k + 1 share mids k + 1 and k + 2, sorted once.
    const lanes a12 = mn(mid[1], mid[2]), b12 = mx(mid[1], mid[2]);
    const lanes a34 = mn(mid[3], mid[4]), b34 = mx(mid[3], mid[4]);
    const lanes m[4] = {mx(a12, mn(b12, mid[0])), mx(a12, mn(b12, mid[3])),
                        mx(a34, mn(b34, mid[2])), mx(a34, mn(b34, mid[5]))};
    for (int k = 0; k < 4; ++k) out[k] = med3(l[k], m[k], u[k]);
}

// Output rows i and i + 1 from source rows a (i - 1), b, c (i, i + 1) and d (i + 2): each
// column's b, c pair is sorted once for both windows, then a or d is merged in.
inline void median_row_pair(const lanes a[6], const lanes b[6], const lanes c[6], const lanes d[6],
                            lanes out0[4], lanes out1[4]) {
    lanes lo[6], mid[6], hi[6], lo1[6], mid1[6], hi1[6];
    for (int k = 0; k < 6; ++k) {
        // Sort b, c; merge a (or d): t = min(p1, a), then lo = min(p0, t), mid = max(p0, t).
        lanes p0, p1, t;
        ce_column(b[k], c[k], &p0, &p1);
        ce_column(p1, a[k], &t, &hi[k]);
        ce_column(p0, t, &lo[k], &mid[k]);
        ce_column(p1, d[k], &t, &hi1[k]);
        ce_column(p0, t, &lo1[k], &mid1[k]);
    }
    medians_of_columns(lo, mid, hi, out0);
    medians_of_columns(lo1, mid1, hi1, out1);
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1)))
void median3(const __global uint* src, __global uint* dst, int w, int h) {
    LOAD_STRIP(r)
    lanes e[ROWS + 2][6], o[ROWS + 2][6];  // R, B and G, A of every loaded pixel
#pragma unroll
    for (int i = 0; i < ROWS + 2; ++i)
        for (int k = 0; k < 6; ++k) {
            e[i][k] = as_lanes(r[i][k] & LANES_EVEN);
            o[i][k] = as_lanes(odd_lanes(r[i][k]));
        }
#pragma unroll
    for (int i = 0; i < ROWS; i += 2) {
        lanes e0[4], e1[4], o0[4], o1[4];
        median_row_pair(e[i], e[i + 1], e[i + 2], e[i + 3], e0, e1);
        median_row_pair(o[i], o[i + 1], o[i + 2], o[i + 3], o0, o1);
        uint v0[4], v1[4];
        for (int k = 0; k < 4; ++k) {
            v0[k] = pack_lanes(as_uint(e0[k]), as_uint(o0[k]));
            v1[k] = pack_lanes(as_uint(e1[k]), as_uint(o1[k]));
        }
        if (y0 + i < h) store_row(dst, w, x, y0 + i, v0);
        if (y0 + i + 1 < h) store_row(dst, w, x, y0 + i + 1, v1);
    }
}
