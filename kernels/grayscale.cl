// Grayscale: R = G = B = luma8 (Rec. 709 weights in 8.8 fixed point, as in
// compute/image/filter.hpp), alpha kept.
//
// Each work-item converts 4 pixels, read and written as one 16-byte access (work-item i: quad
// i); the last count % 4 pixels go one by one to the first work-items. One pixel, two or four
// quads per work-item were measured slower (docs/kernel-measurements.md).
inline uint gray(uint p) {
    const uint r = p & 255u, g = (p >> 8) & 255u, b = (p >> 16) & 255u;
    const uint y = (54u * r + 183u * g + 19u * b + 128u) >> 8;
    return (p & 0xff000000u) | (y * 0x010101u);
}

__kernel void grayscale(const __global uint* src, __global uint* dst, uint count) {
    const size_t nquads = count / 4, i = get_global_id(0);
    if (i < nquads) {
        const uint4 q = ((const __global uint4*)src)[i];
        ((__global uint4*)dst)[i] = (uint4)(gray(q.x), gray(q.y), gray(q.z), gray(q.w));
    }
    const size_t tail = nquads * 4 + i;
    if (tail < count) dst[tail] = gray(src[tail]);
}
