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
#define VALUE(x, band) ((uint)(x))
#else
typedef float elem;
typedef float acc_t;
#define VALUE(x, band) ((x) - mu[band])
#endif

// ---- portable register-blocked tile: TILE x TILE per 16 x 16 work-group, 4 x 4 per work-item -----
#ifdef TILE
#define KC 32
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void cov_gram_tiled(
    int bands, int pitch, long samples, int chunkLen, __global const elem* X,
    __global const float* mu, __global const uint* pairs, __global acc_t* partial,
    __global acc_t* partialSums) {
    __local acc_t As[KC][TILE + 1];
    __local acc_t Bs[KC][TILE + 1];
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

    for (long s = s0; s < s1; s += KC) {
        for (int e = tid; e < TILE * KC; e += 256) {
            const int r = e / KC, k = e % KC;
            const long sk = s + k;
            const int ia = i0 + r, jb = j0 + r;
            As[k][r] = (ia < bands && sk < s1) ? VALUE(X[(size_t)ia * pitch + sk], ia) : 0;
            Bs[k][r] = (jb < bands && sk < s1) ? VALUE(X[(size_t)jb * pitch + sk], jb) : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < KC; ++k) {
            acc_t a[TILE / 16], b[TILE / 16];
            for (int m = 0; m < R; ++m)
                a[m] = As[k][ty + 16 * m];
            for (int n = 0; n < R; ++n)
                b[n] = Bs[k][tx + 16 * n];
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
            const int i = i0 + ty + 16 * m, j = j0 + tx + 16 * n;
            if (i < bands && j < bands) out[(size_t)i * bands + j] = acc[m][n];
        }
    if (diagonal && tid < TILE && i0 + tid < bands)
        partialSums[(size_t)get_group_id(1) * bands + i0 + tid] = rowSum;
}
#endif  // TILE

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
    uint rowSum = 0;

    for (long s = s0; s < s1; s += STAGE) {
        // 2 x 64 rows of 16 uint4 each: 2048 loads of 16 bytes for 128 work-items (a diagonal
        // tile's columns are its rows: A alone).
        for (int e = tid; e < (diagonal ? 1 : 2) * MT * (STAGE / 16); e += 128) {
            const int which = e / (MT * (STAGE / 16)), r = (e / (STAGE / 16)) % MT;
            const int c = (e % (STAGE / 16)) * 16;
            const int band = (which ? j0 : i0) + r;
            const long sc = s + c;
            uint4 v = (uint4)(0);
            if (band < bands) {
                __global const uchar* p = X + (size_t)band * pitch + sc;
#ifdef VEC_X
                if (sc + 15 < s1) {
                    v = *(__global const uint4*)p;
                } else
#endif
                {
                    uchar bytes[16];
                    for (int q = 0; q < 16; ++q)
                        bytes[q] = sc + q < s1 ? p[q] : 0;
                    v = as_uint4(vload16(0, bytes));
                }
            }
            if (which)
                Bs[r][c / 16] = v;
            else
                As[r][c / 16] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
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
        if (diagonal && tid < MT) {
            __local const uchar* row = (__local const uchar*)As[tid];
            for (int k = 0; k < STAGE; ++k)
                rowSum += row[k];
        }
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
    if (diagonal && tid < MT && i0 + tid < bands)
        partialSums[(size_t)get_group_id(1) * bands + i0 + tid] = rowSum;
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

__kernel void cov_reduce_partials(int bands, int chunks, __global const acc_t* partial,
                                  __global const acc_t* partialSums, __global total_t* gram,
                                  __global total_t* sums) {
    const int id = get_global_id(0);
    const int entries = bands * bands;
    if (id < entries) {
        const int i = id / bands, j = id % bands;
        if (i > j) return;  // the host mirrors the lower triangle
        total_t s = 0;
        for (int c = 0; c < chunks; ++c)
            s += partial[(size_t)c * entries + id];
        gram[id] = s;
    } else if (id < entries + bands) {
        const int b = id - entries;
        total_t s = 0;
        for (int c = 0; c < chunks; ++c)
            s += partialSums[(size_t)c * bands + b];
        sums[b] = s;
    }
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
