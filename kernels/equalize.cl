// Histogram equalization, after kernels/histogram.cl has filled the 4 x 256 bins. The table
// formula is documented in compute/image_equalize.hpp; integers only, so it is exact.

// One work-group of 256: work-item v computes entry v of the R, G and B tables. per_channel = 0
// builds all three from the luma histogram.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void equalize_lut(const __global uint* bins, int per_channel, __global uchar* lut) {
    __local uint hist[1024];
    const uint v = get_local_id(0);
    for (uint i = v; i < 1024; i += 256) hist[i] = bins[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = 0; c < 3; ++c) {
        const __local uint* h = hist + 256 * (per_channel ? c : 3);
        uint cdf = 0, total = 0, cdf_min = 0;
        for (uint k = 0; k < 256; ++k) {
            const uint n = h[k];
            if (k <= v) cdf += n;
            total += n;
            if (cdf_min == 0) cdf_min = n;  // count of the lowest value present
        }
        uint out;
        if (total == cdf_min)
            out = v;  // a single value (or no pixel): nothing to spread
        else if (cdf < cdf_min)
            out = 0;  // below the lowest value present
        else
            out = (uint)(((ulong)(cdf - cdf_min) * 255 + (total - cdf_min) / 2) / (total - cdf_min));
        lut[c * 256 + v] = (uchar)out;
    }
}

__kernel void equalize_apply(const __global uchar4* src, __global uchar4* dst, uint count,
                             const __global uchar* lut) {
    __local uchar table[768];
    for (uint i = get_local_id(0); i < 768; i += get_local_size(0)) table[i] = lut[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t i = get_global_id(0);
    if (i >= count) return;
    const uchar4 p = src[i];
    dst[i] = (uchar4)(table[p.x], table[256 + p.y], table[512 + p.z], p.w);
}
