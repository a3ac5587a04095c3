// noise=diff on a whole u8 cube of up to 224 bands (compute/spectral/noise_diff_gram.*): the Gram
// matrix of N = X - Y, X the cube and Y its shifted window (spectral_mnf.cl's noise_diff_shift),
// without the 2B-row stacked matrix. Over u8 values a, b of X and Y, with b' = 255 - b (~b),
//   (a_i - b_i)(a_j - b_j) = a_i a_j + b_i b_j + a_i b'_j + b'_i a_j - 255 a_i - 255 a_j,
// four products of u8 values added into one accumulator (symmetric in i and j, so only the upper
// blocks are computed, as cov_gram_u8_staged.cl does) and a correction from the row sums of X,
// which noise_diff_cross_reduce applies while it adds the chunks in 64 bits. Exact: a chunk adds
// at most 4 * 255^2 per sample, below 2^32 for chunks up to 16,512 samples (kMaxCrossChunk), read
// as u32 (the MMA's s32 accumulators wrap modulo 2^32). Samples past the chunk are zeros (a = b =
// 0 adds nothing to any product above: b' = 255 meets a = 0), rows past `bands` are dropped.
//
// One work-group per chunk of samples holds all NB x 32 rows of X and of Y for 32 samples a stage
// (STAGES stages in flight through cp.async), warp w multiplies row block w by the blocks w, ...,
// w + NB / 2 (mod NB), like cov_gram_u8_staged.cl, which has 64 samples a stage for one matrix:
// here a stage of both is the same size. Fragments (PTX ISA, mma.m16n8k32 u8): lane (g, t) reads
// the 8 samples 8t..8t+7 of its row as one uint2 and gives bytes 0-3 as k 4t..4t+3 and bytes 4-7
// as k 16+4t..19+4t, A and B alike, so both operands see the same order of samples. Without
// NV_INLINE_PTX each lane computes the same accumulators with integer multiply-adds (the twin).

#include "common/mma_fragment.clh"   // mmaAccRow, mmaAccCol
#include "common/nv_async_copy.clh"  // cp_async16_bytes, cp_async_commit, CP_ASYNC_WAIT
#include "common/nv_inline_ptx.clh"  // MMA_U8_M16N8K32
#include "common/gram_block_pairs.clh"  // TILES, gramTileColBlock, STORE_GRAM_TILES
#if GRAM_FANO
#error noise_diff_cross reads every tile's rows from block w: the distance schedule only
#endif

#define KS 32                       // samples per stage
#define ROWS (NB * 32)              // rows held of X and of Y (bands rounded up to whole blocks)
#define NT (NB * 32)                // work-items: one warp per row block
#define TILES_MAY_BE_ABSENT (NB % 2 == 0)
#define STAGE_UINT4 (4 * ROWS)      // X's rows (2 uint4 each), then Y's


// Samples [s, s + KS) of X's and Y's rows into a stage: copy c = tid + q NT, q < 2 for X, else Y,
// its row c / 2 and half c % 2; rows past `bands` and samples past s1 are zero-filled.
inline void stageSamples(__local uint4* stage, __global const uchar* X, __global const uchar* Y,
                         int bands, int pitchX, int pitchY, long s, long s1, int tid) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int c = tid + q * NT;
        const int cc = q < 2 ? c : c - 2 * ROWS;
        const int row = cc >> 1, col = (cc & 1) * 16;
        const long left = s1 - (s + col);
        const int bytes = left >= 16 ? 16 : left > 0 ? (int)left : 0;
        const bool inside = row < bands && bytes > 0;
        __global const uchar* src =
            q < 2 ? X + (size_t)row * pitchX + s + col : Y + (size_t)row * pitchY + s + col;
        cp_async16_bytes(stage + c, inside ? src : X, inside ? bytes : 0);
    }
    cp_async_commit();
}

__kernel __attribute__((reqd_work_group_size(NT, 1, 1))) void noise_diff_cross(
    int bands, int pitchX, int pitchY, long samples, int chunkLen, __global const uchar* X,
    __global const uchar* Y, __global uint* partial, __global uint* partialSums) {
    __local uint4 smem[STAGES * STAGE_UINT4];
    const int tid = get_local_id(0), lane = tid & 31, w = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int chunk = get_group_id(1);
    const long s0 = (long)chunk * chunkLen;
    const long s1 = min(samples, s0 + chunkLen);
    const int stages = (int)((s1 - s0 + KS - 1) / KS);

    int rowBlk[TILES], partner[TILES];  // row block w; column block (-1: none)
#pragma unroll
    for (int d = 0; d < TILES; ++d) {
        rowBlk[d] = w;
        partner[d] = gramTileColBlock(w, d);
    }

    uint acc[TILES][2][4][4];
    uint sumX[2][4], sumY[2][4];  // row sums of X and Y (columns all alike)
#pragma unroll
    for (int d = 0; d < TILES; ++d)
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
            sumX[a][q] = sumY[a][q] = 0;

#pragma unroll
    for (int st = 0; st < STAGES - 1; ++st) {
        if (st < stages)
            stageSamples(smem + st * STAGE_UINT4, X, Y, bands, pitchX, pitchY, s0 + (long)st * KS,
                         s1, tid);
        else
            cp_async_commit();
    }
    const int aRow = w * 32 + g;
    int readStage = 0, writeStage = STAGES - 1;
    for (int k = 0; k < stages; ++k) {
        WAIT_FOR_OLDEST_STAGE();
        barrier(CLK_LOCAL_MEM_FENCE);  // the stage refilled next was read by every warp last round
        const int next = k + STAGES - 1;
        if (next < stages)
            stageSamples(smem + writeStage * STAGE_UINT4, X, Y, bands, pitchX, pitchY,
                         s0 + (long)next * KS, s1, tid);
        else
            cp_async_commit();
        writeStage = writeStage == STAGES - 1 ? 0 : writeStage + 1;
        __local const uint4* stage = smem + readStage * STAGE_UINT4;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;

#ifdef NV_INLINE_PTX
        __local const uint2* xs = (__local const uint2*)stage;  // row r: xs[r * 4 + t]
        __local const uint2* ys = xs + ROWS * 4;
        uint2 ax[2][2], ay[2][2];
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            ax[a][0] = xs[(aRow + a * 16) * 4 + t];
            ax[a][1] = xs[(aRow + a * 16 + 8) * 4 + t];
            ay[a][0] = ys[(aRow + a * 16) * 4 + t];
            ay[a][1] = ys[(aRow + a * 16 + 8) * 4 + t];
        }
        const uint one = 0x01010101u;
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            MMA_U8_M16N8K32(sumX[a][0], sumX[a][1], sumX[a][2], sumX[a][3], ax[a][0].x, ax[a][1].x,
                            ax[a][0].y, ax[a][1].y, one, one);
            MMA_U8_M16N8K32(sumY[a][0], sumY[a][1], sumY[a][2], sumY[a][3], ay[a][0].x, ay[a][1].x,
                            ay[a][0].y, ay[a][1].y, one, one);
        }
#pragma unroll
        for (int d = 0; d < TILES; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
#pragma unroll
            for (int b = 0; b < 4; ++b) {
                const uint2 bx = xs[(partner[d] * 32 + b * 8 + g) * 4 + t];
                const uint2 by = ys[(partner[d] * 32 + b * 8 + g) * 4 + t];
#pragma unroll
                for (int a = 0; a < 2; ++a) {
                    // a_i a_j, b_i b_j, a_i b'_j, b'_i a_j
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], ax[a][0].x, ax[a][1].x, ax[a][0].y,
                                    ax[a][1].y, bx.x, bx.y);
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], ay[a][0].x, ay[a][1].x, ay[a][0].y,
                                    ay[a][1].y, by.x, by.y);
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], ax[a][0].x, ax[a][1].x, ax[a][0].y,
                                    ax[a][1].y, ~by.x, ~by.y);
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], ~ay[a][0].x, ~ay[a][1].x, ~ay[a][0].y,
                                    ~ay[a][1].y, bx.x, bx.y);
                }
            }
        }
#else
        __local const uchar* xb = (__local const uchar*)stage;  // row r: xb[r * KS + e]
        __local const uchar* yb = xb + ROWS * KS;
        for (int a = 0; a < 2; ++a)
            for (int q = 0; q < 4; ++q) {
                const int r = mmaAccRow(w * 32 + a * 16, g, q);
                uint sx = sumX[a][q], sy = sumY[a][q];
                for (int e = 0; e < KS; ++e) {
                    sx += xb[r * KS + e];
                    sy += yb[r * KS + e];
                }
                sumX[a][q] = sx;
                sumY[a][q] = sy;
            }
        for (int d = 0; d < TILES; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 4; ++b)
                    for (int q = 0; q < 4; ++q) {
                        const int r = mmaAccRow(w * 32 + a * 16, g, q);
                        const int c = mmaAccCol(partner[d] * 32 + b * 8, t, q);
                        uint sum = acc[d][a][b][q];
                        for (int e = 0; e < KS; ++e) {
                            const uint xi = xb[r * KS + e], xj = xb[c * KS + e];
                            const uint yi = yb[r * KS + e], yj = yb[c * KS + e];
                            sum += xi * xj + yi * yj + xi * (255u - yj) + (255u - yi) * xj;
                        }
                        acc[d][a][b][q] = sum;
                    }
        }
#endif
    }
    CP_ASYNC_WAIT(0);

    __global uint* out = partial + (size_t)chunk * bands * bands;
    STORE_GRAM_TILES(GRAM_STORE, out, acc, rowBlk, partner, TILES, g, t, bands)
    if (t == 0)  // [a][0] (row g) and [a][2] (row g + 8): every column holds the sum
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int i = w * 32 + a * 16 + g + 8 * h;
                if (i < bands) {
                    partialSums[(size_t)chunk * 2 * bands + i] = sumX[a][2 * h];
                    partialSums[(size_t)chunk * 2 * bands + bands + i] = sumY[a][2 * h];
                }
            }
}

// The chunks added in 64 bits and the correction applied: out[i * bands + j] (i <= j; the host
// mirrors the rest) = sum N_i N_j = sum_c partial - 255 (sum X_i + sum X_j); then
// out[bands * bands + i] = sum N_i = sum X_i - sum Y_i. One work-item per entry.
inline long rowSum(__global const uint* partialSums, int stride, int at, int chunks) {
    long s = 0;
    for (int c = 0; c < chunks; ++c)
        s += partialSums[(size_t)c * stride + at];
    return s;
}

__kernel void noise_diff_cross_reduce(int bands, int chunks, __global const uint* partial,
                                      __global const uint* partialSums, __global long* out) {
    const int id = get_global_id(0);
    const int B = bands;
    if (id < B * B) {
        const int i = id / B, j = id - i * B;
        if (i > j) return;
        long s = 0;
        for (int c = 0; c < chunks; ++c)
            s += partial[(size_t)c * B * B + id];
        out[id] = s - 255 * (rowSum(partialSums, 2 * B, i, chunks) +
                             rowSum(partialSums, 2 * B, j, chunks));
    } else if (id < B * B + B) {
        const int b = id - B * B;
        out[id] = rowSum(partialSums, 2 * B, b, chunks) - rowSum(partialSums, 2 * B, B + b, chunks);
    }
}
