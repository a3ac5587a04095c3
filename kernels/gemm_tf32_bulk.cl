// TF32 tensor-core GEMM fed by Hopper's bulk copies, C = alpha op(A) op(B) + beta C, on operands
// packed beforehand (compute/linalg/gemm.hpp, gemm-tf32 with BULK=1).
//
// The packing kernel (gemm_tf32_pack.cl) writes each BM x BK tile of op(A) and each BN x BK tile
// of op(B)^T contiguous, rows k-contiguous with swizzled chunks (common/tf32_packed_tile.clh),
// ragged tiles zero-padded. A stage is then two contiguous blocks: one work-item hands them to
// the copy engine (cp.async.bulk), their bytes complete the stage's transaction barrier, and the
// warps wait on that barrier's phase. The work-group barrier at the top of each k-tile says that
// every warp is done with the stage refilled next (a second barrier per stage with one arrival
// per warp, waited on by the issuing work-item, timed slower: docs/linalg.md). No edge checks
// but C's: the padding zeros add nothing. Fragments by ldmatrix.x4 for A and B alike, into
// mma.sync m16n8k8 as they are: the packing kernel stored them rounded to TF32.
// Without NV_INLINE_PTX the work-group copies the packed tiles with plain loads and each lane's
// accumulators are computed with FP32 FMAs (the portable twin: same tiles, same layout, same
// lanes) on the same TF32-rounded operands.

#include "common/mma_fragment.clh"     // mmaAccRow, mmaAccCol
#include "common/nv_bulk_copy.clh"     // mbarrier*, bulkCopyToLocal
#include "common/nv_inline_ptx.clh"    // MMA_TF32_M16N8K8
#include "common/nv_ldmatrix.clh"      // LDMATRIX_X4_AT
#include "common/tf32_packed_tile.clh"  // PACKED_CHUNK

#if STAGES < 2
#error STAGES must be at least 2
#endif

#define NT (WG_SIZE)
#define WARPS_N (BN / WN)
#define MT (WM / 16)  // MMA tiles per warp along m
#define NTL (WN / 8)  // along n (even: B fragments come two n-tiles per ldmatrix)
#define CPR (BK / 4)  // chunks a tile row
#define A_FLOATS (BM * BK)
#define B_FLOATS (BN * BK)
#define STAGE_FLOATS (A_FLOATS + B_FLOATS)
#define A_EL(m, k) (PACKED_CHUNK(m, (k) >> 2, CPR) + ((k) & 3))
#define B_EL(k, n) (PACKED_CHUNK(n, (k) >> 2, CPR) + ((k) & 3))
#include "common/tf32_warp_tile.clh"  // TF32_ZERO_ACC, TF32_KSTEP, TF32_STORE_WARP_TILE, pinned

// Packed tiles aTile (A) and bTile (B) into stage `st`.
inline void fillStage(__local float* smem, __local ulong* full, int st,
                      __global const float* aTile, __global const float* bTile, int tid) {
    __local float* as = smem + st * STAGE_FLOATS;
#ifdef NV_INLINE_PTX
    if (tid == 0) {
        mbarrierArriveExpectBytes(full + st, STAGE_FLOATS * 4);
        bulkCopyToLocal(as, aTile, A_FLOATS * 4, full + st);
        bulkCopyToLocal(as + A_FLOATS, bTile, B_FLOATS * 4, full + st);
    }
#else
    for (int c = tid; c < STAGE_FLOATS / 4; c += NT)
        vstore4(c < A_FLOATS / 4 ? vload4(c, aTile) : vload4(c - A_FLOATS / 4, bTile), c, as);
#endif
}

#ifdef NV_INLINE_PTX
// The warp's fragments of k-step kk of the stage `stage` bytes on (already rounded to TF32 by the
// packing kernel).
inline void loadFragments(uint af[MT][4], uint bf[NTL][2], uint stage, int kk, const uint* aAddr,
                          const uint* bAddr) {
#pragma unroll
    for (int a = 0; a < MT; ++a)
        LDMATRIX_X4_AT(af[a][0], af[a][1], af[a][2], af[a][3],
                       aAddr[kk / 8] + stage + a * 16 * BK * 4);
#pragma unroll
    for (int b = 0; b < NTL; b += 2)
        LDMATRIX_X4_AT(bf[b][0], bf[b][1], bf[b + 1][0], bf[b + 1][1],
                       bAddr[kk / 8] + stage + b * 8 * BK * 4);
}
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void gemm_tf32_bulk(
    int M, int N, int K, float alpha, __global const float* Ap, __global const float* Bp,
    float beta, __global float* C) {
    // 128-byte aligned: the copy engine needs 16, and whole lines keep the swizzle's bank groups.
    __local float smem[STAGES * STAGE_FLOATS] __attribute__((aligned(128)));
    __local ulong full[STAGES];  // a stage's tiles have landed (one phase per fill)
    const int tid = get_local_id(0);
    const int lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;  // groupID, threadID_in_group
    const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN;
    const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;
    const int tiles = (K + BK - 1) / BK;
    // This block row's k-tiles of A and block column's of B, one after the other.
    __global const float* aTiles = Ap + (size_t)get_group_id(1) * tiles * A_FLOATS;
    __global const float* bTiles = Bp + (size_t)get_group_id(0) * tiles * B_FLOATS;

    float acc[MT][NTL][4];
    TF32_ZERO_ACC(acc)

#ifdef NV_INLINE_PTX
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbarrierInit(full + s, 1);  // the issuing work-item's arrival, plus the bytes
        }
        mbarrierInitFence();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (int s = 0; s < STAGES - 1 && s < tiles; ++s)
        fillStage(smem, full, s, aTiles + (size_t)s * A_FLOATS, bTiles + (size_t)s * B_FLOATS,
                  tid);

#ifdef NV_INLINE_PTX
    // The lane's ldmatrix row addresses in stage 0: the swizzle repeats every 8 rows, and
    // fragment rows step by 8 or 16, so every read is one of these plus constants.
    const uint smemAt = sharedAddress(smem);
    uint aAddr[BK / 8], bAddr[BK / 8];
    // A: lanes 0-7 rows 0-7 (k 0-3), 8-15 rows 8-15 (k 0-3), 16-23 rows 0-7 (k 4-7), 24-31 rows
    // 8-15 (k 4-7): registers a0..a3 in the MMA's order. B, n-tiles b and b + 1: lanes 0-7 n 0-7
    // (k 0-3), 8-15 n 0-7 (k 4-7), 16-23 n 8-15 (k 0-3), 24-31 n 8-15 (k 4-7).
#pragma unroll
    for (int s = 0; s < BK / 8; ++s) {
        aAddr[s] = pinned(smemAt + 4 * PACKED_CHUNK(wm + (lane & 15), 2 * s + (lane >> 4), CPR));
        bAddr[s] = pinned(smemAt + 4 * A_FLOATS +
                          4 * PACKED_CHUNK(wn + (lane & 7) + ((lane >> 4) << 3),
                                           2 * s + ((lane >> 3) & 1), CPR));
    }
#endif
    int readStage = 0, writeStage = STAGES - 1;  // stage indices, advanced without a modulo
    uint readParity = 0;                         // of the phase the read stage's fill completes
    for (int tile = 0; tile < tiles; ++tile) {
        const int next = tile + STAGES - 1;
        // Every warp is done with the stage refilled here (read last round).
        barrier(CLK_LOCAL_MEM_FENCE);
        if (next < tiles)
            fillStage(smem, full, writeStage, aTiles + (size_t)next * A_FLOATS,
                      bTiles + (size_t)next * B_FLOATS, tid);
        writeStage = writeStage == STAGES - 1 ? 0 : writeStage + 1;
#ifdef NV_INLINE_PTX
        mbarrierWait(full + readStage, readParity);
#else
        barrier(CLK_LOCAL_MEM_FENCE);  // the plain copies are in
#endif
        __local const float* as = smem + readStage * STAGE_FLOATS;
        __local const float* bs = as + A_FLOATS;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8)
            TF32_KSTEP(acc, smem, as, bs, kk, aAddr, bAddr, wm, wn, g, t)
        if (readStage == STAGES - 1) readParity ^= 1;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;
    }

    TF32_STORE_WARP_TILE(acc, C, M, N, i0 + wm, j0 + wn, g, t, alpha, beta)
}
