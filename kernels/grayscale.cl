// Grayscale: R = G = B = luma8 (Rec. 709 weights in 8.8 fixed point, as in
// compute/image_filter.hpp), alpha kept.
__kernel void grayscale(const __global uchar4* src, __global uchar4* dst, uint count) {
    const size_t i = get_global_id(0);
    if (i >= count) return;
    const uchar4 p = src[i];
    const uchar y = (uchar)((54u * p.x + 183u * p.y + 19u * p.z + 128u) >> 8);
    dst[i] = (uchar4)(y, y, y, p.w);
}
