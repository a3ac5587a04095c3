// TF32 tensor-core GEMM with multistage asynchronous staging, C = alpha op(A) op(B) + beta C
// (compute/linalg/gemm.hpp, variant gemm-tf32 where the stored rows of A and B are multiples of 4
// floats; gemm.cl's gemm_tf32 takes the other shapes).
//
// A BM x BN block of C per work-group of (BM/WM) x (BN/WN) warps; each warp owns WM x WN, made of
// m16n8k8 MMA tiles. Each operand tile is copied to local memory in its stored layout as 16-byte
// chunks with cp.async (no register round trip, no store instructions), STAGES tiles in flight:
// while the warps multiply tile t, tiles t+1 ... t+STAGES-1 are on their way. cp.async's source
// size zero-fills the chunks past an edge; FULL_TILES (BM, BN, BK divide M, N, K) drops those
// checks. Rows are padded, or packed with their chunks XOR-swizzled (below), so that the copies
// and the fragment reads spread over the 32 banks; k-contiguous operands (A stored M x K, B stored
// N x K) are read by ldmatrix.x4, the others by 32-bit loads; each fragment is rounded to TF32 (to
// nearest, ties away) on the way into the MMA.
// Without NV_INLINE_PTX the same stages are filled by plain copies and each lane's fragment is
// computed with FP32 FMAs (the portable twin: same tiles, same lanes, same addressing).

#include "common/mma_fragment.clh"  // mmaAccRow, mmaAccCol
#include "common/nv_async_copy.clh"  // cp_async16, cp_async_commit, CP_ASYNC_WAIT
#include "common/nv_inline_ptx.clh"  // MMA_TF32_M16N8K8
#include "common/nv_ldmatrix.clh"   // LDMATRIX_X4_AT

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

// Two layouts of the local tiles, both spreading the 16-byte cp.async writes and the fragment
// reads of a warp over the 32 banks (8 groups of 4 banks, one chunk each). Two read patterns
// (lane = 4 g + t):
// - rows walked by g (A stored M x K, B stored N x K; the ldmatrix forms): 8 consecutive rows read
//   the same logical chunk, so those 8 rows must land on 8 chunk groups;
// - rows walked by t (A stored K x M, B stored K x N): 4 consecutive rows each read two
//   neighbouring chunks (j, j + 1, j even), so the 4 rows' pairs must land on 4 group pairs.
// Padded (the default): rows of 4 mod 8 floats (first pattern) or 8 mod 16 (second) do it.
// PACKED (where two padded stages pass 48 KiB: 256 x 128 x 16, 32-deep k-tiles): rows keep their
// length and each row's chunks are permuted by an XOR with a function of the row (SWZ_R for the
// first pattern, SWZ_K, an even XOR where a row spans 8 groups, for the second). CPR: chunks a
// row; G: chunks permuted within aligned groups of G (a power of two dividing CPR, at most 8, so
// the XOR stays inside the row); RPL: rows per 128-byte line of banks. Shapes that are not powers
// of two keep a correct (if less conflict-free) layout.
#ifdef PACKED
#define SWZ_G(cpr) ((cpr) % 8 == 0 ? 8 : (cpr) % 4 == 0 ? 4 : (cpr) % 2 == 0 ? 2 : 1)
#define SWZ_RPL(cpr) ((cpr) < 8 && 8 % (cpr) == 0 ? 8 / (cpr) : 1)
#define SWZ_R(r, cpr) (((r) / SWZ_RPL(cpr)) & (SWZ_G(cpr) - 1))
#define SWZ_K(r, cpr) (((((r) & 3) * 2) / SWZ_RPL(cpr)) & (SWZ_G(cpr) - 1))
#define ROW_STRIDE(cols, kRows) (cols)
#else
#define SWZ_R(r, cpr) 0
#define SWZ_K(r, cpr) 0
#define PAD4(x) ((x) % 8 == 0 ? (x) + 4 : (x))
#define PAD8(x) ((x) % 16 == 0 ? (x) + 8 : (x))
#define ROW_STRIDE(cols, kRows) ((kRows) ? PAD8(cols) : PAD4(cols))
#endif
// Offset of logical chunk q of row r in a tile of `cols` floats a row; `kRows`: rows walk k.
#define SWZ_CHUNK(r, q, cols, kRows) \
    ((r) * ROW_STRIDE(cols, kRows) +  \
     (((q) ^ ((kRows) ? SWZ_K(r, (cols) / 4) : SWZ_R(r, (cols) / 4))) << 2))
#define SWZ_EL(r, c, cols, kRows) (SWZ_CHUNK(r, (c) >> 2, cols, kRows) + ((c) & 3))

#ifdef TRANS_A  // stored K x M: the tile is BK rows of BM
#define A_ROWS BK
#define A_COLS BM
#define A_KROWS 1
#define A_EL(m, k) SWZ_EL(k, m, BM, 1)
#else  // stored M x K: BM rows of BK
#define A_ROWS BM
#define A_COLS BK
#define A_KROWS 0
#define A_EL(m, k) SWZ_EL(m, k, BK, 0)
#endif
#ifdef TRANS_B  // stored N x K: BN rows of BK
#define B_ROWS BN
#define B_COLS BK
#define B_KROWS 0
#define B_EL(k, n) SWZ_EL(n, k, BK, 0)
#else  // stored K x N: BK rows of BN
#define B_ROWS BK
#define B_COLS BN
#define B_KROWS 1
#define B_EL(k, n) SWZ_EL(k, n, BN, 1)
#endif
#define SA ROW_STRIDE(A_COLS, A_KROWS)  // floats from one stored row to the next
#define SB ROW_STRIDE(B_COLS, B_KROWS)
#define A_FLOATS (A_ROWS * SA)
#define B_FLOATS (B_ROWS * SB)
#define STAGE_FLOATS (A_FLOATS + B_FLOATS)
#include "common/tf32_warp_tile.clh"  // TF32_ZERO_ACC, TF32_KSTEP, TF32_STORE_WARP_TILE, pinned
#define A_CHUNKS (A_ROWS * A_COLS / 4)
#define B_CHUNKS (B_ROWS * B_COLS / 4)
// B fragments by ldmatrix where B is stored k-contiguous (N x K) and the warp's n-tiles pair up.
#if defined(NV_INLINE_PTX) && defined(TRANS_B) && NTL % 2 == 0
#define B_LDMATRIX
#endif

// Chunk c of a stored tile (rows x cols floats, cols/4 chunks a row) at (row0, col0) of a matrix
// with `rowLimit` rows of `ld` floats (ld a multiple of 4), into its place in `dst`.
// Past the last row or column the chunk is zero-filled (and reads nothing past the matrix).
inline void stageChunk(__local float* dst, __global const float* src, int ld, int rowLimit,
                       int row0, int col0, int cols, int kRows, int c) {
    const int r = c / (cols / 4), q = c % (cols / 4);
    __local float* d = dst + SWZ_CHUNK(r, q, cols, kRows);
#ifdef FULL_TILES
    cp_async16(d, src + (size_t)(row0 + r) * ld + col0 + q * 4, 16);
#else
    // ld is a multiple of 4, so a chunk is wholly inside the row or wholly past its end.
    const bool inside = row0 + r < rowLimit && col0 + q * 4 < ld;
    cp_async16(d, inside ? src + (size_t)(row0 + r) * ld + col0 + q * 4 : src, inside ? 16 : 0);
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
            stageChunk(as, A, M, K, k0, i0, A_COLS, A_KROWS, c);
#else
            stageChunk(as, A, K, M, i0, k0, A_COLS, A_KROWS, c);
#endif
    }
#pragma unroll
    for (int s = 0; s < (B_CHUNKS + NT - 1) / NT; ++s) {
        const int c = tid + s * NT;
        if (B_CHUNKS % NT == 0 || c < B_CHUNKS)
#ifdef TRANS_B
            stageChunk(bs, B, K, N, j0, k0, B_COLS, B_KROWS, c);
#else
            stageChunk(bs, B, N, K, k0, j0, B_COLS, B_KROWS, c);
#endif
    }
    cp_async_commit();
}

#ifdef NV_INLINE_PTX
// The lane's fragment addresses within stage 0 (set up once per work-item, see the kernel), as
// 32-bit shared-window addresses: every read is one of them plus the stage's offset plus a
// constant. Where a warp's rows walked by t (A stored K x M, B stored K x N) span whole groups of
// 8 chunks, the XOR repeats every 4 fragment tiles (32 floats on), so 4 addresses serve them all.
#ifndef TRANS_A
#define A_OFFSETS (BK / 8)  // ldmatrix row of each k-step
#elif WM % 32 == 0 && BM % 32 == 0
#define A_PERIOD 4  // element (m = wm + 8 i + g, k = t) for i < 4; i + 4 p is 32 p floats on
#define A_OFFSETS 4
#else
#define A_PERIOD (2 * MT)  // element (m = wm + 8 i + g, k = t), i < 2 MT
#define A_OFFSETS (2 * MT)
#endif
#if defined(B_LDMATRIX)
#define B_OFFSETS (BK / 8)  // ldmatrix row of each k-step
#elif defined(TRANS_B)
#define B_OFFSETS (BK / 4)  // element (n = wn + g, k = 4 j + t)
#elif WN % 32 == 0 && BN % 32 == 0
#define B_PERIOD 4  // element (k = t, n = wn + 8 b + g) for b < 4; b + 4 p is 32 p floats on
#define B_OFFSETS 4
#else
#define B_PERIOD NTL
#define B_OFFSETS NTL
#endif

// Rounds a float's bits to the TF32 operand, to nearest (ties away, as cvt.rna): half a TF32 unit
// added to the magnitude bits; the tensor cores ignore the 13 bits below a TF32 mantissa, so the
// sum needs no mask (CUTLASS's round_half_ulp_truncate). One integer add where cvt.rna costs a
// compare and a predicated add; only an infinite input differs (it turns into a NaN, as inf * 0
// would anyway).
#define TF32_HALF_UNIT 0x1000u

// The 32-bit word at a shared-window address, rounded to TF32.
inline uint ldsTf32(uint addr) {
    uint r;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r) : "r"(addr));
    return r + TF32_HALF_UNIT;
}

// The warp's fragments of k-step kk of the stage `stage` bytes on, rounded to TF32.
inline void loadFragments(uint af[MT][4], uint bf[NTL][2], uint stage, int kk, const uint* aAddr,
                          const uint* bAddr) {
#pragma unroll
    for (int a = 0; a < MT; ++a) {
#ifndef TRANS_A
        LDMATRIX_X4_AT(af[a][0], af[a][1], af[a][2], af[a][3],
                       aAddr[kk / 8] + stage + a * 16 * SA * 4);
#pragma unroll
        for (int q = 0; q < 4; ++q)
            af[a][q] += TF32_HALF_UNIT;
#else
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int i = 2 * a + h;
            const uint at = aAddr[i % A_PERIOD] + stage + (i / A_PERIOD) * 32 * 4;
            af[a][h] = ldsTf32(at + kk * SA * 4);
            af[a][h + 2] = ldsTf32(at + (kk + 4) * SA * 4);
        }
#endif
    }
#ifdef B_LDMATRIX
#pragma unroll
    for (int b = 0; b < NTL; b += 2) {
        LDMATRIX_X4_AT(bf[b][0], bf[b][1], bf[b + 1][0], bf[b + 1][1],
                       bAddr[kk / 8] + stage + b * 8 * SB * 4);
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            bf[b][q] += TF32_HALF_UNIT;
            bf[b + 1][q] += TF32_HALF_UNIT;
        }
    }
#elif defined(TRANS_B)
#pragma unroll
    for (int b = 0; b < NTL; ++b) {
        bf[b][0] = ldsTf32(bAddr[kk / 4] + stage + b * 8 * SB * 4);
        bf[b][1] = ldsTf32(bAddr[kk / 4 + 1] + stage + b * 8 * SB * 4);
    }
#else
#pragma unroll
    for (int b = 0; b < NTL; ++b) {
        const uint at = bAddr[b % B_PERIOD] + stage + (b / B_PERIOD) * 32 * 4;
        bf[b][0] = ldsTf32(at + kk * SB * 4);
        bf[b][1] = ldsTf32(at + (kk + 4) * SB * 4);
    }
#endif
}
#endif

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
    TF32_ZERO_ACC(acc)

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
#ifdef NV_INLINE_PTX
    // The lane's fragment addresses in stage 0. The swizzle XOR depends on a row only modulo 8
    // (rows walked by g) or 4 (rows walked by t), and fragment rows step by multiples of those, so
    // every read in the loop is one of these plus constants (immediate offsets).
    const uint smemAt = (uint)(size_t)smem;
    uint aAddr[A_OFFSETS], bAddr[B_OFFSETS];
#ifndef TRANS_A
    // ldmatrix rows for an A fragment: lanes 0-7 rows 0-7 (k 0-3), 8-15 rows 8-15 (k 0-3), 16-23
    // rows 0-7 (k 4-7), 24-31 rows 8-15 (k 4-7): registers a0..a3 in the MMA's order.
#pragma unroll
    for (int s = 0; s < BK / 8; ++s)
        aAddr[s] = pinned(smemAt + 4 * SWZ_CHUNK(wm + (lane & 15), 2 * s + (lane >> 4), BK, 0));
#else
#pragma unroll
    for (int i = 0; i < A_OFFSETS; ++i)
        aAddr[i] = pinned(smemAt + 4 * SWZ_EL(t, wm + 8 * i + g, BM, 1));
#endif
    const uint bAt = smemAt + 4 * A_FLOATS;
#ifdef B_LDMATRIX
    // ldmatrix rows for the B fragments of n-tiles b and b + 1: lanes 0-7 rows n 0-7 (k 0-3),
    // 8-15 n 0-7 (k 4-7), 16-23 n 8-15 (k 0-3), 24-31 n 8-15 (k 4-7): b0, b1 of tile b, then b + 1.
#pragma unroll
    for (int s = 0; s < BK / 8; ++s)
        bAddr[s] = pinned(bAt + 4 * SWZ_CHUNK(wn + (lane & 7) + ((lane >> 4) << 3),
                                              2 * s + ((lane >> 3) & 1), BK, 0));
#elif defined(TRANS_B)
#pragma unroll
    for (int j = 0; j < BK / 4; ++j)
        bAddr[j] = pinned(bAt + 4 * SWZ_EL(wn + g, 4 * j + t, BK, 0));
#else
#pragma unroll
    for (int b = 0; b < B_OFFSETS; ++b)
        bAddr[b] = pinned(bAt + 4 * SWZ_EL(t, wn + 8 * b + g, BN, 1));
#endif
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

        __local const float* as = smem + readStage * STAGE_FLOATS;
        __local const float* bs = as + A_FLOATS;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8)
            TF32_KSTEP(acc, smem, as, bs, kk, aAddr, bAddr, wm, wn, g, t)
    }
    CP_ASYNC_WAIT(0);  // only empty groups can be left; none may outlive the work-group

    TF32_STORE_WARP_TILE(acc, C, M, N, i0 + wm, j0 + wn, g, t, alpha, beta)
}
