// Histogram equalization, after kernels/histogram.cl has filled the 4 x 256 bins (for luma
// equalization only the luma bins, for per-channel only R, G and B). The table formula is
// documented in compute/image/equalize.hpp; integers only, so it is exact.
//
// One kernel builds the tables and applies them: every work-group of 256 first computes the
// cumulative counts with a scan in local memory (a few microseconds, while its first pixels are
// already being loaded), then loops over the image, 16 bytes (4 pixels) per load. A separate
// one-group table kernel and its launch gap were measured slower (docs/kernel-measurements.md).
#define LOADS 4  // 16-byte loads in flight per work-item

// table[c][v] holds channel c's new value of v, already shifted into c's byte of an RGBA8 word.
inline void build_tables(const __global uint* bins, int per_channel, __local uint* cdf,
                         __local uint* table, __local uint* cdf_min) {
    const uint v = get_local_id(0);
    const uint channels = per_channel ? 3 : 1;
    for (uint c = 0; c < channels; ++c) cdf[c * 256 + v] = bins[(per_channel ? c : 3) * 256 + v];
    if (v < 3) cdf_min[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < 256; d *= 2) {  // inclusive scan (Hillis-Steele)
        uint add[3];
        for (uint c = 0; c < channels; ++c) add[c] = v >= d ? cdf[c * 256 + v - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint c = 0; c < channels; ++c) cdf[c * 256 + v] += add[c];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // The cdf of the lowest value present is the first non-zero cdf.
    for (uint c = 0; c < channels; ++c) {
        const uint n = cdf[c * 256 + v];
        if (n != 0 && (v == 0 || cdf[c * 256 + v - 1] == 0)) cdf_min[c] = n;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = 0; c < 3; ++c) {
        const uint k = per_channel ? c : 0;
        const uint cdf_v = cdf[k * 256 + v], total = cdf[k * 256 + 255], lo = cdf_min[k];
        uint out;
        if (total == lo)
            out = v;  // a single value (or no pixel): nothing to spread
        else if (cdf_v < lo)
            out = 0;  // below the lowest value present
        else
            out = (uint)(((ulong)(cdf_v - lo) * 255 + (total - lo) / 2) / (total - lo));
        table[c * 256 + v] = out << (8 * c);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

inline uint apply(const __local uint* table, uint p) {
    return (p & 0xff000000u) | table[p & 255u] | table[256 + ((p >> 8) & 255u)] |
           table[512 + ((p >> 16) & 255u)];
}

inline uint4 apply4(const __local uint* table, uint4 q) {
    return (uint4)(apply(table, q.x), apply(table, q.y), apply(table, q.z), apply(table, q.w));
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void equalize_apply(const __global uint* src, __global uint* dst, uint count,
                    const __global uint* bins, int per_channel) {
    __local uint cdf[3 * 256], table[3 * 256], cdf_min[3];
    const __global uint4* squads = (const __global uint4*)src;
    __global uint4* dquads = (__global uint4*)dst;
    const size_t nquads = count / 4, stride = get_global_size(0);
    size_t i = get_global_id(0);
    uint4 first = 0;
    if (i < nquads) first = squads[i];
    build_tables(bins, per_channel, cdf, table, cdf_min);
    if (i < nquads) dquads[i] = apply4(table, first);
    i += stride;
    for (; i + (LOADS - 1) * stride < nquads; i += LOADS * stride) {
        uint4 q[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; ++u) q[u] = squads[i + u * stride];
#pragma unroll
        for (int u = 0; u < LOADS; ++u) dquads[i + u * stride] = apply4(table, q[u]);
    }
    for (; i < nquads; i += stride) dquads[i] = apply4(table, squads[i]);
    const size_t tail = nquads * 4 + get_global_id(0);
    if (tail < count) dst[tail] = apply(table, src[tail]);
}
