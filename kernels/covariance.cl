// Gram products of a tall-skinny matrix X (bands rows of `pitch`-strided samples), split over the
// samples (compute/linalg/covariance.hpp). Grid: dimension 0 walks the upper-triangle tile pairs
// (ti <= tj, from `pairs`), dimension 1 the chunks of samples. Each work-group writes its chunk's
// partial products partial[chunk][i][j] for its tile, and the diagonal tiles the chunk's row sums;
// cov_reduce_partials adds the chunks.
// u8: products in 32-bit integers; the host keeps chunks <= 33025 samples, so that
// 255^2 * chunk < 2^31 and a partial cannot overflow. float: x - mu[band] in FP32.

#include "common/nv_inline_ptx.clh"  // NV_INLINE_PTX: MMA_U8_M16N8K32
#include "common/mma_fragment.clh"  // mmaAccRow, mmaAccCol

#ifdef U8
typedef uchar elem;
typedef uint acc_t;
typedef uint4 acc_t4;
#define VALUE(x, band) ((uint)(x))
#else
typedef float elem;
typedef float acc_t;
typedef float4 acc_t4;
#define VALUE(x, band) ((x) - mu[band])
#endif

// ---- portable register-blocked tile: TILE x TILE per 16 x 16 work-group, R x R per work-item ------
// (R = TILE / 16, a multiple of 4: R consecutive rows and columns each)
#ifdef TILE
#define KC 32
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void cov_gram_tiled(
    int bands, int pitch, long samples, int chunkLen, __global const elem* X,
    __global const float* mu, __global const uint* pairs, __global acc_t* partial,
    __global acc_t* partialSums) {
    // k-major, rows of TILE+4: a work-item's R consecutive rows (columns) are one 16-byte read.
    __local acc_t As[KC][TILE + 4] __attribute__((aligned(16)));
    __local acc_t Bs[KC][TILE + 4] __attribute__((aligned(16)));
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const uint pair = pairs[get_group_id(0)];
    const int i0 = (pair >> 16) * TILE, j0 = (pair & 0xffff) * TILE;
    const bool diagonal = i0 == j0;
    const long s0 = (long)get_group_id(1) * chunkLen;
    const long s1 = min(samples, s0 + chunkLen);
    const int R = TILE / 16;

    acc_t acc[TILE / 16][TILE / 16];
    for (int m = 0; m < R; ++m)
        for (int n = 0; n < R; ++n)
            acc[m][n] = 0;
    acc_t rowSum = 0;

    // Each work-item moves ITEMS values of each tile per stage (a warp: one row's KC samples, so
    // the global reads coalesce), loaded into registers one stage ahead: the next stage's loads
    // are in flight while this one's products run.
#define ITEMS (TILE * KC / 256)
    acc_t va[ITEMS], vb[ITEMS];
#define TILED_FETCH(s)                                                                        \
    _Pragma("unroll") for (int q = 0; q < ITEMS; ++q) {                                       \
        const int e = tid + 256 * q, r = e / KC;                                              \
        const long sk = (s) + e % KC;                                                         \
        const int ia = i0 + r, jb = j0 + r;                                                   \
        va[q] = (ia < bands && sk < s1) ? VALUE(X[(size_t)ia * pitch + sk], ia) : 0;          \
        vb[q] = (jb < bands && sk < s1) ? VALUE(X[(size_t)jb * pitch + sk], jb) : 0;          \
    }
    TILED_FETCH(s0)
    for (long s = s0; s < s1; s += KC) {
#pragma unroll
        for (int q = 0; q < ITEMS; ++q) {
            const int e = tid + 256 * q;
            As[e % KC][e / KC] = va[q];
            Bs[e % KC][e / KC] = vb[q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s + KC < s1) {
            TILED_FETCH(s + KC)
        }
#pragma unroll 8
        for (int k = 0; k < KC; ++k) {
            acc_t a[TILE / 16], b[TILE / 16];
            for (int m = 0; m < R; m += 4) {
                const acc_t4 v = *(__local const acc_t4*)&As[k][ty * R + m];
                a[m] = v.x, a[m + 1] = v.y, a[m + 2] = v.z, a[m + 3] = v.w;
            }
            for (int n = 0; n < R; n += 4) {
                const acc_t4 v = *(__local const acc_t4*)&Bs[k][tx * R + n];
                b[n] = v.x, b[n + 1] = v.y, b[n + 2] = v.z, b[n + 3] = v.w;
            }
            for (int m = 0; m < R; ++m)
                for (int n = 0; n < R; ++n)
                    acc[m][n] += a[m] * b[n];
        }
        if (diagonal && tid < TILE)
            for (int k = 0; k < KC; ++k)
                rowSum += As[k][tid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    __global acc_t* out = partial + (size_t)get_group_id(1) * bands * bands;
    for (int m = 0; m < R; ++m)
        for (int n = 0; n < R; ++n) {
            const int i = i0 + ty * R + m, j = j0 + tx * R + n;
            if (i < bands && j < bands) out[(size_t)i * bands + j] = acc[m][n];
        }
    if (diagonal && tid < TILE && i0 + tid < bands)
        partialSums[(size_t)get_group_id(1) * bands + i0 + tid] = rowSum;
}
#endif  // TILE

// ---- FP32: 64 x 64 Gram tile, 8 x 8 per work-item, double-buffered --------------------------------
// The float path's own kernel (the tiled one above is bound by its local reads at 4 x 4 per
// work-item). 8 x 8 work-items each hold an 8 x 8 block (rows ty*4 + {0..3, 32..35}, the same for
// columns), read as four float4s per sample from k-major local tiles. A stage is GK samples of
// the tile's 64 rows (and 64 columns off the diagonal; a diagonal tile reads its rows once).
// Work-item tid owns 4 rows (4 (tid / 4) + {0..3}) and samples tid % 4 + {0, 4, 8, 12} of them: a
// warp's load reads 16 bytes of 8 rows and the next one the rest of the same 32-byte sectors, and
// only 4 row addresses per operand stay live (16 per operand spread the registers to 238 and
// four work-groups per SM). Each sample's 4 rows are centred (x - mu) and stored as one float4;
// rows of GT + 8 floats put a quarter-warp's 8 stores in 32 different banks. Rows past the band
// count read the last band (their products land in entries never written); samples past the
// chunk's end are zeros. One barrier per stage: the next stage is loaded into registers during
// the products and stored into the other buffer.
#ifdef GRAM_F32
#define GT 64
#define GK 16
#define GW 8              // work-items per side
#define GSTRIDE (GT + 8)  // floats per local row (one sample)
__kernel __attribute__((reqd_work_group_size(GW, GW, 1))) void cov_gram_f32(
    int bands, int pitch, long samples, int chunkLen, __global const float* X,
    __global const float* mu, __global const uint* pairs, __global float* partial) {
    __local float As[2][GK * GSTRIDE] __attribute__((aligned(16)));
    __local float Bs[2][GK * GSTRIDE] __attribute__((aligned(16)));
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * GW + tx;
    const uint pair = pairs[get_group_id(0)];
    const int i0 = (pair >> 16) * GT, j0 = (pair & 0xffff) * GT;
    const bool diagonal = i0 == j0;
    const long s0 = (long)get_group_id(1) * chunkLen;
    const long s1 = min(samples, s0 + chunkLen);

    const int lr = 4 * (tid / 4), lk = tid % 4;
    const int4 ia = min((int4)(i0 + lr) + (int4)(0, 1, 2, 3), (int4)(bands - 1));
    const int4 jb = min((int4)(j0 + lr) + (int4)(0, 1, 2, 3), (int4)(bands - 1));
    __global const float* pa[4] = {X + (size_t)ia.x * pitch + lk, X + (size_t)ia.y * pitch + lk,
                                   X + (size_t)ia.z * pitch + lk, X + (size_t)ia.w * pitch + lk};
    __global const float* pb[4] = {X + (size_t)jb.x * pitch + lk, X + (size_t)jb.y * pitch + lk,
                                   X + (size_t)jb.z * pitch + lk, X + (size_t)jb.w * pitch + lk};
    const float4 muA = (float4)(mu[ia.x], mu[ia.y], mu[ia.z], mu[ia.w]);
    const float4 muB = (float4)(mu[jb.x], mu[jb.y], mu[jb.z], mu[jb.w]);
    float4 ra[GK / 4], rb[GK / 4];
#define GRAM_LOAD(dst, p, m, s)                                          \
    _Pragma("unroll") for (int q = 0; q < GK / 4; ++q) {                 \
        const long sk = (s) + lk + 4 * q;                                \
        float4 v = (float4)(0.0f);                                       \
        if (sk < s1) {                                                   \
            const long o = (s) + 4 * q;                                  \
            v = (float4)(p[0][o], p[1][o], p[2][o], p[3][o]) - (m);      \
        }                                                                \
        dst[q] = v;                                                      \
    }
#define GRAM_FETCH(s)                   \
    {                                   \
        GRAM_LOAD(ra, pa, muA, s)       \
        if (!diagonal) {                \
            GRAM_LOAD(rb, pb, muB, s)   \
        }                               \
    }
#define GRAM_STAGE(buf)                                                                   \
    {                                                                                     \
        _Pragma("unroll") for (int q = 0; q < GK / 4; ++q) {                              \
            vstore4(ra[q], 0, As[buf] + (lk + 4 * q) * GSTRIDE + lr);                     \
            if (!diagonal) vstore4(rb[q], 0, Bs[buf] + (lk + 4 * q) * GSTRIDE + lr);      \
        }                                                                                 \
    }

    float acc[8][8];
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
        for (int n = 0; n < 8; ++n)
            acc[m][n] = 0.0f;

    GRAM_FETCH(s0)
    GRAM_STAGE(0)
    barrier(CLK_LOCAL_MEM_FENCE);
    int buf = 0;
    for (long s = s0; s < s1; s += GK) {
        const bool more = s + GK < s1;
        if (more) GRAM_FETCH(s + GK)
        __local const float* as = As[buf];
        __local const float* bs = diagonal ? As[buf] : Bs[buf];
#pragma unroll
        for (int k = 0; k < GK; ++k) {
            const float4 a0 = vload4(0, as + k * GSTRIDE + ty * 4);
            const float4 a1 = vload4(0, as + k * GSTRIDE + 32 + ty * 4);
            const float4 b0 = vload4(0, bs + k * GSTRIDE + tx * 4);
            const float4 b1 = vload4(0, bs + k * GSTRIDE + 32 + tx * 4);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int m = 0; m < 8; ++m)
#pragma unroll
                for (int n = 0; n < 8; ++n) {  // serpentine, as in gemm_regblock
                    const int nn = (m & 1) ? 7 - n : n;
                    acc[m][nn] = fma(a[m], b[nn], acc[m][nn]);
                }
        }
        if (more) GRAM_STAGE(buf ^ 1)  // the other buffer: nobody reads it this round
        barrier(CLK_LOCAL_MEM_FENCE);
        buf ^= 1;
    }

    __global float* out = partial + (size_t)get_group_id(1) * bands * bands;
#pragma unroll
    for (int m = 0; m < 8; ++m) {
        const int i = i0 + (m / 4) * 32 + ty * 4 + (m % 4);
#pragma unroll
        for (int n = 0; n < 8; ++n) {
            const int j = j0 + (n / 4) * 32 + tx * 4 + (n % 4);
            if (i < bands && j < bands) out[(size_t)i * bands + j] = acc[m][n];
        }
    }
}
#endif  // GRAM_F32

// ---- u8 on tensor cores: mma.sync m16n8k32 u8 x u8 -> s32 ---------------------------------------
// 64 x 64 tile per work-group of 4 warps, each warp 32 x 32 (2 x 4 MMA tiles). A stage holds 256
// samples of the tile's 64 rows and 64 columns in local memory, rows padded to 320 bytes: the two
// rows a quarter-warp's 16-byte fragment reads touch then fall 64 bytes apart modulo 128, so the
// eight reads hit different banks. Both operands are rows of
// X, and a dot product does not care in which order its k terms come, so each lane takes 16
// consecutive samples of its row as one uint4 and uses bytes 0-7 for the first MMA and 8-15 for
// the second, A and B permuted alike (PTX ISA fragments for mma.m16n8k32: a lane holds samples
// 4t..4t+3 and 16+4t..16+4t+3 of rows g and g+8). Without NV_INLINE_PTX each lane computes the
// same accumulators with integer multiply-adds (the portable twin).
#ifdef MMA_U8
// MT: the Gram tile, the host's (covariance.cpp, kTile) passed as -DMT; the warp layout below
// (four warps of 32 x 32, two m16 by four n8 tiles each) covers 64 x 64 only.
#if MT != 64
#error "cov_gram_u8_mma covers a 64 x 64 Gram tile: build it with -DMT=64"
#endif
#define STAGE 256
#define ROW4 (STAGE / 16 + 4)  // uint4 per padded local row
// 16 samples of `band` from sample sc (zeros past the band count or the chunk's end).
inline uint4 loadStage(__global const uchar* X, int bands, int pitch, long s1, int band, long sc) {
    uint4 v = (uint4)(0);
    if (band < bands) {
        __global const uchar* p = X + (size_t)band * pitch + sc;
#ifdef VEC_X
        if (sc + 15 < s1) return *(__global const uint4*)p;
#endif
        uchar bytes[16];
        for (int q = 0; q < 16; ++q)
            bytes[q] = sc + q < s1 ? p[q] : 0;
        v = as_uint4(vload16(0, bytes));
    }
    return v;
}

// The sum of the 16 bytes: pairs of bytes in 16-bit lanes (at most 8 x 255 each), then the lanes.
inline uint byteSum(uint4 v) {
    const uint m = 0x00ff00ffu;
    const uint s = (v.x & m) + ((v.x >> 8) & m) + (v.y & m) + ((v.y >> 8) & m) + (v.z & m) +
                   ((v.z >> 8) & m) + (v.w & m) + ((v.w >> 8) & m);
    return (s & 0xffffu) + (s >> 16);
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void cov_gram_u8_mma(
    int bands, int pitch, long samples, int chunkLen, __global const uchar* X,
    __global const float* mu, __global const uint* pairs, __global uint* partial,
    __global uint* partialSums) {
    __local uint4 As[MT][ROW4];
    __local uint4 Bs[MT][ROW4];
    const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
    const uint pair = pairs[get_group_id(0)];
    const int i0 = (pair >> 16) * MT, j0 = (pair & 0xffff) * MT;
    const bool diagonal = i0 == j0;
    const long s0 = (long)get_group_id(1) * chunkLen;
    const long s1 = min(samples, s0 + chunkLen);

    uint acc[2][4][4];
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[a][b][q] = 0;

    // Each work-item moves 8 uint4 of A's rows (and 8 of B's) per stage: rows (tid >> 4) + 8 q,
    // 16 bytes at column (tid & 15). They are loaded into registers one stage ahead, so the next
    // stage's global loads are in flight while this one's MMAs run. A diagonal tile's columns are
    // its rows (A alone); its row sums are added from the same registers.
    const int lr = tid >> 4, lc = (tid & 15) * 16;
    uint4 ra[8], rb[8];
    uint rs[8];
#pragma unroll
    for (int q = 0; q < 8; ++q)
        rs[q] = 0;
#define COV_FETCH(s)                                                            \
    _Pragma("unroll") for (int q = 0; q < 8; ++q) {                             \
        ra[q] = loadStage(X, bands, pitch, s1, i0 + lr + 8 * q, (s) + lc);    \
        if (!diagonal) rb[q] = loadStage(X, bands, pitch, s1, j0 + lr + 8 * q, (s) + lc); \
    }
    COV_FETCH(s0)
    for (long s = s0; s < s1; s += STAGE) {
#pragma unroll
        for (int q = 0; q < 8; ++q) {
            As[lr + 8 * q][lc / 16] = ra[q];
            if (!diagonal) Bs[lr + 8 * q][lc / 16] = rb[q];
            if (diagonal) rs[q] += byteSum(ra[q]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s + STAGE < s1) {
            COV_FETCH(s + STAGE)
        }
#ifdef NV_INLINE_PTX
        __local uint4(*Bt)[ROW4] = diagonal ? As : Bs;
#pragma unroll
        for (int kg = 0; kg < STAGE / 64; ++kg) {  // 64 samples: two k32 MMAs per tile
        uint4 av[2][2], bv[4];
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            av[a][0] = As[wm + a * 16 + g][kg * 4 + t];
            av[a][1] = As[wm + a * 16 + g + 8][kg * 4 + t];
        }
#pragma unroll
        for (int b = 0; b < 4; ++b)
            bv[b] = Bt[wn + b * 8 + g][kg * 4 + t];
#define MMA_U8_STEP(X0, X1)                                                                       \
    _Pragma("unroll") for (int a = 0; a < 2; ++a)                                                 \
        _Pragma("unroll") for (int b = 0; b < 4; ++b)                                             \
            MMA_U8_M16N8K32(acc[a][b][0], acc[a][b][1], acc[a][b][2], acc[a][b][3],              \
                            av[a][0].X0, av[a][1].X0, av[a][0].X1, av[a][1].X1, bv[b].X0, bv[b].X1);
        MMA_U8_STEP(x, y)
        MMA_U8_STEP(z, w)
        }
#else
        // Lane (g, t) owns rows g and g + 8, columns 2t and 2t + 1 of each 16 x 8 tile.
        __local const uchar* ab = (__local const uchar*)As;
        __local const uchar* bb = (__local const uchar*)(diagonal ? As : Bs);
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 4; ++b)
                for (int q = 0; q < 4; ++q) {
                    const int r = mmaAccRow(wm + a * 16, g, q);
                    const int c = mmaAccCol(wn + b * 8, t, q);
                    uint sum = acc[a][b][q];
                    for (int k = 0; k < STAGE; ++k)
                        sum += (uint)ab[r * ROW4 * 16 + k] * (uint)bb[c * ROW4 * 16 + k];
                    acc[a][b][q] = sum;
                }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    __global uint* out = partial + (size_t)get_group_id(1) * bands * bands;
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b)
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int i = mmaAccRow(i0 + wm + a * 16, g, q);
                const int j = mmaAccCol(j0 + wn + b * 8, t, q);
                if (i < bands && j < bands) out[(size_t)i * bands + j] = acc[a][b][q];
            }
    if (diagonal) {  // the 16 work-items of a row add their columns' sums
        __local uint* part = (__local uint*)As;
#pragma unroll
        for (int q = 0; q < 8; ++q)
            part[(lr + 8 * q) * 16 + (tid & 15)] = rs[q];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < MT && i0 + tid < bands) {
            uint rowSum = 0;
            for (int c = 0; c < 16; ++c)
                rowSum += part[tid * 16 + c];
            partialSums[(size_t)get_group_id(1) * bands + i0 + tid] = rowSum;
        }
    }
}
#endif  // MMA_U8

// ---- adding the chunks ---------------------------------------------------------------------------
// One work-item per upper-triangle entry (i <= j) and per row sum: the chunks' partials added in
// 64 bits (u8: exact) or in double (float; FP32 where the device has no doubles).
#ifdef U8
typedef ulong total_t;
#elif defined(HAS_FP64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double total_t;
#else
typedef float total_t;
#endif

// Eight independent loads per round: a work-item has ~100 chunks to add, and one load in flight
// at a time would leave this pass waiting on memory latency.
inline total_t sumChunks(__global const acc_t* p, size_t stride, int chunks) {
    total_t s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int c = 0;
    for (; c + 8 <= chunks; c += 8)
#pragma unroll
        for (int q = 0; q < 8; ++q)
            s[q] += p[(size_t)(c + q) * stride];
    for (; c < chunks; ++c)
        s[0] += p[(size_t)c * stride];
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// SLICES work-items per entry (a group of 256 / SLICES entries x SLICES): slice y adds chunks y,
// y + SLICES, ..., so more loads are in flight than one work-item per entry keeps; slice 0 adds
// the slices' sums in slice order.
#ifndef SLICES
#define SLICES 1
#endif
__kernel __attribute__((reqd_work_group_size(256 / SLICES, SLICES, 1))) void cov_reduce_partials(
    int bands, int chunks, __global const acc_t* partial, __global const acc_t* partialSums,
    __global total_t* gram, __global total_t* sums) {
    const int id = get_global_id(0), slice = get_local_id(1);
    const int entries = bands * bands;
    const int mine = (chunks - slice + SLICES - 1) / SLICES;  // chunks slice, slice + SLICES, ...
    total_t v = 0;
    bool store = false;
    if (id < entries) {
        const int i = id / bands, j = id % bands;
        store = i <= j;  // the host mirrors the lower triangle
        if (store)
            v = sumChunks(partial + (size_t)slice * entries + id, (size_t)entries * SLICES, mine);
    } else if (id < entries + bands) {
        const int b = id - entries;
        store = true;
        v = sumChunks(partialSums + (size_t)slice * bands + b, bands * SLICES, mine);
    }
#if SLICES > 1
    __local total_t part[SLICES][256 / SLICES];
    part[slice][get_local_id(0)] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (slice != 0) return;
    for (int y = 1; y < SLICES; ++y)
        v += part[y][get_local_id(0)];
#endif
    if (!store) return;
    if (id < entries)
        gram[id] = v;
    else
        sums[id - entries] = v;
}

// ---- float means: one work-group per (chunk, band) sums its stretch of the row -------------------
#ifndef U8
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void cov_row_sums(
    int pitch, long samples, int chunkLen, __global const float* X, __global float* partialSums) {
    __local float tree[256];
    const int tid = get_local_id(0), band = get_group_id(1), chunk = get_group_id(0);
    const long s0 = (long)chunk * chunkLen, s1 = min(samples, s0 + chunkLen);
    float s = 0.0f;
    for (long k = s0 + tid; k < s1; k += 256)
        s += X[(size_t)band * pitch + k];
    tree[tid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = 128; w > 0; w >>= 1) {
        if (tid < w) tree[tid] += tree[tid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) partialSums[(size_t)band * get_num_groups(0) + chunk] = tree[0];
}
#endif
