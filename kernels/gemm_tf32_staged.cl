// TF32 tensor-core GEMM with multistage asynchronous staging, C = alpha op(A) op(B) + beta C
// (compute/linalg/gemm.hpp, variant gemm-tf32 where the stored rows of A and B are multiples of 4
// floats; gemm.cl's gemm_tf32 takes the other shapes).
//
// A BM x BN block of C per work-group of (BM/WM) x (BN/WN) warps; each warp owns WM x WN, made of
// m16n8k8 MMA tiles. Each operand tile is copied to local memory in its stored layout as 16-byte
// chunks with cp.async (no register round trip, no store instructions), STAGES tiles in flight:
// while the warps multiply tile t, tiles t+1 ... t+STAGES-1 are on their way. cp.async's source
// size zero-fills the chunks past an edge; FULL_TILES (BM, BN, BK divide M, N, K) drops those
// checks. Fragments are read with 32-bit local loads whose row strides put the 32 lanes of a warp
// on 32 banks, and rounded to TF32 (to nearest, ties away) on the way into the MMA.
// Without NV_INLINE_PTX the same stages are filled by plain copies and each lane's fragment is
// computed with FP32 FMAs (the portable twin: same tiles, same lanes, same addressing).

#include "common/mma_fragment.clh"  // mmaAccRow, mmaAccCol
#include "common/nv_async_copy.clh"  // cp_async16, cp_async_commit, CP_ASYNC_WAIT
#include "common/nv_inline_ptx.clh"  // MMA_TF32_M16N8K8
#include "common/nv_ldmatrix.clh"   // LDMATRIX_X4

// "All but the newest STAGES - 2 commit groups have landed" (wait_group takes a literal).
#if STAGES == 2
#define WAIT_FOR_OLDEST_TILE() CP_ASYNC_WAIT(0)
#elif STAGES == 3
#define WAIT_FOR_OLDEST_TILE() CP_ASYNC_WAIT(1)
#elif STAGES == 4
#define WAIT_FOR_OLDEST_TILE() CP_ASYNC_WAIT(2)
#else
#error STAGES must be 2, 3 or 4
#endif

#define NT (WG_SIZE)
#define WARPS_N (BN / WN)
#define MT (WM / 16)  // MMA tiles per warp along m
#define NTL (WN / 8)  // along n

// Row strides (floats) of the stored tiles. A fragment read of a warp touches (row g, column t)
// for g < 8, t < 4: when g walks rows, a stride of 4 mod 8 puts them on 32 banks (PAD4); when t
// walks rows, a stride of 8 mod 16 (PAD8). Both keep rows 16-byte aligned for cp.async.
#define PAD4(x) ((x) % 8 == 0 ? (x) + 4 : (x))
#define PAD8(x) ((x) % 16 == 0 ? (x) + 8 : (x))

#ifdef TRANS_A  // stored K x M: the tile is BK rows of BM
#define A_ROWS BK
#define A_COLS BM
#define SA PAD8(BM)
#define A_EL(m, k) ((k) * SA + (m))
#else  // stored M x K: BM rows of BK
#define A_ROWS BM
#define A_COLS BK
#define SA PAD4(BK)
#define A_EL(m, k) ((m) * SA + (k))
#endif
#ifdef TRANS_B  // stored N x K: BN rows of BK
#define B_ROWS BN
#define B_COLS BK
#define SB PAD4(BK)
#define B_EL(k, n) ((n) * SB + (k))
#else  // stored K x N: BK rows of BN
#define B_ROWS BK
#define B_COLS BN
#define SB PAD8(BN)
#define B_EL(k, n) ((k) * SB + (n))
#endif
#define A_FLOATS (A_ROWS * SA)
#define B_FLOATS (B_ROWS * SB)
#define STAGE_FLOATS (A_FLOATS + B_FLOATS)
#define A_CHUNKS (A_ROWS * A_COLS / 4)
#define B_CHUNKS (B_ROWS * B_COLS / 4)

// Chunk c of a stored tile (rows x cols floats, cols/4 chunks a row) at (row0, col0) of a matrix
// with `rowLimit` rows of `ld` floats (ld a multiple of 4), into local memory of row stride `s`.
// Past the last row or column the chunk is zero-filled (and reads nothing past the matrix).
inline void stageChunk(__local float* dst, int s, __global const float* src, int ld, int rowLimit,
                       int row0, int col0, int cols, int c) {
    const int r = c / (cols / 4), q = (c % (cols / 4)) * 4;
    __local float* d = dst + r * s + q;
#ifdef FULL_TILES
    cp_async16(d, src + (size_t)(row0 + r) * ld + col0 + q, 16);
#else
    // ld is a multiple of 4, so a chunk is wholly inside the row or wholly past its end.
    const bool inside = row0 + r < rowLimit && col0 + q < ld;
    cp_async16(d, inside ? src + (size_t)(row0 + r) * ld + col0 + q : src, inside ? 16 : 0);
#endif
}

// Tile `k0` of A and of B into stage `st`, one commit group.
inline void stageTile(__local float* smem, int st, __global const float* A,
                      __global const float* B, int M, int N, int K, int i0, int j0, int k0,
                      int tid) {
    __local float* as = smem + st * STAGE_FLOATS;
    __local float* bs = as + A_FLOATS;
#pragma unroll
    for (int s = 0; s < (A_CHUNKS + NT - 1) / NT; ++s) {
        const int c = tid + s * NT;
        if (A_CHUNKS % NT == 0 || c < A_CHUNKS)
#ifdef TRANS_A
            stageChunk(as, SA, A, M, K, k0, i0, A_COLS, c);
#else
            stageChunk(as, SA, A, K, M, i0, k0, A_COLS, c);
#endif
    }
#pragma unroll
    for (int s = 0; s < (B_CHUNKS + NT - 1) / NT; ++s) {
        const int c = tid + s * NT;
        if (B_CHUNKS % NT == 0 || c < B_CHUNKS)
#ifdef TRANS_B
            stageChunk(bs, SB, B, K, N, j0, k0, B_COLS, c);
#else
            stageChunk(bs, SB, B, N, K, k0, j0, B_COLS, c);
#endif
    }
    cp_async_commit();
}

// The TF32 operand of x, rounded to nearest (ties away, as cvt.rna): half a TF32 unit added to the
// magnitude bits; the tensor cores ignore the 13 bits below a TF32 mantissa, so the sum needs no
// mask (CUTLASS's round_half_ulp_truncate). One integer add where cvt.rna costs a compare and a
// predicated add; only an infinite input differs (it turns into a NaN, as inf * 0 would anyway).
inline uint tf32Bits(float x) {
#ifdef NV_INLINE_PTX
    return as_uint(x) + 0x1000u;
#else
    return as_uint(x);
#endif
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void gemm_tf32_staged(
    int M, int N, int K, float alpha, __global const float* A, __global const float* B, float beta,
    __global float* C) {
    __local float smem[STAGES * STAGE_FLOATS] __attribute__((aligned(16)));
    const int tid = get_local_id(0);
    const int lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;  // groupID, threadID_in_group
    const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
    const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;
    const int tiles = (K + BK - 1) / BK;

    float acc[MT][NTL][4];
#pragma unroll
    for (int a = 0; a < MT; ++a)
#pragma unroll
        for (int b = 0; b < NTL; ++b)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[a][b][q] = 0.0f;

    // STAGES - 1 tiles in flight before the first product; every round then commits one group
    // (empty past the last tile), so "all but the newest STAGES - 2 groups done" always means
    // "this round's tile has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            stageTile(smem, s, A, B, M, N, K, i0, j0, s * BK, tid);
        else
            cp_async_commit();
    }
    // The lane's first fragment element in a stage; every other one is a constant away (A_EL and
    // B_EL are linear), so the fragment loads take immediate offsets from one address each.
    const int aLane = A_EL(wm + g, t), bLane = A_FLOATS + B_EL(t, wn + g);
#if defined(NV_INLINE_PTX) && !defined(TRANS_A)
    // ldmatrix rows for an A fragment: lanes 0-7 rows 0-7 (k 0-3), 8-15 rows 8-15 (k 0-3), 16-23
    // rows 0-7 (k 4-7), 24-31 rows 8-15 (k 4-7): registers a0..a3 in the MMA's order.
    const int aRowLane = A_EL(wm + (lane & 15), (lane >> 4) * 4);
#endif
    int readStage = 0, writeStage = STAGES - 1;  // stage indices, advanced without a modulo
    for (int tile = 0; tile < tiles; ++tile) {
        WAIT_FOR_OLDEST_TILE();
        // Also: every warp is done with the stage the next copy overwrites (used last round).
        barrier(CLK_LOCAL_MEM_FENCE);
        const int next = tile + STAGES - 1;
        if (next < tiles)
            stageTile(smem, writeStage, A, B, M, N, K, i0, j0, next * BK, tid);
        else
            cp_async_commit();
        writeStage = writeStage == STAGES - 1 ? 0 : writeStage + 1;

        __local const float* as = smem + readStage * STAGE_FLOATS + aLane;
        __local const float* bs = smem + readStage * STAGE_FLOATS + bLane;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
#ifdef NV_INLINE_PTX
            uint af[MT][4], bf[NTL][2];
#pragma unroll
            for (int a = 0; a < MT; ++a) {
#ifndef TRANS_A
                LDMATRIX_X4(af[a][0], af[a][1], af[a][2], af[a][3],
                            as - aLane + aRowLane + A_EL(a * 16, kk));
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    af[a][q] = tf32Bits(as_float(af[a][q]));
#else
                af[a][0] = tf32Bits(as[A_EL(a * 16, kk)]);
                af[a][1] = tf32Bits(as[A_EL(a * 16 + 8, kk)]);
                af[a][2] = tf32Bits(as[A_EL(a * 16, kk + 4)]);
                af[a][3] = tf32Bits(as[A_EL(a * 16 + 8, kk + 4)]);
#endif
            }
#pragma unroll
            for (int b = 0; b < NTL; ++b) {
                bf[b][0] = tf32Bits(bs[B_EL(kk, b * 8)]);
                bf[b][1] = tf32Bits(bs[B_EL(kk + 4, b * 8)]);
            }
#pragma unroll
            for (int a = 0; a < MT; ++a)
#pragma unroll
                for (int b = 0; b < NTL; ++b)
                    MMA_TF32_M16N8K8(acc[a][b][0], acc[a][b][1], acc[a][b][2], acc[a][b][3],
                                     af[a][0], af[a][1], af[a][2], af[a][3], bf[b][0], bf[b][1]);
#else
            // The lane's four accumulators: rows g and g + 8, columns 2t and 2t + 1.
            __local const float* as0 = as - aLane;
            __local const float* bs0 = bs - bLane + A_FLOATS;
            for (int a = 0; a < MT; ++a)
                for (int b = 0; b < NTL; ++b)
                    for (int q = 0; q < 4; ++q) {
                        const int r = mmaAccRow(wm + a * 16, g, q);
                        const int c = mmaAccCol(wn + b * 8, t, q);
                        float s = acc[a][b][q];
                        for (int e = 0; e < 8; ++e)
                            s = fma(as0[A_EL(r, kk + e)], bs0[B_EL(kk + e, c)], s);
                        acc[a][b][q] = s;
                    }
#endif
        }
    }
    CP_ASYNC_WAIT(0);  // only empty groups can be left; none may outlive the work-group

    // c[0], c[1] (and c[2], c[3]) are neighbours in a row: one 8-byte access where it is whole.
#pragma unroll
    for (int a = 0; a < MT; ++a)
#pragma unroll
        for (int b = 0; b < NTL; ++b)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int i = mmaAccRow(i0 + wm + a * 16, g, 2 * h);
                const int j = mmaAccCol(j0 + wn + b * 8, t, 0);
                __global float* c = C + (size_t)i * N + j;
                float2 v = (float2)(acc[a][b][2 * h], acc[a][b][2 * h + 1]) * alpha;
#ifdef FULL_TILES  // N is a multiple of BN, so of 4: j is even and the pair is aligned
                if (beta != 0.0f) v += beta * vload2(0, c);
                vstore2(v, 0, c);
#else
                if (i >= M) continue;
                if (j < N) c[0] = beta == 0.0f ? v.x : fma(beta, c[0], v.x);
                if (j + 1 < N) c[1] = beta == 0.0f ? v.y : fma(beta, c[1], v.y);
#endif
            }
}
