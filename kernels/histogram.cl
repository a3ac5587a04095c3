// 256-bin histograms of R, G, B and luma: 4 x 256 = 1024 bins, channel-major. Every variant
// adds its work-group's counts into `acc` with one global atomic per non-empty bin; the last
// work-group to finish then moves `acc` into `bins` and leaves `acc` and the ticket counter at zero
// for the next launch. So the whole reduction happens on the device in one kernel, and `bins`
// needs no clearing command first (that separate fill and its launch gap cost a measurable part
// of a histogram: docs/kernel-measurements.md). `acc` and `ticket` belong to one in-order queue, are
// zeroed once when created, and every launch that runs to completion leaves them zeroed.
// Pixels are read 16 bytes (4 pixels) at a time where the variant is built for speed; the last
// count % 4 pixels are picked up one by one.

#define BINS 1024

// The four bins pixel p (R in the low byte, as RGBA8 reads on little-endian devices) counts in:
// R, 256 + G, 512 + B and 768 + luma, luma8() of compute/image/filter.hpp (Rec. 709 weights in
// 8.8 fixed point). Shifts and masks: unpacking a uchar vector costs far more instructions.
inline uint4 bins_of(uint p) {
    const uint r = p & 255u, g = (p >> 8) & 255u, b = (p >> 16) & 255u;
    return (uint4)(r, 256u + g, 512u + b, 768u + ((54u * r + 183u * g + 19u * b + 128u) >> 8));
}

// Adds a work-group's count of one bin to the running totals; empty bins cost nothing. Returns
// what the atomic returned, for finish().
inline uint merge_into(__global uint* acc, uint bin, uint count) {
    return count != 0 ? atomic_add(&acc[bin], count) : 0u;
}

// Called by every work-item of every work-group after its merge_into calls, with the bitwise or of
// what they returned. Each work-group takes a ticket once its atomics are done; the one that draws
// the last ticket sees everybody's totals. "Done" needs care: an OpenCL 1.2 fence orders a
// work-item's own accesses without promising device-wide visibility (NVIDIA compiles it to
// membar.cta), so a group could take its ticket while its atomics were still on the way. On the
// H200 that lost counts in 4 of 30 runs of the BackToBackLaunches test. Using the atomics' results
// before the barrier makes every work-item wait until its atomics have been performed in device
// memory, where the last group reads (0 failures in 30 runs).
inline void finish(__global uint* acc, __global uint* bins, __global uint* ticket,
                   __local uint* last, uint merged) {
    if (merged == 0xffffffffu) *last = merged;  // a use of the results: never true in practice
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) *last = atomic_inc(ticket) == get_num_groups(0) - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*last) {
        for (uint bin = get_local_id(0); bin < BINS; bin += get_local_size(0))
            bins[bin] = atomic_xchg(&acc[bin], 0u);
        if (get_local_id(0) == 0) atomic_xchg(ticket, 0u);
    }
}

// COVERAGE (from the host, for a rotated image): count only the pixels whose centre maps inside
// the rotate's source, so the fill around a rotated picture stays out of the bins. The mapping is
// rotate.cl's source_position_f, the same float arithmetic, so the two agree on every edge pixel.
// The extra arguments: output width, source width and height, and the rotate's geometry.
#ifdef COVERAGE
#define RESULT_ARGS                                                                              \
    __global uint *bins, __global uint *acc, __global uint *ticket, uint cov_w, int cov_sw,      \
        int cov_sh, float4 cov_geom, float2 cov_centre
inline bool covered_pixel(size_t i, uint cov_w, int cov_sw, int cov_sh, float4 geom,
                          float2 centre) {
    const float dx = ((float)(i % cov_w) + 0.5f) - centre.x;
    const float dy = ((float)(i / cov_w) + 0.5f) - centre.y;
    const float sx = fma(geom.x, dx, fma(-geom.y, dy, geom.z));
    const float sy = fma(geom.y, dx, fma(geom.x, dy, geom.w));
    return sx >= 0.0f && sy >= 0.0f && sx < (float)cov_sw && sy < (float)cov_sh;
}
#define COVERED(i) covered_pixel((i), cov_w, cov_sw, cov_sh, cov_geom, cov_centre)
#else
#define RESULT_ARGS __global uint *bins, __global uint *acc, __global uint *ticket
#define COVERED(i) true
#endif

// --- The course's original: per-work-item 8-bit sub-histograms in local memory ------------------
// WG (the work-group size) comes from the build options. Counter sub[bin * WG + lid] belongs to
// work-item lid alone, so increments need no atomics. The original let a counter wrap after 255
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
void histogram_bytes(const __global uchar4* pixels, uint count, RESULT_ARGS) {
    __local uint sub_words[BINS * WG / 4];  // uint storage keeps the bytes word-aligned to clear
    __local uint carry[BINS];
    __local uint last;
    __local uchar* sub = (__local uchar*)sub_words;
    const uint lid = get_local_id(0);
    for (uint i = lid; i < BINS * WG / 4; i += WG) sub_words[i] = 0;
    for (uint i = lid; i < BINS; i += WG) carry[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (size_t i = get_global_id(0); i < count; i += get_global_size(0)) {
        if (!COVERED(i)) continue;
        const uchar4 p = pixels[i];
        const uint4 b = bins_of(as_uint(p));
        count_byte(sub, carry, b.x, lid);
        count_byte(sub, carry, b.y, lid);
        count_byte(sub, carry, b.z, lid);
        count_byte(sub, carry, b.w, lid);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    uint merged = 0;
    for (uint bin = lid; bin < BINS; bin += WG) {
        uint total = carry[bin];
        for (uint k = 0; k < WG; ++k) total += sub[bin * WG + k];
        merged |= merge_into(acc, bin, total);
    }
    finish(acc, bins, ticket, &last, merged);
}
#endif

// --- Local atomics: REPLICAS copies of the bins per work-group ----------------------------------
// Copy r = lid % REPLICAS, interleaved (bin * REPLICAS + r). The default is one copy: lanes of a
// warp that hit the same bin then hit the same word, which the hardware combines (flat regions
// of real pictures), and on the H200 more copies made the test pattern slower and uniform noise
// no faster (docs/kernel-measurements.md).
// Pixels are read as uint4 and split by bins_of(): reading uchar16 and using its components cost
// speed (docs/kernel-measurements.md).
#ifdef REPLICAS
#define LOADS 4  // 16-byte loads in flight per work-item before their atomics

// SKIP_RGB / SKIP_LUMA (equalization, which needs only one kind): those bins stay at zero.
inline void count_local(__local uint* hist, uint p, uint r) {
    const uint4 b = bins_of(p) * REPLICAS + r;
#ifndef SKIP_RGB
    atomic_inc(&hist[b.x]);
    atomic_inc(&hist[b.y]);
    atomic_inc(&hist[b.z]);
#endif
#ifndef SKIP_LUMA
    atomic_inc(&hist[b.w]);
#endif
}

inline void count_local4(__local uint* hist, uint4 q, uint r) {
    count_local(hist, q.x, r);
    count_local(hist, q.y, r);
    count_local(hist, q.z, r);
    count_local(hist, q.w, r);
}

// Quad `i` (pixels 4i .. 4i + 3), each pixel only where COVERED.
#ifdef COVERAGE
#define COUNT_LOCAL4(hist, q, r, i)                         \
    do {                                                    \
        const uint4 q_ = (q);                               \
        if (COVERED(4 * (i))) count_local(hist, q_.x, r);     \
        if (COVERED(4 * (i) + 1)) count_local(hist, q_.y, r); \
        if (COVERED(4 * (i) + 2)) count_local(hist, q_.z, r); \
        if (COVERED(4 * (i) + 3)) count_local(hist, q_.w, r); \
    } while (0)
#else
#define COUNT_LOCAL4(hist, q, r, i) count_local4(hist, q, r)
#endif

// GROUP_SIZE (from the host) is the work-group size, declared so the compiler plans for it (on
// NVIDIA it becomes .reqntid, which bounds registers). 1024 work-items per group beat 256 on the
// H200 (docs/kernel-measurements.md): fewer groups, so fewer merges into the global totals. (NVIDIA's driver still reports CL_KERNEL_WORK_GROUP_SIZE 256 for
// it; see ImageHistogram::plan.)
__kernel __attribute__((reqd_work_group_size(GROUP_SIZE, 1, 1)))
void histogram_local(const __global uint4* quads, const __global uint* pixels, uint count,
                     RESULT_ARGS) {
    __local uint hist[BINS * REPLICAS];
    __local uint last;
    const uint lid = get_local_id(0), size = get_local_size(0);
    for (uint i = lid; i < BINS * REPLICAS; i += size) hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint r = lid % REPLICAS;
    const size_t nquads = count / 4, stride = get_global_size(0);
    size_t i = get_global_id(0);
    for (; i + (LOADS - 1) * stride < nquads; i += LOADS * stride) {
        uint4 q[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; ++u) q[u] = quads[i + u * stride];
#pragma unroll
        for (int u = 0; u < LOADS; ++u) COUNT_LOCAL4(hist, q[u], r, i + u * stride);
    }
    for (; i < nquads; i += stride) COUNT_LOCAL4(hist, quads[i], r, i);
    const size_t tail = nquads * 4 + get_global_id(0);
    if (tail < count && COVERED(tail)) count_local(hist, pixels[tail], r);
    barrier(CLK_LOCAL_MEM_FENCE);

    uint merged = 0;
    for (uint bin = lid; bin < BINS; bin += size) {
        uint total = 0;
        for (uint k = 0; k < REPLICAS; ++k) total += hist[bin * REPLICAS + k];
        merged |= merge_into(acc, bin, total);
    }
    finish(acc, bins, ticket, &last, merged);
}
#endif

// --- Global atomics: every pixel goes straight to the final bins ----------------------------------
// Returns the or of what its atomics returned, for finish().
inline uint count_global(__global uint* acc, uint p) {
    const uint4 b = bins_of(p);
    return atomic_inc(&acc[b.x]) | atomic_inc(&acc[b.y]) | atomic_inc(&acc[b.z]) |
           atomic_inc(&acc[b.w]);
}

__kernel void histogram_global(const __global uint4* quads, const __global uint* pixels, uint count,
                               RESULT_ARGS) {
    __local uint last;
    const size_t nquads = count / 4, stride = get_global_size(0);
    uint merged = 0;
    for (size_t i = get_global_id(0); i < nquads; i += stride) {
        const uint4 q = quads[i];
#ifdef COVERAGE
        if (COVERED(4 * i)) merged |= count_global(acc, q.x);
        if (COVERED(4 * i + 1)) merged |= count_global(acc, q.y);
        if (COVERED(4 * i + 2)) merged |= count_global(acc, q.z);
        if (COVERED(4 * i + 3)) merged |= count_global(acc, q.w);
#else
        merged |= count_global(acc, q.x) | count_global(acc, q.y) | count_global(acc, q.z) |
                  count_global(acc, q.w);
#endif
    }
    const size_t tail = nquads * 4 + get_global_id(0);
    if (tail < count && COVERED(tail)) merged |= count_global(acc, pixels[tail]);
    finish(acc, bins, ticket, &last, merged);
}
