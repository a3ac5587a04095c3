// Single-precision GEMM, C = alpha * op(A) * op(B) + beta * C, row-major, packed, any M, N, K
// (compute/linalg/gemm.hpp). Built with -DTRANS_A / -DTRANS_B for the transposed operands and,
// per variant, its tile sizes. Read in order: gemm_naive, gemm_tile, gemm_regblock
// (also double-buffered with -DDOUBLE_BUFFER), gemm_tf32.
// beta == 0 never reads C, as in BLAS (C may hold garbage then).

#include "common/nv_inline_ptx.clh"  // NV_INLINE_PTX: tf32_round, MMA_TF32_M16N8K8
#include "common/mma_fragment.clh"  // mmaAccRow, mmaAccCol
#include "common/gemm_store.clh"     // gemmStore4: C written four columns at a time

#ifdef TRANS_A
#define A_AT(i, k) A[(size_t)(k) * M + (i)]
#else
#define A_AT(i, k) A[(size_t)(i) * K + (k)]
#endif
#ifdef TRANS_B
#define B_AT(k, j) B[(size_t)(j) * K + (k)]
#else
#define B_AT(k, j) B[(size_t)(k) * N + (j)]
#endif

inline void storeC(__global float* C, int N, int i, int j, float acc, float alpha, float beta) {
    const size_t idx = (size_t)i * N + j;
    C[idx] = beta == 0.0f ? alpha * acc : fma(alpha, acc, beta * C[idx]);
}

// One work-item per element of C: every operand comes from global memory (K loads of A and B per
// product), so the caches do all the work.
__kernel void gemm_naive(int M, int N, int K, float alpha, __global const float* A,
                         __global const float* B, float beta, __global float* C) {
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= M || j >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc = fma(A_AT(i, k), B_AT(k, j), acc);
    storeC(C, N, i, j, acc, alpha, beta);
}

#ifdef TS
// The course's tile: a TS x TS work-group stages a TS x TS block of A and of B in local memory,
// so each global value is loaded once per tile instead of once per product. Edges pad with 0.
__kernel __attribute__((reqd_work_group_size(TS, TS, 1))) void gemm_tile(
    int M, int N, int K, float alpha, __global const float* A, __global const float* B, float beta,
    __global float* C) {
    __local float As[TS][TS];
    __local float Bs[TS][TS + 1];  // +1: the column reads of the inner loop
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int j = get_group_id(0) * TS + tx, i = get_group_id(1) * TS + ty;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = (i < M && t + tx < K) ? A_AT(i, t + tx) : 0.0f;
        Bs[ty][tx] = (t + ty < K && j < N) ? B_AT(t + ty, j) : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < TS; ++kk)
            acc = fma(As[ty][kk], Bs[kk][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < M && j < N) storeC(C, N, i, j, acc, alpha, beta);
}
#endif

// ---- tile loaders shared by the blocked kernels --------------------------------------------------
// A tile of op(A) is BM x BK, of op(B) BK x BN. Each is moved as float4 groups along the stored
// matrix's contiguous dimension; VEC_A / VEC_B (set when that dimension is a multiple of 4) make a
// group one aligned 16-byte load, and edges load element by element with zeros outside.
#if defined(BM) && defined(BN) && defined(BK)

#define NT (WG_SIZE)
#define A_GROUPS (BM * BK / 4)
#define B_GROUPS (BK * BN / 4)
#define A_PER_ITEM ((A_GROUPS + NT - 1) / NT)
#define B_PER_ITEM ((B_GROUPS + NT - 1) / NT)

inline float4 load4(__global const float* row, int c, int limit, int vec) {
    if (vec && c + 3 < limit) return *(__global const float4*)(row + c);
    float4 v;
    v.x = c < limit ? row[c] : 0.0f;
    v.y = c + 1 < limit ? row[c + 1] : 0.0f;
    v.z = c + 2 < limit ? row[c + 2] : 0.0f;
    v.w = c + 3 < limit ? row[c + 3] : 0.0f;
    return v;
}

#ifdef VEC_A
#define VA 1
#else
#define VA 0
#endif
#ifdef VEC_B
#define VB 1
#else
#define VB 0
#endif

// Group g of the A tile at (i0, k0). FULL_TILES (set by the host for gemm_regblock when BM, BN
// and BK divide M, N and K, so rows are float4-aligned too) drops every edge check: one 16-byte
// load per group.
inline float4 loadA(__global const float* A, int M, int K, int i0, int k0, int g) {
#ifdef FULL_TILES
#ifdef TRANS_A
    return *(__global const float4*)(A + (size_t)(k0 + g / (BM / 4)) * M + i0 + (g % (BM / 4)) * 4);
#else
    return *(__global const float4*)(A + (size_t)(i0 + g / (BK / 4)) * K + k0 + (g % (BK / 4)) * 4);
#endif
#endif
#ifdef TRANS_A  // stored K x M: groups run along m
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
    if (k0 + c >= K) return (float4)(0.0f);
    return load4(A + (size_t)(k0 + c) * M, i0 + r, M, VA);
#else  // stored M x K: groups run along k
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    if (i0 + r >= M) return (float4)(0.0f);
    return load4(A + (size_t)(i0 + r) * K, k0 + c, K, VA);
#endif
}

inline float4 loadB(__global const float* B, int N, int K, int k0, int j0, int g) {
#ifdef FULL_TILES
#ifdef TRANS_B
    return *(__global const float4*)(B + (size_t)(j0 + g / (BK / 4)) * K + k0 + (g % (BK / 4)) * 4);
#else
    return *(__global const float4*)(B + (size_t)(k0 + g / (BN / 4)) * N + j0 + (g % (BN / 4)) * 4);
#endif
#endif
#ifdef TRANS_B  // stored N x K: groups run along k
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    if (j0 + r >= N) return (float4)(0.0f);
    return load4(B + (size_t)(j0 + r) * K, k0 + c, K, VB);
#else  // stored K x N: groups run along n
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
    if (k0 + c >= K) return (float4)(0.0f);
    return load4(B + (size_t)(k0 + c) * N, j0 + r, N, VB);
#endif
}

#endif  // BM && BN && BK

// ---- register-blocked 2-D tiles (and their double-buffered form) ---------------------------------
// A BM x BN block of C per work-group of (BN/TN) x (BM/TM) work-items, each holding a TM x TN block
// in registers. The local tiles are k-major (As[k][m], Bs[k][n]) so each product step reads float4
// runs; a work-item's rows (columns) come in runs of 4 spread BM/(TM/4) apart, so a quarter-warp
// reads 128 contiguous bytes (no bank conflicts) and stores C in coalesced float4s.
#if defined(TM) && defined(TN)

#define TX (BN / TN)
#define TY (BM / TM)
#define PAD 4
// DOUBLE_BUFFER: the next tile is loaded into registers during this tile's products. Two local
// buffers take one barrier per tile; where two do not fit (ONE_LOCAL, set by the host), the one
// buffer is refilled between two barriers, the global loads still overlapping the products.
#if defined(DOUBLE_BUFFER) && !defined(ONE_LOCAL)
#define BUFFERS 2
#else
#define BUFFERS 1
#endif

inline void storeTileA(__local float* As, float4 v, int g) {
#ifdef TRANS_A
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
    vstore4(v, 0, As + c * (BM + PAD) + r);
#else
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    As[(c + 0) * (BM + PAD) + r] = v.x;
    As[(c + 1) * (BM + PAD) + r] = v.y;
    As[(c + 2) * (BM + PAD) + r] = v.z;
    As[(c + 3) * (BM + PAD) + r] = v.w;
#endif
}

inline void storeTileB(__local float* Bs, float4 v, int g) {
#ifdef TRANS_B
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    Bs[(c + 0) * (BN + PAD) + r] = v.x;
    Bs[(c + 1) * (BN + PAD) + r] = v.y;
    Bs[(c + 2) * (BN + PAD) + r] = v.z;
    Bs[(c + 3) * (BN + PAD) + r] = v.w;
#else
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
    vstore4(v, 0, Bs + c * (BN + PAD) + r);
#endif
}

// ptxas ignores a register cap (-cl-nv-maxrregcount, REGISTER_CAP) on a kernel with a required
// work-group size: PTX .reqntid binds like CUDA's launch bounds. Capped builds go without it.
#ifdef REGISTER_CAP
#define REGBLOCK_GROUP_SIZE
#else
#define REGBLOCK_GROUP_SIZE __attribute__((reqd_work_group_size(TX, TY, 1)))
#endif

__kernel REGBLOCK_GROUP_SIZE void gemm_regblock(
    int M, int N, int K, float alpha, __global const float* A, __global const float* B, float beta,
    __global float* C) {
    // 16-byte aligned: NVIDIA's compiler emits the float4 reads of a 4-byte aligned array as four
    // scalar loads, which ptxas fuses but with operand registers that conflict in the FMAs' register
    // banks (docs/linalg.md, "The local tiles' alignment").
    __local float As[BUFFERS][BK * (BM + PAD)] __attribute__((aligned(16)));
    __local float Bs[BUFFERS][BK * (BN + PAD)] __attribute__((aligned(16)));
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int tid = ty * TX + tx;
    const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;

    float acc[TM][TN];
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
            acc[m][n] = 0.0f;

    float4 ra[A_PER_ITEM], rb[B_PER_ITEM];  // the next tile, staged in registers
    const int tiles = (K + BK - 1) / BK;

// Braced: `if (...) FETCH(...)` must guard the B loads too (past the last tile they would read
// beyond B, which the edge checks hid and FULL_TILES does not).
#define FETCH(k0) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (tid + s * NT < A_GROUPS) ra[s] = loadA(A, M, K, i0, (k0), tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (tid + s * NT < B_GROUPS) rb[s] = loadB(B, N, K, (k0), j0, tid + s * NT); \
    }
#define STAGE(buf) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (tid + s * NT < A_GROUPS) storeTileA(As[buf], ra[s], tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (tid + s * NT < B_GROUPS) storeTileB(Bs[buf], rb[s], tid + s * NT); \
    }

#ifdef DOUBLE_BUFFER
    FETCH(0)
    STAGE(0)
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (int t = 0; t < tiles; ++t) {
#ifdef DOUBLE_BUFFER
        const int buf = BUFFERS == 2 ? t & 1 : 0;
        if (t + 1 < tiles) FETCH((t + 1) * BK)  // global loads in flight during the products
#else
        const int buf = 0;
        FETCH(t * BK)
        STAGE(0)
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        __local const float* as = As[buf];
        __local const float* bs = Bs[buf];
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int m4 = 0; m4 < TM / 4; ++m4) {
                const float4 v = vload4(0, as + kk * (BM + PAD) + m4 * 4 * TY + ty * 4);
                a[m4 * 4 + 0] = v.x, a[m4 * 4 + 1] = v.y, a[m4 * 4 + 2] = v.z, a[m4 * 4 + 3] = v.w;
            }
#pragma unroll
            for (int n4 = 0; n4 < TN / 4; ++n4) {
                const float4 v = vload4(0, bs + kk * (BN + PAD) + n4 * 4 * TX + tx * 4);
                b[n4 * 4 + 0] = v.x, b[n4 * 4 + 1] = v.y, b[n4 * 4 + 2] = v.z, b[n4 * 4 + 3] = v.w;
            }
            // Serpentine order (odd rows run n backwards): each row starts with the b value the
            // last one ended with, which the FMA's operand reuse cache still holds, so only two
            // of its three operands come from the register file there as everywhere else (two
            // in the same bank stall the FMA a cycle; ptxas picks the registers, not the order).
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n) {
                    const int nn = (m & 1) ? TN - 1 - n : n;
                    acc[m][nn] = fma(a[m], b[nn], acc[m][nn]);
                }
        }
#if BUFFERS == 2
        if (t + 1 < tiles) STAGE(buf ^ 1)  // the other buffer: nobody reads it this round
#elif defined(DOUBLE_BUFFER)
        barrier(CLK_LOCAL_MEM_FENCE);  // every work-item is done reading the one buffer
        if (t + 1 < tiles) STAGE(0)
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

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
#endif  // TM && TN

// ---- tensor cores: mma.sync m16n8k8 TF32, FP32 accumulate ---------------------------------------
// BM x BN per work-group of (BM/WM) x (BN/WN) warps, each warp a WM x WN block made of 16 x 8 MMA
// tiles. Local tiles: As[m][k] (row stride BK+4) and Bs[k][n] (stride BN+8): with those strides
// the fragment reads of a warp (lane = 4 * groupID + threadID_in_group, PTX ISA "Matrix Fragments
// for mma.m16n8k8") hit 32 different banks. Double-buffered through registers like gemm_regblock.
// Without NV_INLINE_PTX the same kernel computes each lane's fragment with FP32 FMAs (the
// portable twin: same tiles, same lanes, FP32 instead of TF32 products).
#if defined(WM) && defined(WN)

#define WARPS_N (BN / WN)
#define MT (WM / 16)  // MMA tiles per warp, along m
#define NTL (WN / 8)  // along n
#define AST (BK + 4)
#define BST (BN + 8)

inline float tf32(float x) {
#ifdef NV_INLINE_PTX
    return tf32_round(x);
#else
    return x;
#endif
}

inline void storeTf32A(__local float* As, float4 v, int g) {
    v = (float4)(tf32(v.x), tf32(v.y), tf32(v.z), tf32(v.w));
#ifdef TRANS_A
    const int c = g / (BM / 4), r = (g % (BM / 4)) * 4;
    As[(r + 0) * AST + c] = v.x;
    As[(r + 1) * AST + c] = v.y;
    As[(r + 2) * AST + c] = v.z;
    As[(r + 3) * AST + c] = v.w;
#else
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    vstore4(v, 0, As + r * AST + c);
#endif
}

inline void storeTf32B(__local float* Bs, float4 v, int g) {
    v = (float4)(tf32(v.x), tf32(v.y), tf32(v.z), tf32(v.w));
#ifdef TRANS_B
    const int r = g / (BK / 4), c = (g % (BK / 4)) * 4;
    Bs[(c + 0) * BST + r] = v.x;
    Bs[(c + 1) * BST + r] = v.y;
    Bs[(c + 2) * BST + r] = v.z;
    Bs[(c + 3) * BST + r] = v.w;
#else
    const int c = g / (BN / 4), r = (g % (BN / 4)) * 4;
    vstore4(v, 0, Bs + c * BST + r);
#endif
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void gemm_tf32(
    int M, int N, int K, float alpha, __global const float* A, __global const float* B, float beta,
    __global float* C) {
    __local float As[2][BM * AST] __attribute__((aligned(16)));  // float4 stores: see gemm_regblock
    __local float Bs[2][BK * BST] __attribute__((aligned(16)));
    const int tid = get_local_id(0);
    const int lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;  // groupID, threadID_in_group
    const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
    const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;

    float acc[MT][NTL][4];
#pragma unroll
    for (int a = 0; a < MT; ++a)
#pragma unroll
        for (int b = 0; b < NTL; ++b)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[a][b][q] = 0.0f;

    float4 ra[A_PER_ITEM], rb[B_PER_ITEM];
    const int tiles = (K + BK - 1) / BK;
#define FETCH_TC(k0) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (tid + s * NT < A_GROUPS) ra[s] = loadA(A, M, K, i0, (k0), tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (tid + s * NT < B_GROUPS) rb[s] = loadB(B, N, K, (k0), j0, tid + s * NT); \
    }
#define STAGE_TC(buf) \
    { \
    _Pragma("unroll") for (int s = 0; s < A_PER_ITEM; ++s) \
        if (tid + s * NT < A_GROUPS) storeTf32A(As[buf], ra[s], tid + s * NT); \
    _Pragma("unroll") for (int s = 0; s < B_PER_ITEM; ++s) \
        if (tid + s * NT < B_GROUPS) storeTf32B(Bs[buf], rb[s], tid + s * NT); \
    }

    FETCH_TC(0)
    STAGE_TC(0)
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int tile = 0; tile < tiles; ++tile) {
        const int buf = tile & 1;
        if (tile + 1 < tiles) FETCH_TC((tile + 1) * BK)
        __local const float* as = As[buf];
        __local const float* bs = Bs[buf];
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
#ifdef NV_INLINE_PTX
            uint af[MT][4], bf[NTL][2];
#pragma unroll
            for (int a = 0; a < MT; ++a) {
                const __local float* p = as + (wm + a * 16 + g) * AST + kk + t;
                af[a][0] = as_uint(p[0]);
                af[a][1] = as_uint(p[8 * AST]);
                af[a][2] = as_uint(p[4]);
                af[a][3] = as_uint(p[8 * AST + 4]);
            }
#pragma unroll
            for (int b = 0; b < NTL; ++b) {
                const __local float* p = bs + (kk + t) * BST + wn + b * 8 + g;
                bf[b][0] = as_uint(p[0]);
                bf[b][1] = as_uint(p[4 * BST]);
            }
#pragma unroll
            for (int a = 0; a < MT; ++a)
#pragma unroll
                for (int b = 0; b < NTL; ++b)
                    MMA_TF32_M16N8K8(acc[a][b][0], acc[a][b][1], acc[a][b][2], acc[a][b][3],
                                     af[a][0], af[a][1], af[a][2], af[a][3], bf[b][0], bf[b][1]);
#else
            // The lane's four accumulators: rows g and g + 8, columns 2t and 2t + 1.
            for (int a = 0; a < MT; ++a)
                for (int b = 0; b < NTL; ++b)
                    for (int q = 0; q < 4; ++q) {
                        const int r = mmaAccRow(wm + a * 16, g, q);
                        const int c = mmaAccCol(wn + b * 8, t, q);
                        float s = acc[a][b][q];
                        for (int e = 0; e < 8; ++e)
                            s = fma(as[r * AST + kk + e], bs[(kk + e) * BST + c], s);
                        acc[a][b][q] = s;
                    }
#endif
        }
        if (tile + 1 < tiles) STAGE_TC(buf ^ 1)
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int a = 0; a < MT; ++a)
#pragma unroll
        for (int b = 0; b < NTL; ++b)
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int i = mmaAccRow(i0 + wm + a * 16, g, q);
                const int j = mmaAccCol(j0 + wn + b * 8, t, q);
                if (i < M && j < N) storeC(C, N, i, j, acc[a][b][q], alpha, beta);
            }
}
#endif  // WM && WN
