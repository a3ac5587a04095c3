// Pipelined FP32 SIMT GEMM, C = alpha * op(A) * op(B) + beta * C, row-major, packed, any M, N, K
// (compute/linalg/gemm.hpp, variant gemm-pipelined). gemm.cl's gemm_regblock with -DDOUBLE_BUFFER
// is the readable form of the same idea; this one adds what a large square product needs:
//  - a BM x BN block per 1-D work-group of (BM/TM) * (BN/TN) work-items (default 128 x 128, 256
//    work-items of 8 x 8), each warp a 4 x 8 patch of work-items, so a warp's float4 reads of a
//    k-row of local memory touch 4 (A) and 8 (B) consecutive float4s: one wavefront each, no bank
//    conflicts;
//  - strided work-item-to-element mapping: a work-item's TM rows are TM/4 runs of 4 spaced 4 * TY
//    apart (columns alike), so the float4 reads above stay consecutive across the warp;
//  - the next k-tile loaded from global memory into registers while this one is multiplied, stored
//    into the other of two local buffers, one barrier per k-tile;
//  - registers capped on NVIDIA so that two groups share an SM (the host's default), and the FMAs
//    of one k ordered column by column (each b reused across the column) in a serpentine.
// Fragments double-buffered in registers by hand (the reads for k + 1 issued before the FMAs of k)
// were slower on the H100 (docs/linalg.md, sgemm-29): ptxas already hoists the reads of the
// unrolled k loop, and the extra 16 live registers under the cap cost it its freedom.
// The host sets FULL_TILES when BM, BN, BK divide M, N, K (no edge checks, every load one float4),
// VEC_A / VEC_B / VEC_C where the stored rows are multiples of 4 floats, TRANS_A / TRANS_B.
// beta == 0 never reads C.
// Options (tuning keys): ASYNC_STAGES=S (2..4) fills S local buffers by cp.async straight from
// global memory instead of the register prefetch (no staging registers, S - 1 tiles in flight;
// a plain copy without NV_INLINE_PTX); GROUP_BAND=G walks the work-groups down bands of G block
// rows, column by column, so that consecutive groups share B's tiles rather than A's.

#include "common/gemm_store.clh"     // gemmStore4: C written four columns at a time
#include "common/nv_async_copy.clh"  // cp_async16, cp_async4, cp_async_commit, CP_ASYNC_WAIT

#define NT ((BM / TM) * (BN / TN))  // work-items per group
#define TX (BN / TN)                // work-items along n
#define TY (BM / TM)                // work-items along m
#define LDA (BM + 4)  // local row strides: rows stay 16-byte aligned, and the scalar stores of a
#define LDB (BN + 4)  // transposed operand (4 k-rows 4 * LDA apart) fall in other banks
#define A_GROUPS (BM * BK / 4)  // float4 groups of one tile
#define B_GROUPS (BK * BN / 4)
#define A_PER_ITEM ((A_GROUPS + NT - 1) / NT)
#define B_PER_ITEM ((B_GROUPS + NT - 1) / NT)

// Four floats of a stored row from column c, zeros past `limit`; one 16-byte load when `vec` says
// the row is a multiple of 4 floats (so c, a multiple of 4, is aligned).
inline float4 pipeLoad4(__global const float* row, int c, int limit, int vec) {
    if (vec && c + 3 < limit) return *(__global const float4*)(row + c);
    float4 v;
    v.x = c < limit ? row[c] : 0.0f;
    v.y = c + 1 < limit ? row[c + 1] : 0.0f;
    v.z = c + 2 < limit ? row[c + 2] : 0.0f;
    v.w = c + 3 < limit ? row[c + 3] : 0.0f;
    return v;
}

#ifdef VEC_A
#define PIPE_VA 1
#else
#define PIPE_VA 0
#endif
#ifdef VEC_B
#define PIPE_VB 1
#else
#define PIPE_VB 0
#endif

// Group g of op(A)'s BM x BK tile at (i0, k0): four floats along the stored matrix's rows.
inline float4 pipeLoadA(__global const float* A, int M, int K, int i0, int k0, int g) {
#ifdef TRANS_A  // stored K x M: groups run along m
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
#ifdef FULL_TILES
    return *(__global const float4*)(A + (size_t)(k0 + c) * M + i0 + r);
#else
    if (k0 + c >= K) return (float4)(0.0f);
    return pipeLoad4(A + (size_t)(k0 + c) * M, i0 + r, M, PIPE_VA);
#endif
#else  // stored M x K: groups run along k
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
#ifdef FULL_TILES
    return *(__global const float4*)(A + (size_t)(i0 + r) * K + k0 + c);
#else
    if (i0 + r >= M) return (float4)(0.0f);
    return pipeLoad4(A + (size_t)(i0 + r) * K, k0 + c, K, PIPE_VA);
#endif
#endif
}

// Group g of op(B)'s BK x BN tile at (k0, j0).
inline float4 pipeLoadB(__global const float* B, int N, int K, int k0, int j0, int g) {
#ifdef TRANS_B  // stored N x K: groups run along k
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
#ifdef FULL_TILES
    return *(__global const float4*)(B + (size_t)(j0 + r) * K + k0 + c);
#else
    if (j0 + r >= N) return (float4)(0.0f);
    return pipeLoad4(B + (size_t)(j0 + r) * K, k0 + c, K, PIPE_VB);
#endif
#else  // stored K x N: groups run along n
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
#ifdef FULL_TILES
    return *(__global const float4*)(B + (size_t)(k0 + c) * N + j0 + r);
#else
    if (k0 + c >= K) return (float4)(0.0f);
    return pipeLoad4(B + (size_t)(k0 + c) * N, j0 + r, N, PIPE_VB);
#endif
#endif
}

// Local tiles are k-major, As[k][m] and Bs[k][n]: an operand stored along k is transposed on the
// way in (four scalar stores), one stored along m or n goes in as one float4.
inline void pipeStoreA(__local float* As, float4 v, int g) {
#ifdef TRANS_A
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
    vstore4(v, 0, As + c * LDA + r);
#else
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    As[(c + 0) * LDA + r] = v.x;
    As[(c + 1) * LDA + r] = v.y;
    As[(c + 2) * LDA + r] = v.z;
    As[(c + 3) * LDA + r] = v.w;
#endif
}

inline void pipeStoreB(__local float* Bs, float4 v, int g) {
#ifdef TRANS_B
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    Bs[(c + 0) * LDB + r] = v.x;
    Bs[(c + 1) * LDB + r] = v.y;
    Bs[(c + 2) * LDB + r] = v.z;
    Bs[(c + 3) * LDB + r] = v.w;
#else
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
    vstore4(v, 0, Bs + c * LDB + r);
#endif
}

#ifdef ASYNC_STAGES
// "All but the newest ASYNC_STAGES - 2 commit groups have landed" (wait_group takes a literal).
#if ASYNC_STAGES == 2
#define PIPE_WAIT_OLDEST() CP_ASYNC_WAIT(0)
#elif ASYNC_STAGES == 3
#define PIPE_WAIT_OLDEST() CP_ASYNC_WAIT(1)
#elif ASYNC_STAGES == 4
#define PIPE_WAIT_OLDEST() CP_ASYNC_WAIT(2)
#else
#error ASYNC_STAGES must be 2, 3 or 4
#endif

// Four stored-contiguous floats of row `row` (columns c .. c + 3, `limit` columns) copied to
// four local floats `step` apart: one 16-byte copy where they land together and the row allows
// it, else float by float (a k-major tile of an operand stored along k: the transpose happens in
// the copy). Past the edges the copies write zeros and read nothing.
inline void pipeAsync4(__local float* d, int step, __global const float* base,
                       __global const float* row, int c, int limit, int rowInside, int vec) {
#ifdef FULL_TILES
    if (step == 1) {
        cp_async16(d, row + c, 16);
        return;
    }
    cp_async4(d, row + c, 1);
    cp_async4(d + step, row + c + 1, 1);
    cp_async4(d + 2 * step, row + c + 2, 1);
    cp_async4(d + 3 * step, row + c + 3, 1);
#else
    if (step == 1 && vec && (!rowInside || c + 3 < limit)) {
        cp_async16(d, rowInside ? row + c : base, rowInside ? 16 : 0);
        return;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int in = rowInside && c + q < limit;
        cp_async4(d + q * step, in ? row + c + q : base, in);
    }
#endif
}

// Group g of op(A)'s BM x BK tile at (i0, k0) into the k-major As (same groups as pipeLoadA).
inline void pipeAsyncA(__local float* As, __global const float* A, int M, int K, int i0, int k0,
                       int g) {
#ifdef TRANS_A  // stored K x M: a group is four consecutive m of one k-row
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
    const int in = k0 + c < K;
    pipeAsync4(As + c * LDA + r, 1, A, A + (size_t)(in ? k0 + c : 0) * M, i0 + r, M, in, PIPE_VA);
#else  // stored M x K: four consecutive k of one row, one per k-row of As
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    const int in = i0 + r < M;
    pipeAsync4(As + c * LDA + r, LDA, A, A + (size_t)(in ? i0 + r : 0) * K, k0 + c, K, in, PIPE_VA);
#endif
}

inline void pipeAsyncB(__local float* Bs, __global const float* B, int N, int K, int k0, int j0,
                       int g) {
#ifdef TRANS_B  // stored N x K
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    const int in = j0 + r < N;
    pipeAsync4(Bs + c * LDB + r, LDB, B, B + (size_t)(in ? j0 + r : 0) * K, k0 + c, K, in, PIPE_VB);
#else  // stored K x N
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
    const int in = k0 + c < K;
    pipeAsync4(Bs + c * LDB + r, 1, B, B + (size_t)(in ? k0 + c : 0) * N, j0 + r, N, in, PIPE_VB);
#endif
}
#endif

// No required work-group size: under one (PTX .reqntid) ptxas ignores -cl-nv-maxrregcount, and the
// host caps registers on NVIDIA so that two 256-item groups share an SM.
__kernel void gemm_pipelined(int M, int N, int K, float alpha, __global const float* A,
                             __global const float* B, float beta, __global float* C) {
#ifdef ASYNC_STAGES
#define PIPE_BUFFERS ASYNC_STAGES
#else
#define PIPE_BUFFERS 2
#endif
    // 16-byte aligned, as in gemm.cl's gemm_regblock (why: docs/linalg.md, "The local tiles'
    // alignment").
    __local float As[PIPE_BUFFERS][BK * LDA] __attribute__((aligned(16)));
    __local float Bs[PIPE_BUFFERS][BK * LDB] __attribute__((aligned(16)));
    const int tid = get_local_id(0);
    // Warp w covers work-items tx in [8 (w % (TX/8)), +8), ty in [4 (w / (TX/8)), +4).
    const int lane = tid & 31, warp = tid >> 5;
    const int tx = (warp % (TX / 8)) * 8 + (lane & 7);
    const int ty = (warp / (TX / 8)) * 4 + (lane >> 3);
#ifdef GROUP_BAND
    // Launch order (group 0 fastest) walked down bands of GROUP_BAND block rows, column by column:
    // the groups in flight cover a few block columns of a band instead of one whole block row.
    const int gx = get_num_groups(0), gy = get_num_groups(1);
    const int linear = get_group_id(1) * gx + get_group_id(0);
    const int band = linear / (GROUP_BAND * gx), inBand = linear - band * GROUP_BAND * gx;
    const int bandRows = min(GROUP_BAND, gy - band * GROUP_BAND);
    const int i0 = (band * GROUP_BAND + inBand % bandRows) * BM, j0 = (inBand / bandRows) * BN;
#else
    const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;
#endif
    const int tiles = (K + BK - 1) / BK;

    float acc[TM][TN];
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
            acc[m][n] = 0.0f;

    // This k-tile's products from local buffer `buf`.
#define PIPE_PRODUCTS(buf) \
    _Pragma("unroll") for (int kk = 0; kk < BK; ++kk) { \
        float a[TM], b[TN]; \
        _Pragma("unroll") for (int m4 = 0; m4 < TM / 4; ++m4) { \
            const float4 v = vload4(0, &As[buf][kk * LDA + m4 * 4 * TY + ty * 4]); \
            a[m4 * 4 + 0] = v.x, a[m4 * 4 + 1] = v.y, a[m4 * 4 + 2] = v.z, a[m4 * 4 + 3] = v.w; \
        } \
        _Pragma("unroll") for (int n4 = 0; n4 < TN / 4; ++n4) { \
            const float4 v = vload4(0, &Bs[buf][kk * LDB + n4 * 4 * TX + tx * 4]); \
            b[n4 * 4 + 0] = v.x, b[n4 * 4 + 1] = v.y, b[n4 * 4 + 2] = v.z, b[n4 * 4 + 3] = v.w; \
        } \
        /* Column by column, odd columns running m backwards: each column starts with the a */ \
        /* its predecessor ended with, and b stays in the FMA's operand reuse cache. */ \
        _Pragma("unroll") for (int n = 0; n < TN; ++n) \
            _Pragma("unroll") for (int m = 0; m < TM; ++m) { \
                const int mm = (n & 1) ? TM - 1 - m : m; \
                acc[mm][n] = fma(a[mm], b[n], acc[mm][n]); \
            } \
    }

#ifdef ASYNC_STAGES
    // Tile k0 into buffer buf by asynchronous copies, one commit group per tile (an empty one
    // past the last tile, so that the wait below always counts the same groups).
#define PIPE_ASYNC(buf, k0) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (A_GROUPS % NT == 0 || tid + s * NT < A_GROUPS) \
            pipeAsyncA(As[buf], A, M, K, i0, (k0), tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (B_GROUPS % NT == 0 || tid + s * NT < B_GROUPS) \
            pipeAsyncB(Bs[buf], B, N, K, (k0), j0, tid + s * NT); \
    }
#pragma unroll
    for (int st = 0; st < ASYNC_STAGES - 1; ++st) {
        if (st < tiles) PIPE_ASYNC(st, st * BK)
        cp_async_commit();
    }
    for (int t = 0; t < tiles; ++t) {
        PIPE_WAIT_OLDEST();  // this work-item's copies of tile t have landed
        // Everyone's copies of tile t are visible, and everyone has finished tile t - 1, whose
        // buffer takes tile t + ASYNC_STAGES - 1 now.
        barrier(CLK_LOCAL_MEM_FENCE);
        const int next = t + ASYNC_STAGES - 1;
        if (next < tiles) PIPE_ASYNC(next % ASYNC_STAGES, next * BK)
        cp_async_commit();
        const int buf = t % ASYNC_STAGES;
        PIPE_PRODUCTS(buf)
    }
#else
    float4 ra[A_PER_ITEM], rb[B_PER_ITEM];  // the next tile, on its way from global memory
#define PIPE_FETCH(k0) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (A_GROUPS % NT == 0 || tid + s * NT < A_GROUPS) \
            ra[s] = pipeLoadA(A, M, K, i0, (k0), tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (B_GROUPS % NT == 0 || tid + s * NT < B_GROUPS) \
            rb[s] = pipeLoadB(B, N, K, (k0), j0, tid + s * NT); \
    }
#define PIPE_STAGE(buf) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (A_GROUPS % NT == 0 || tid + s * NT < A_GROUPS) pipeStoreA(As[buf], ra[s], tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (B_GROUPS % NT == 0 || tid + s * NT < B_GROUPS) pipeStoreB(Bs[buf], rb[s], tid + s * NT); \
    }
    PIPE_FETCH(0)
    PIPE_STAGE(0)
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < tiles; ++t) {
        const int buf = t & 1;
        const bool more = t + 1 < tiles;
        if (more) PIPE_FETCH((t + 1) * BK)  // in flight during this tile's products
        PIPE_PRODUCTS(buf)
        // Everyone finished reading the other buffer before the last barrier, so it takes the
        // next tile now; the barrier then publishes it.
        if (more) {
            PIPE_STAGE(buf ^ 1)
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
#endif

#pragma unroll
    for (int m = 0; m < TM; ++m) {
        const int i = i0 + (m / 4) * 4 * TY + ty * 4 + (m % 4);
        if (i >= M) continue;
#pragma unroll
        for (int n4 = 0; n4 < TN / 4; ++n4) {
            const int j = j0 + n4 * 4 * TX + tx * 4;
            __global float* c = C + (size_t)i * N + j;
            const float4 v = (float4)(acc[m][n4 * 4], acc[m][n4 * 4 + 1], acc[m][n4 * 4 + 2],
                                      acc[m][n4 * 4 + 3]) *
                             alpha;
            gemmStore4(c, j, N, v, beta);
        }
    }
}
