// The u8 Gram matrix of up to 224 bands on tensor cores, every sample read once
// (compute/linalg/covariance.cpp: cov-tensor where bands <= 224 and rows are 16-byte aligned;
// covariance.cl's cov_gram_u8_mma takes the rest). One work-group per chunk of samples holds all
// NB x 32 rows of the chunk (rows past `bands` are zeros) in STAGES local stages of 64 samples,
// filled with cp.async 16-byte copies; it writes the chunk's partial Gram matrix (u32, exact:
// chunks <= 33,025 samples) and row sums, which covariance.cl's cov_reduce_partials adds; or,
// with ADD_IN_PLACE, adds them with 64-bit atomics straight into the ulong Gram matrix and sums
// (zeroed by the host), so no second pass reads the partials back.
//
// SPLIT work-groups share a chunk (group x index h): each stages every row but multiplies only
// its share of the warp's tiles (h * TPS ... h * TPS + TPS - 1), so each holds fewer accumulators
// and several fit one compute unit; the row sums are group 0's. ROWSUM_DP4A sums the rows with
// dp4a on the integer pipe (each lane its 16 bytes, then across the four lanes of a row) instead
// of the MMAs against ones, leaving the tensor pipe to the Gram tiles.
//
// The Gram matrix is cut into NB x NB blocks of 32 x 32, of which the NB (NB + 1) / 2 with
// I <= J are needed. Warp w multiplies row block w by blocks w, w + 1, ..., w + NB / 2 (mod NB):
// every unordered pair of blocks once (for even NB the pair at distance NB / 2 only from the lower
// warp), and block w's fragments are loaded once per stage for all of its tiles. A tile whose
// partner comes before w is the transpose of an upper block and is stored transposed. The row
// sums come from one more MMA per 16 rows against a B of ones.
//
// KS (64 or 32) is the samples per stage: 32-sample stages are half the bytes, so 48 KiB holds six
// of them (five in flight instead of two of 64). INTERLEAVE=n deals the stages out to the
// work-groups in turns of n (group c takes stages c n ... c n + n - 1, then G n further on): at any
// moment the groups read neighbouring stretches of each row instead of G places a chunk apart.
// PREFETCH=D asks L2 to fetch each row's stretch D turns ahead (one cp.async.bulk.prefetch.L2 per
// row and turn, sm_90), so more bytes are on their way than the local stages hold.
//
// Fragments (PTX ISA, mma.m16n8k32 u8): a lane (g, t) holds k bytes 4t..4t+3 and 16+4t..19+4t of
// rows g and g + 8 (A) and of column g (B). Both operands are rows of X and a dot product does
// not care about the order of its terms, so a lane loads the 16 samples 16t..16t+15 of its row as
// one uint4 and uses bytes 0-7 for one MMA and 8-15 for the next, A and B alike (as
// cov_gram_u8_mma does). A quarter-warp's 16-byte reads cover two whole 64-byte rows: no bank
// conflicts without padding. Without NV_INLINE_PTX each lane computes the same accumulators with
// integer multiply-adds over the same stages (the portable twin).

#include "common/mma_fragment.clh"   // mmaAccRow, mmaAccCol
#include "common/nv_async_copy.clh"  // cp_async16, cp_async_commit, CP_ASYNC_WAIT
#include "common/nv_inline_ptx.clh"  // MMA_U8_M16N8K32
#include "common/gram_block_pairs.clh"  // TILES, gramBlockPartner, STORE_GRAM_TILES

#ifdef ADD_IN_PLACE
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#ifndef KS
#define KS 64                          // samples per stage: 64 or 32
#endif
#define CPR (KS / 16)                  // 16-byte chunks per row and stage
#define ROWS (NB * 32)                 // rows held (bands rounded up to whole blocks)
#define NT (NB * 32)                   // work-items: one warp per row block
#ifndef SPLIT
#define SPLIT 1
#endif
#define TPS ((TILES + SPLIT - 1) / SPLIT)  // tiles per warp in each of the SPLIT work-groups
// Only an even NB or a split leaves tiles absent (else the checks fold away: no branch).
#define TILES_MAY_BE_ABSENT (NB % 2 == 0 || SPLIT > 1)
#define STAGE_UINT4 (ROWS * CPR)       // one stage: ROWS rows of CPR uint4
#ifndef INTERLEAVE
#define INTERLEAVE 0                   // 0: each group one contiguous chunk of samples
#endif
#define TURN (INTERLEAVE > 0 ? INTERLEAVE : 4)  // stages per turn (the prefetch's unit)


// The stage of samples [s, s + KS) of the chunk ending at s1: work-item tid copies column chunk
// tid % CPR of rows tid / CPR + (NT / CPR) q; rows past `bands` and samples past s1 are zero-filled.
inline void stageSamples(__local uint4* stage, __global const uchar* X, int bands, int pitch,
                         long s, long s1, int tid) {
    const int col = (tid % CPR) * 16;
    const long left = s1 - (s + col);
    const int bytes = left >= 16 ? 16 : left > 0 ? (int)left : 0;
#pragma unroll
    for (int q = 0; q < ROWS * CPR / NT; ++q) {
        const int row = tid / CPR + q * (NT / CPR);
        const bool inside = row < bands && bytes > 0;
        __global const uchar* src = X + (size_t)row * pitch + s + col;
        cp_async16_bytes(stage + row * CPR + tid % CPR, inside ? src : X, inside ? bytes : 0);
    }
    cp_async_commit();
}

// The first sample of the group's stage j: its chunk's, or with INTERLEAVE its turn's among the
// `groups` work-groups (group c's turn u covers stages (u groups + c) INTERLEAVE onwards).
inline long stageStart(int j, long s0, int c, int groups) {
#if INTERLEAVE > 0
    return ((long)(j / INTERLEAVE) * groups + c) * (INTERLEAVE * KS) + (long)(j % INTERLEAVE) * KS;
#else
    return s0 + (long)j * KS;
#endif
}

// The stages group c of `groups` multiplies (INTERLEAVE: whole turns, then what is left of the last).
inline int groupStages(long samples, long s0, long s1, int c, int groups) {
#if INTERLEAVE > 0
    const long total = (samples + KS - 1) / KS;
    const long round = (long)groups * INTERLEAVE;
    const long rest = total % round - (long)c * INTERLEAVE;
    return (int)(total / round * INTERLEAVE + (rest < 0 ? 0 : rest > INTERLEAVE ? INTERLEAVE : rest));
#else
    return (int)((s1 - s0 + KS - 1) / KS);
#endif
}

// PREFETCH: row `row`'s stretch of turn u into L2 (16-byte multiples inside the row's pitch).
inline void prefetchTurn(__global const uchar* X, int bands, int pitch, long samples, long s0,
                         long s1, int c, int groups, int u, int row) {
#if defined(NV_INLINE_PTX) && defined(PREFETCH)
    const long s = stageStart(u * TURN, s0, c, groups);
    const long end = min(INTERLEAVE > 0 ? samples : s1, s + TURN * KS);
    if (row >= bands || s >= end) return;
    const uint bytes = (uint)((end - s + 15) & ~15L);
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(
                     (ulong)(X + (size_t)row * pitch + s)),
                 "r"(bytes)
                 : "memory");
#endif
}

// Lane t's samples of `row` in a stage: 16 bytes at 16t (KS = 64: two MMAs' worth), or 8 at 8t
// (KS = 32: one MMA's, in .x and .y). A quarter-warp's reads cover whole rows: no bank conflicts.
inline uint4 fragment(__local const uint4* stage, int row, int t) {
#if KS == 64
    return stage[row * 4 + t];
#else
    return (uint4)(((__local const uint2*)stage)[row * 4 + t], (uint2)(0));
#endif
}

__kernel __attribute__((reqd_work_group_size(NT, 1, 1))) void cov_gram_u8_staged(
    int bands, int pitch, long samples, int chunkLen, __global const uchar* X,
#ifdef ADD_IN_PLACE
    __global ulong* gram, __global ulong* sums) {
#else
    __global uint* partial, __global uint* partialSums) {
#endif
    __local uint4 smem[STAGES * STAGE_UINT4];
    const int tid = get_local_id(0), lane = tid & 31, w = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int chunk = get_group_id(1);
    const int firstTile = (int)get_group_id(0) * TPS;
    const bool rowSums = get_group_id(0) == 0;
    const int groups = get_num_groups(1);
    const long s0 = INTERLEAVE > 0 ? 0 : (long)chunk * chunkLen;
    const long s1 = INTERLEAVE > 0 ? samples : min(samples, s0 + chunkLen);
    const int stages = groupStages(samples, s0, s1, chunk, groups);

    int partner[TPS];  // the column block of each of this group's tiles of the warp (-1: none)
#pragma unroll
    for (int d = 0; d < TPS; ++d) {
        partner[d] = gramBlockPartner(w, firstTile + d);  // firstTile + d: among the warp's TILES
    }

    uint acc[TPS][2][4][4];
    uint ones[2][4];  // row sums (columns all alike)
#pragma unroll
    for (int d = 0; d < TPS; ++d)
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int b = 0; b < 4; ++b)
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    acc[d][a][b][q] = 0;
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int q = 0; q < 4; ++q)
            ones[a][q] = 0;

#pragma unroll
    for (int st = 0; st < STAGES - 1; ++st) {
        if (st < stages)
            stageSamples(smem + st * STAGE_UINT4, X, bands, pitch, stageStart(st, s0, chunk, groups),
                         s1, tid);
        else
            cp_async_commit();
    }
#ifdef PREFETCH
    for (int u = 1; u <= PREFETCH; ++u)  // the turns ahead of the first (its stages are on their way)
        prefetchTurn(X, bands, pitch, samples, s0, s1, chunk, groups, u, tid);
#endif
    // The lane's rows in a stage: A rows w*32 + a*16 + g (+8), B rows partner*32 + b*8 + g; its
    // 16-byte column t.
    const int aRow = w * 32 + g;
    int readStage = 0, writeStage = STAGES - 1;
    for (int k = 0; k < stages; ++k) {
        WAIT_FOR_OLDEST_STAGE();
        barrier(CLK_LOCAL_MEM_FENCE);  // the stage refilled next was read by every warp last round
        const int next = k + STAGES - 1;
        if (next < stages)
            stageSamples(smem + writeStage * STAGE_UINT4, X, bands, pitch,
                         stageStart(next, s0, chunk, groups), s1, tid);
        else
            cp_async_commit();
#ifdef PREFETCH
        if (k % TURN == 0)
            prefetchTurn(X, bands, pitch, samples, s0, s1, chunk, groups, k / TURN + PREFETCH + 1,
                         tid);
#endif
        writeStage = writeStage == STAGES - 1 ? 0 : writeStage + 1;
        __local const uint4* stage = smem + readStage * STAGE_UINT4;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;

#ifdef NV_INLINE_PTX
        uint4 av[2][2];
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            av[a][0] = fragment(stage, aRow + a * 16, t);
            av[a][1] = fragment(stage, aRow + a * 16 + 8, t);
        }
        const uint one = 0x01010101u;
#ifdef ROWSUM_DP4A
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const uint4 v = av[a][h];
                ones[a][2 * h] =
                    byteSum4(v.x, byteSum4(v.y, byteSum4(v.z, byteSum4(v.w, ones[a][2 * h]))));
            }
#else
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            if (SPLIT > 1 && !rowSums) break;
            MMA_U8_M16N8K32(ones[a][0], ones[a][1], ones[a][2], ones[a][3], av[a][0].x,
                            av[a][1].x, av[a][0].y, av[a][1].y, one, one);
#if KS == 64
            MMA_U8_M16N8K32(ones[a][0], ones[a][1], ones[a][2], ones[a][3], av[a][0].z,
                            av[a][1].z, av[a][0].w, av[a][1].w, one, one);
#endif
        }
#endif
#pragma unroll
        for (int d = 0; d < TPS; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
            uint4 bv[4];
#pragma unroll
            for (int b = 0; b < 4; ++b)
                bv[b] = fragment(stage, partner[d] * 32 + b * 8 + g, t);
#pragma unroll
            for (int a = 0; a < 2; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) {
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], av[a][0].x, av[a][1].x, av[a][0].y,
                                    av[a][1].y, bv[b].x, bv[b].y);
#if KS == 64
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], av[a][0].z, av[a][1].z, av[a][0].w,
                                    av[a][1].w, bv[b].z, bv[b].w);
#endif
                }
        }
#else
        // Lane (g, t) owns rows g and g + 8, columns 2t and 2t + 1 of each 16 x 8 tile.
        __local const uchar* bytes = (__local const uchar*)stage;
        for (int a = 0; a < 2 && rowSums; ++a)
            for (int q = 0; q < 4; ++q) {
                const int r = mmaAccRow(w * 32 + a * 16, g, q);
                uint sum = ones[a][q];
                for (int e = 0; e < KS; ++e)
                    sum += bytes[r * KS + e];
                ones[a][q] = sum;
            }
        for (int d = 0; d < TPS; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 4; ++b)
                    for (int q = 0; q < 4; ++q) {
                        const int r = mmaAccRow(w * 32 + a * 16, g, q);
                        const int c = mmaAccCol(partner[d] * 32 + b * 8, t, q);
                        uint sum = acc[d][a][b][q];
                        for (int e = 0; e < KS; ++e)
                            sum += (uint)bytes[r * KS + e] * (uint)bytes[c * KS + e];
                        acc[d][a][b][q] = sum;
                    }
        }
#endif
    }
    CP_ASYNC_WAIT(0);  // only empty groups can be left; none may outlive the work-group
#if defined(NV_INLINE_PTX) && defined(ROWSUM_DP4A)
    // Each lane summed its 16-byte column of rows g and g + 8: add the row's four lanes.
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            ones[a][2 * h] += shfl_bfly(ones[a][2 * h], 1);
            ones[a][2 * h] += shfl_bfly(ones[a][2 * h], 2);
        }
#endif

#ifdef ADD_IN_PLACE
#define STORE(p, v) atom_add((volatile __global ulong*)(p), (ulong)(v))
    __global ulong* out = gram;
    __global ulong* outSums = sums;
#else
#define STORE(p, v) (*(p) = (v))
    __global uint* out = partial + (size_t)chunk * bands * bands;
    __global uint* outSums = partialSums + (size_t)chunk * bands;
#endif
    STORE_GRAM_TILES(STORE, out, acc, partner, TPS, w, g, t, bands)
    if (t == 0 && rowSums)  // ones[a][0] (row g) and ones[a][2] (row g + 8): every column holds the sum
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int i = w * 32 + a * 16 + g + 8 * h;
                if (i < bands) STORE(outSums + i, ones[a][2 * h]);
            }
}
