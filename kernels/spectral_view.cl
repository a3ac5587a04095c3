// The spectral lab's pictures: three rows of a bands x pixels (or components x pixels) matrix
// stretched linearly to RGBA8, value lo -> 0 and lo + 1/scale -> 255 per channel, clamped. IN_T is
// the matrix's type (uchar for u8 cubes, float for other cubes, components and denoised bands).
#ifndef IN_T
#define IN_T float
#endif

__kernel void spectral_rgba(__global const IN_T* src, __global uchar4* out, int pixels,
                            int rowPitch, int rowR, int rowG, int rowB, float4 lo, float4 scale) {
    const int p = get_global_id(0);
    if (p >= pixels) return;
    const float r = ((float)src[(size_t)rowR * rowPitch + p] - lo.x) * scale.x;
    const float g = ((float)src[(size_t)rowG * rowPitch + p] - lo.y) * scale.y;
    const float b = ((float)src[(size_t)rowB * rowPitch + p] - lo.z) * scale.z;
    out[p] = (uchar4)(convert_uchar_sat_rte(clamp(r, 0.0f, 1.0f) * 255.0f),
                      convert_uchar_sat_rte(clamp(g, 0.0f, 1.0f) * 255.0f),
                      convert_uchar_sat_rte(clamp(b, 0.0f, 1.0f) * 255.0f), (uchar)255);
}
