// Rotation about the image centre. The geometry and sampling conventions are documented in
// compute/image/rotate.hpp; the CPU reference (compute/image/reference.cpp) follows them bit for
// bit. Pixels are uchar4 (R, G, B, A).
//
// geom = (cos, sin, source centre x, source centre y), dst_centre = output centre.

// No contraction: positions use explicit fma() so the device and the CPU round identically,
// and nearest sampling picks the same source pixel even on pixel borders.
#pragma OPENCL FP_CONTRACT OFF

// Source position of the centre of output pixel (x, y): inverse rotation.
inline float2 source_position_f(float x, float y, float4 geom, float2 dst_centre) {
    const float dx = (x + 0.5f) - dst_centre.x;
    const float dy = (y + 0.5f) - dst_centre.y;
    return (float2)(fma(geom.x, dx, fma(-geom.y, dy, geom.z)),
                    fma(geom.y, dx, fma(geom.x, dy, geom.w)));
}
inline float2 source_position(int x, int y, float4 geom, float2 dst_centre) {
    return source_position_f((float)x, (float)y, geom, dst_centre);
}

// Inverse-mapping kernels: which output pixels a work-item makes. Work-groups are 32 x 4
// work-items; each makes PIXELS = 4 horizontally adjacent output pixels and stores them with one
// 16-byte write. A run of 32 work-items (a warp on NVIDIA) covers a 16 x 8 block, 4 work-items per
// row: compact, so after rotation its source footprint stays compact at any angle and each
// gather touches few cache lines, while its writes are whole 64-byte row segments. The 4 warps
// of a group stack into a 16 x 32 tile. The shapes tried against it are in
// docs/kernel-measurements.md.
#define GROUP_X 32
#define GROUP_Y 4
#define PIXELS 4
#define ROW_ITEMS 4                      // work-items per row of a warp's block
#define TILE_W (PIXELS * ROW_ITEMS)      // 16
#define TILE_H (32 / ROW_ITEMS * GROUP_Y)  // 32
inline int2 first_output_pixel(void) {
    const int lid = get_local_id(1) * GROUP_X + get_local_id(0);
    const int warp = lid >> 5, lane = lid & 31;
    return (int2)(get_group_id(0) * TILE_W + (lane % ROW_ITEMS) * PIXELS,
                  get_group_id(1) * TILE_H + warp * (32 / ROW_ITEMS) + lane / ROW_ITEMS);
}

// Every kernel gathers all its pixels first and stores them after: with no store between them, a
// work-item's loads are all in flight at once (a compiler may not hoist a load above a store to a
// buffer that might alias the source). Pixels outside the output are computed and not stored.
// ALIGNED_ROWS (the host defines it when the output width is a multiple of 4): every 4-pixel run
// starts 16-byte aligned and lies wholly inside or wholly outside a row, so one 16-byte store
// does. Otherwise pixel by pixel. Two builds rather than a branch on the width: the kernel with
// both store paths in it was slower (docs/kernel-measurements.md).
#ifdef ALIGNED_ROWS
#define store_pixels(dst, dw, dh, o, v)                                                    \
    do {                                                                                   \
        if ((o).x < (dw) && (o).y < (dh))                                                  \
            ((__global uint4*)(dst))[((size_t)(o).y * (dw) + (o).x) / 4] = (uint4)(        \
                as_uint((v)[0]), as_uint((v)[1]), as_uint((v)[2]), as_uint((v)[3]));       \
    } while (0)
#else
#define store_pixels(dst, dw, dh, o, v)                                                    \
    do {                                                                                   \
        if ((o).y < (dh))                                                                  \
            for (int n_ = 0; n_ < PIXELS; ++n_)                                            \
                if ((o).x + n_ < (dw)) (dst)[(size_t)(o).y * (dw) + (o).x + n_] = (v)[n_]; \
    } while (0)
#endif

// The body of every inverse-mapping kernel: gather the work-item's PIXELS pixels with
// pixel(args..., x, y), then store them (dst, dw and dh are the kernel's arguments).
#define GATHER_AND_STORE(pixel, ...)                                                     \
    do {                                                                                 \
        const int2 o = first_output_pixel();                                             \
        uchar4 v[PIXELS];                                                                \
        _Pragma("unroll") for (int n = 0; n < PIXELS; ++n) v[n] =                        \
            pixel(__VA_ARGS__, o.x + n, o.y);                                            \
        store_pixels(dst, dw, dh, o, v);                                                 \
    } while (0)

// As GATHER_AND_STORE, with the output pixel as float coordinates: one int-to-float conversion
// (quarter rate on NVIDIA) per work-item instead of two per pixel; x + n is exact in float.
#define GATHER_AND_STORE_F(pixel, ...)                                                   \
    do {                                                                                 \
        const int2 o = first_output_pixel();                                             \
        const float ox = (float)o.x, oy = (float)o.y;                                    \
        uchar4 v[PIXELS];                                                                \
        _Pragma("unroll") for (int n = 0; n < PIXELS; ++n) v[n] =                        \
            pixel(__VA_ARGS__, ox + (float)n, oy);                                       \
        store_pixels(dst, dw, dh, o, v);                                                 \
    } while (0)

inline bool inside(float fx, float fy, int w, int h) {
    return fx >= 0.0f && fy >= 0.0f && fx < (float)w && fy < (float)h;
}

inline uchar4 buffer_nearest_pixel(const __global uchar4* src, int sw, int sh, float4 geom,
                                   float2 dst_centre, uchar4 background, int x, int y) {
    const float2 p = source_position(x, y, geom, dst_centre);
    const float fx = floor(p.x), fy = floor(p.y);
    uchar4 v = background;
    if (inside(fx, fy, sw, sh)) v = src[(size_t)(int)fy * sw + (int)fx];
    return v;
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1))) void rotate_buffer_nearest(
    const __global uchar4* src, int sw, int sh, __global uchar4* dst, int dw, int dh, float4 geom,
    float2 dst_centre, uchar4 background) {
    GATHER_AND_STORE(buffer_nearest_pixel, src, sw, sh, geom, dst_centre, background);
}

#include "common/nv_inline_ptx.clh"  // NV_INLINE_PTX: prmt, h2_sub, h2_add, h2_fma, h2_splat
#ifdef NV_INLINE_PTX
// NVIDIA (the host defines NV_INLINE_PTX where the compiler takes inline PTX): byte permutes to
// unpack and pack, FP16 pairs to blend. The bilinear rotate is partly bound by the integer pipe
// the permutes run on and by the floating-point work; each step was faster on the H100
// (docs/benchmarks.md, the rotate follow-up).

// The bilinear blend of four RGBA8 words with weights a, two channels per FP16 pair: half the
// floating-point instructions of the float blend below and half the byte permutes. A byte b
// permuted under 0x64 is the half 1024 + b; differences of two are exact; a blend is within
// 0.56 of the float one at worst (weights rounded to 11 bits, products to 1/8 below 256), so the
// result is within one level of the reference's, which the tests allow for this variant (the
// docs/benchmarks.md rotate follow-up has the bound). Adding 1024 back
// rounds to the nearest integer (ties to even) and leaves it in the low byte of each half.
inline uchar4 blend(uint p00, uint p10, uint p01, uint p11, float2 a) {
    const uint e = 0x64646464u, bias = 0x64006400u;  // bias: 1024.0 in both halves
    const uint wx = h2_splat(a.x), wy = h2_splat(a.y);
    uint out[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {  // R and G, then B and A
        const uint sel = k ? 0x4342u : 0x4140u;
        const uint f00 = prmt(p00, e, sel), f10 = prmt(p10, e, sel);
        const uint f01 = prmt(p01, e, sel), f11 = prmt(p11, e, sel);
        const uint top = h2_fma(h2_sub(f10, f00), wx, h2_sub(f00, bias));
        const uint bottom = h2_fma(h2_sub(f11, f01), wx, h2_sub(f01, bias));
        out[k] = h2_add(h2_fma(h2_sub(bottom, top), wy, top), bias);
    }
    return as_uchar4(prmt(out[0], out[1], 0x6420u));
}
#else
// Byte k of an RGBA8 word as an exact float without a conversion instruction (conversions run
// at a quarter of the FP32 rate on some GPUs): 2^23 + b holds b in its low mantissa bits. Back:
// for v in [0, 255] (a blend of bytes), adding 2^23 rounds to the nearest integer, ties to even,
// as convert_uchar4_sat_rte would.
inline float4 unpack_float(uint p) {
    return (float4)(as_float((p & 255u) | 0x4b000000u), as_float(((p >> 8) & 255u) | 0x4b000000u),
                    as_float(((p >> 16) & 255u) | 0x4b000000u), as_float((p >> 24) | 0x4b000000u)) -
           8388608.0f;
}
inline uchar4 pack_rte(float4 v) {
    const uint4 u = as_uint4(v + 8388608.0f) & 255u;
    return as_uchar4(u.x | (u.y << 8) | (u.z << 16) | (u.w << 24));
}

// The bilinear blend of four RGBA8 words with weights a, in float: the reference's arithmetic.
inline uchar4 blend(uint p00, uint p10, uint p01, uint p11, float2 a) {
    const float4 f00 = unpack_float(p00), f10 = unpack_float(p10);
    const float4 f01 = unpack_float(p01), f11 = unpack_float(p11);
    const float4 top = fma(f10 - f00, (float4)a.x, f00);
    const float4 bottom = fma(f11 - f01, (float4)a.x, f01);
    return pack_rte(fma(bottom - top, (float4)a.y, top));
}
#endif

inline uint word_or(const __global uchar4* src, int w, int h, int x, int y, uint background) {
    return (x >= 0 && y >= 0 && x < w && y < h) ? as_uint(src[(size_t)y * w + x]) : background;
}

// The common case is tested first and cheaply: the 2 x 2 footprint inside the source, one
// unsigned compare per axis, then four plain loads; the edge cases blend in the background.
// The output pixel comes as float coordinates (GATHER_AND_STORE_F). What limits the kernel is
// the gather itself (each tap of a warp touches a dozen cache lines of rotated rows) and the
// arithmetic around it. Staging the tile's source rectangle in local memory (16-byte loads, then
// taps from local memory) and 8 x 4 pixel blocks per warp instruction instead of 32 pixels 4
// apart were slower (docs/kernel-measurements.md).
inline uchar4 buffer_bilinear_pixel(const __global uchar4* src, int sw, int sh, float4 geom,
                                    float2 dst_centre, uchar4 background, float x, float y) {
    // The four pixels whose centres surround the position.
    const float2 q = source_position_f(x, y, geom, dst_centre) - 0.5f;
    const float2 f0 = floor(q);
    const int x0 = (int)f0.x, y0 = (int)f0.y;
    uint p00, p10, p01, p11;
    if ((uint)x0 < (uint)(sw - 1) && (uint)y0 < (uint)(sh - 1)) {
        const __global uint* s = (const __global uint*)src + (size_t)y0 * sw + x0;
        p00 = s[0], p10 = s[1], p01 = s[sw], p11 = s[sw + 1];
    } else if (f0.x >= -1.0f && f0.y >= -1.0f && f0.x < (float)sw && f0.y < (float)sh) {
        const uint bg = as_uint(background);
        p00 = word_or(src, sw, sh, x0, y0, bg);
        p10 = word_or(src, sw, sh, x0 + 1, y0, bg);
        p01 = word_or(src, sw, sh, x0, y0 + 1, bg);
        p11 = word_or(src, sw, sh, x0 + 1, y0 + 1, bg);
    } else {
        return background;
    }
    return blend(p00, p10, p01, p11, q - f0);
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1))) void rotate_buffer_bilinear(
    const __global uchar4* src, int sw, int sh, __global uchar4* dst, int dw, int dh, float4 geom,
    float2 dst_centre, uchar4 background) {
    GATHER_AND_STORE_F(buffer_bilinear_pixel, src, sw, sh, geom, dst_centre, background);
}

// The course's original forward mapping: each source pixel is pushed to where its centre lands. Output
// pixels nobody lands on keep the background the host filled in first: the holes. Where two
// source pixels land on one output pixel either may win.
__kernel void rotate_forward(const __global uchar4* src, int sw, int sh, __global uchar4* dst,
                             int dw, int dh, float4 geom, float2 dst_centre) {
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= sw || y >= sh) return;
    const float dx = ((float)x + 0.5f) - geom.z;
    const float dy = ((float)y + 0.5f) - geom.w;
    const float ox = floor(fma(geom.x, dx, fma(geom.y, dy, dst_centre.x)));
    const float oy = floor(fma(-geom.y, dx, fma(geom.x, dy, dst_centre.y)));
    if (inside(ox, oy, dw, dh)) dst[(size_t)(int)oy * dw + (int)ox] = src[(size_t)y * sw + x];
}

#ifdef CLVIZ_IMAGES
// Nearest through an image object: the kernel picks the pixel and reads at its exact centre, so
// the result does not depend on how the texture unit rounds coordinates near pixel borders.
__constant sampler_t nearest_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
// Hardware bilinear; outside the image the sampler returns (0, 0, 0, 0).
__constant sampler_t linear_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

inline uchar4 image_nearest_pixel(__read_only image2d_t src, float4 geom, float2 dst_centre,
                                  uchar4 background, int x, int y) {
    const float2 p = source_position(x, y, geom, dst_centre);
    const float fx = floor(p.x), fy = floor(p.y);
    uchar4 v = background;
    if (inside(fx, fy, get_image_width(src), get_image_height(src)))
        v = convert_uchar4_sat_rte(
            read_imagef(src, nearest_sampler, (float2)(fx + 0.5f, fy + 0.5f)) * 255.0f);
    return v;
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1))) void rotate_image_nearest(
    __read_only image2d_t src, __global uchar4* dst, int dw, int dh, float4 geom, float2 dst_centre,
    uchar4 background) {
    GATHER_AND_STORE(image_nearest_pixel, src, geom, dst_centre, background);
}

inline uchar4 image_bilinear_pixel(__read_only image2d_t src, float4 geom, float2 dst_centre,
                                   uchar4 background, int x, int y) {
    const int sw = get_image_width(src), sh = get_image_height(src);
    const float2 p = source_position(x, y, geom, dst_centre);
    const float2 q = p - 0.5f;
    const float2 f0 = floor(q);
    uchar4 out = background;
    if (f0.x >= -1.0f && f0.y >= -1.0f && f0.x < (float)sw && f0.y < (float)sh) {
        // The sampler blends transparent black for neighbours outside the image; blend the
        // background in with the weight those neighbours had instead.
        const float2 a = q - f0;
        const float wx =
            (f0.x >= 0.0f ? 1.0f - a.x : 0.0f) + (f0.x + 1.0f < (float)sw ? a.x : 0.0f);
        const float wy =
            (f0.y >= 0.0f ? 1.0f - a.y : 0.0f) + (f0.y + 1.0f < (float)sh ? a.y : 0.0f);
        const float4 inner = read_imagef(src, linear_sampler, p) * 255.0f;
        out = convert_uchar4_sat_rte(inner + (1.0f - wx * wy) * convert_float4(background));
    }
    return out;
}

__kernel __attribute__((reqd_work_group_size(GROUP_X, GROUP_Y, 1))) void rotate_image_bilinear(
    __read_only image2d_t src, __global uchar4* dst, int dw, int dh, float4 geom, float2 dst_centre,
    uchar4 background) {
    GATHER_AND_STORE(image_bilinear_pixel, src, geom, dst_centre, background);
}
#endif

