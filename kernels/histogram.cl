// 256-bin histograms of R, G, B and luma: 4 x 256 = 1024 bins, channel-major. Every variant
// adds its work-group's counts into the final `bins` (zeroed by the host first) with one global
// atomic per non-empty bin, so the whole reduction happens on the device in the same kernel.
// Pixels are read 16 bytes (4 pixels) at a time where the variant is built for speed; the last
// count % 4 pixels are picked up one by one.

#define BINS 1024

// luma8() in compute/image_filter.hpp: Rec. 709 weights in 8.8 fixed point.
inline uint luma8(uchar4 p) { return (54u * p.x + 183u * p.y + 19u * p.z + 128u) >> 8; }

// Adds a work-group's `hist` to the final bins; empty bins cost nothing.
inline void merge_into(__global uint* bins, uint bin, uint count) {
    if (count != 0) atomic_add(&bins[bin], count);
}

// --- The seed: per-work-item 8-bit sub-histograms in local memory -------------------------------
// WG (the work-group size) comes from the build options. Counter sub[bin * WG + lid] belongs to
// work-item lid alone, so increments need no atomics. The seed let a counter wrap after 255
// equal values; here a counter at 255 carries 256 into the work-group's 32-bit `carry` bins
// (rare, so its local atomic costs nothing) and restarts at 0.
#ifdef WG
inline void count_byte(__local uchar* sub, __local uint* carry, uint bin, uint lid) {
    const uint i = bin * WG + lid;
    const uchar v = sub[i];
    if (v == 255) {
        atomic_add(&carry[bin], 256u);
        sub[i] = 0;
    } else {
        sub[i] = v + 1;
    }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void histogram_bytes(const __global uchar4* pixels, uint count, __global uint* bins) {
    __local uint sub_words[BINS * WG / 4];  // uint storage keeps the bytes word-aligned to clear
    __local uint carry[BINS];
    __local uchar* sub = (__local uchar*)sub_words;
    const uint lid = get_local_id(0);
    for (uint i = lid; i < BINS * WG / 4; i += WG) sub_words[i] = 0;
    for (uint i = lid; i < BINS; i += WG) carry[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t i = get_global_id(0); i < count; i += get_global_size(0)) {
        const uchar4 p = pixels[i];
        count_byte(sub, carry, p.x, lid);
        count_byte(sub, carry, 256 + p.y, lid);
        count_byte(sub, carry, 512 + p.z, lid);
        count_byte(sub, carry, 768 + luma8(p), lid);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint bin = lid; bin < BINS; bin += WG) {
        uint total = carry[bin];
        for (uint k = 0; k < WG; ++k) total += sub[bin * WG + k];
        merge_into(bins, bin, total);
    }
}
#endif

// --- Local atomics: REPLICAS copies of the bins per work-group ----------------------------------
// Copy r = lid % REPLICAS, interleaved (bin * REPLICAS + r): work-items of one warp that hit the
// same bin (flat image regions) update different words in different banks instead of queueing on
// one address.
#ifdef REPLICAS
inline void count_local(__local uint* hist, uchar4 p, uint r) {
    atomic_inc(&hist[p.x * REPLICAS + r]);
    atomic_inc(&hist[(256 + p.y) * REPLICAS + r]);
    atomic_inc(&hist[(512 + p.z) * REPLICAS + r]);
    atomic_inc(&hist[(768 + luma8(p)) * REPLICAS + r]);
}

inline void count_local4(__local uint* hist, uchar16 q, uint r) {
    count_local(hist, q.s0123, r);
    count_local(hist, q.s4567, r);
    count_local(hist, q.s89ab, r);
    count_local(hist, q.scdef, r);
}

__kernel void histogram_local(const __global uchar16* quads, const __global uchar4* pixels,
                              uint count, __global uint* bins) {
    __local uint hist[BINS * REPLICAS];
    const uint lid = get_local_id(0), size = get_local_size(0);
    for (uint i = lid; i < BINS * REPLICAS; i += size) hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint r = lid % REPLICAS;
    const size_t nquads = count / 4, stride = get_global_size(0);
    size_t i = get_global_id(0);
    // Two independent 16-byte loads in flight per work-item before the atomics.
    for (; i + stride < nquads; i += 2 * stride) {
        const uchar16 a = quads[i];
        const uchar16 b = quads[i + stride];
        count_local4(hist, a, r);
        count_local4(hist, b, r);
    }
    if (i < nquads) count_local4(hist, quads[i], r);
    const size_t tail = nquads * 4 + get_global_id(0);
    if (tail < count) count_local(hist, pixels[tail], r);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint bin = lid; bin < BINS; bin += size) {
        uint total = 0;
        for (uint k = 0; k < REPLICAS; ++k) total += hist[bin * REPLICAS + k];
        merge_into(bins, bin, total);
    }
}
#endif

// --- Global atomics: every pixel goes straight to the final bins ----------------------------------
inline void count_global(__global uint* bins, uchar4 p) {
    atomic_inc(&bins[p.x]);
    atomic_inc(&bins[256 + p.y]);
    atomic_inc(&bins[512 + p.z]);
    atomic_inc(&bins[768 + luma8(p)]);
}

__kernel void histogram_global(const __global uchar16* quads, const __global uchar4* pixels,
                               uint count, __global uint* bins) {
    const size_t nquads = count / 4, stride = get_global_size(0);
    for (size_t i = get_global_id(0); i < nquads; i += stride) {
        const uchar16 q = quads[i];
        count_global(bins, q.s0123);
        count_global(bins, q.s4567);
        count_global(bins, q.s89ab);
        count_global(bins, q.scdef);
    }
    const size_t tail = nquads * 4 + get_global_id(0);
    if (tail < count) count_global(bins, pixels[tail]);
}
