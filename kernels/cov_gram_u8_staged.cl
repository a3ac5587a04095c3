// The u8 Gram matrix of up to 224 bands on tensor cores, every sample read once
// (compute/linalg/covariance.cpp: cov-tensor where bands <= 224 and rows are 16-byte aligned;
// covariance.cl's cov_gram_u8_mma takes the rest). One work-group per chunk of samples holds all
// NB x 32 rows of the chunk (rows past `bands` are zeros) in STAGES local stages of 64 samples,
// filled with cp.async 16-byte copies; it writes the chunk's partial Gram matrix (u32, exact:
// chunks <= 33,025 samples) and row sums, which covariance.cl's cov_reduce_partials adds; or,
// with ADD_IN_PLACE, adds them with 64-bit atomics straight into the ulong Gram matrix and sums
// (zeroed by the host), so no second pass reads the partials back. With FRAGMENT_STORES (SPLIT 1)
// a chunk's partial is written in the accumulators' own order, each lane's four accumulators of a
// 16 x 8 tile as one 16-byte store (a warp: 512 contiguous bytes), and cov_reduce_fragments (at
// the end of this file, built with the same schedule) adds the chunks and puts each entry in its
// place in the Gram matrix: no scattered 4-byte stores at the end of the Gram kernel.
//
// SPLIT work-groups share a chunk (group x index h): each stages every row but multiplies only
// its share of the warp's tiles (h * TPS ... h * TPS + TPS - 1), so each holds fewer accumulators
// and several fit one compute unit; the row sums are group 0's. ROWSUM_DP4A sums the rows with
// dp4a on the integer pipe (each lane its 16 bytes, then across the four lanes of a row) instead
// of the MMAs against ones, leaving the tensor pipe to the Gram tiles.
//
// The Gram matrix is cut into NB x NB blocks of 32 x 32, of which the NB (NB + 1) / 2 with
// I <= J are needed; which warp multiplies which is common/gram_block_pairs.clh's schedule: the
// distance schedule (warp w: row block w by blocks w ... w + NB / 2), or with GRAM_TRIANGLES and
// NB = 7 (193-224 bands) the Fano triangles (warp w: blocks w, w + 1, w + 3, rows by columns
// (w, w), (w + 1, w), (w, w + 3), (w + 1, w + 3)). Each block a warp uses (a slot) is read from
// the stage once, whether its tiles take it as rows (A), as columns (B) or both. A tile below the
// diagonal is the transpose of an upper block and is stored transposed. The row sums of block w
// come from one more MMA per 16 rows against a B of ones (or from dp4a: ROWSUM_DP4A).
//
// Fragments (PTX ISA, mma.m16n8k32 u8): a lane (g, t) holds k bytes 4t..4t+3 and 16+4t..19+4t of
// rows g and g + 8 (A) and of column g (B). Both operands are rows of X and a dot product does
// not care about the order of its terms, so a lane loads the 16 samples 16t..16t+15 of its row as
// one uint4 and uses bytes 0-7 for one MMA and 8-15 for the next, A and B alike (as
// cov_gram_u8_mma does). A quarter-warp's 16-byte reads cover two whole 64-byte rows: no bank
// conflicts without padding. Without NV_INLINE_PTX each lane computes the same accumulators with
// integer multiply-adds over the same stages (the portable twin).
//
// LDMATRIX: the fragments by ldmatrix.x4 instead. The m16n8k32 A fragment is four registers that
// mix rows g and g + 8, so two 16-byte row reads become one fragment only through register moves
// (130 IMAD.MOV per stage and warp in the SASS of the form above); ldmatrix delivers each lane
// word t of row g of four 8 x 16-byte matrices straight into the four registers, in the PTX
// ISA's own fragment order (a0: rows 0-7 of k 0-15, a1: rows 8-15, a2 and a3: k 16-31; b0, b1:
// k 0-15 and 16-31 of column g). A row's four 16-byte chunks are stored in the slots
// c ^ ((row / 2) % 4), so the eight rows of a matrix fall in 32 different banks. A block's A
// fragments (four ldmatrix.x4 of 16 rows x 32 k) are the same 32 x 64 bytes as its B fragments
// (four of 8 rows x 64 k) in other registers, so a block read as rows serves as columns too
// (SPLIT 1): the distance schedule reads NB / 2 + 1 blocks per warp and stage (16 ldmatrix.x4 for
// NB = 7), the triangles 3 (12).

// CP_L2_BYTES (0, 128 or 256): the L2 prefetch size of the stages' cp.async copies (none, the
// 128-byte line around each 16-byte copy, or 256 bytes: a row's next three 64-byte stages come
// into L2 with this one, fetched from DRAM before any stage buffer is free to take them).
#if defined(CP_L2_BYTES) && CP_L2_BYTES == 256
#define CP_ASYNC_L2_HINT ".L2::256B"
#elif defined(CP_L2_BYTES) && CP_L2_BYTES == 0
#define CP_ASYNC_L2_HINT ""
#endif
#include "common/mma_fragment.clh"   // mmaAccRow, mmaAccCol
#include "common/nv_async_copy.clh"  // cp_async16, cp_async_commit, CP_ASYNC_WAIT
#include "common/nv_inline_ptx.clh"  // MMA_U8_M16N8K32
#include "common/nv_ldmatrix.clh"    // LDMATRIX_X4_AT
#include "common/gram_block_pairs.clh"  // TILES, SLOTS, gramSlotBlock, STORE_GRAM_TILES

#ifdef ADD_IN_PLACE
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#define KS 64                          // samples per stage
#define ROWS (NB * 32)                 // rows held (bands rounded up to whole blocks)
#ifndef SPLIT
#define SPLIT 1
#endif
#define TPS ((TILES + SPLIT - 1) / SPLIT)  // tiles per warp in each of the SPLIT work-groups
// PAIRED_WARPS (the triangles only): two warps per triangle, warp side h taking the tiles whose
// row block is slot h (tiles h + 2e, e = 0, 1: rows w by columns w and w + 3, rows w + 1 by the
// same), so 14 warps of 2 tiles share the stages instead of 7 of 4: each holds half the
// accumulators, and the 4 schedulers of an SM have 3-4 warps each to switch between (MMAs of one
// beside the fragment loads and copies of another) instead of 1-2.
#ifdef PAIRED_WARPS
#if !GRAM_FANO
#error paired warps split the triangles' tiles: the host passes PAIRED_WARPS with them only
#endif
#if defined(NV_INLINE_PTX) && !defined(LDMATRIX)
#error paired warps load their fragments by ldmatrix
#endif
#define HALVES 2
#define WTILES 2  // tiles per warp
#else
#define HALVES 1
#define WTILES TPS
#endif
#define NT (NB * 32 * HALVES)  // work-items: one warp per row block (or two: PAIRED_WARPS)
#if GRAM_FANO && SPLIT > 1
#error the triangle schedule runs whole (SPLIT 1): the host passes GRAM_TRIANGLES only then
#endif
#if defined(FRAGMENT_STORES) && (SPLIT > 1 || defined(ADD_IN_PLACE))
#error fragment-order partials are a whole work-group's (SPLIT 1), added by a second pass
#endif
// A chunk's partial in fragment order: warp w's tile d, 16 x 8 sub-tile (a, b), lane, its four
// accumulators: uint4 ((w * TILES + d) * 8 + a * 4 + b) * 32 + lane.
#define FRAGMENT_UINT4 (NB * TILES * 8 * 32)
// A work-group's tile d: its row slot, and the slot of its column block among the group's
// COL_SLOTS (SPLIT 1: the warp's slots; split: one per tile, the row slot 0 being block w).
#if defined(PAIRED_WARPS)
// (paired warps: one row slot, block gramSlotBlock(w, side); column slots blocks w and w + 3)
#define COL_SLOTS 2
#define WARP_ROW_SLOTS 1
#define TILE_ROW_SLOT(d) 0
#define TILE_COL_SLOT(d) (d)
#define SLOT_IS_COLUMN(c) 1
// Column slot c's B fragments are row slot 0's A registers: block w, which side 0 holds as rows.
#define COLUMN_FROM_ROW_REGISTERS(c) ((c) == 0 && side == 0)
// Warp side `side`'s tile e is the triangle's tile side + 2 e (the partials' order).
#define TRIANGLE_TILE(e) (side + 2 * (e))
#elif SPLIT == 1
#define COL_SLOTS SLOTS
#define WARP_ROW_SLOTS ROW_SLOTS
#define TILE_ROW_SLOT(d) GRAM_TILE_ROW_SLOT(d)
#define TILE_COL_SLOT(d) GRAM_TILE_COL_SLOT(d)
#define SLOT_IS_COLUMN(c) GRAM_SLOT_IS_COLUMN(c)
#define COLUMN_FROM_ROW_REGISTERS(c) ((c) < ROW_SLOTS)
#define TRIANGLE_TILE(e) (e)
#else
#define COL_SLOTS TPS
#define WARP_ROW_SLOTS ROW_SLOTS
#define TILE_ROW_SLOT(d) 0
#define TILE_COL_SLOT(d) (d)
#define SLOT_IS_COLUMN(c) 1
#define COLUMN_FROM_ROW_REGISTERS(c) 0
#define TRIANGLE_TILE(e) (e)
#endif
// COLUMNS_BY_LDMATRIX: every column slot's B fragments by ldmatrix, also where a row slot's A
// registers hold them (4 more ldmatrix.x4 per warp and stage instead of the register moves that
// form B pairs out of A fragments: an A fragment holds a B pair's registers two apart, and the
// MMA takes a pair of consecutive registers).
#ifdef COLUMNS_BY_LDMATRIX
#undef COLUMN_FROM_ROW_REGISTERS
#define COLUMN_FROM_ROW_REGISTERS(c) 0
#endif
// Only an even NB or a split leaves tiles absent (else the checks fold away: no branch).
#define TILES_MAY_BE_ABSENT (NB % 2 == 0 || SPLIT > 1)
#define STAGE_UINT4 (ROWS * KS / 16)   // one stage: ROWS rows of four uint4
#ifdef LDMATRIX
#define CHUNK_SLOT(row, c) ((c) ^ (((row) >> 1) & 3))  // 16-byte chunk c of `row` in a stage
#else
#define CHUNK_SLOT(row, c) (c)
#endif


#ifdef FRAGMENT_STORES
// Adding the fragment-order partials (the second pass cov_reduce_fragments, or FUSED_REDUCE's
// share of it inside the Gram kernel; both through these two functions): entry `id` is uint4 id of
// every chunk's partial (id < FRAGMENT_UINT4) or row sum id - FRAGMENT_UINT4 (below
// FRAGMENT_ENTRIES); a work-item adds chunks first, first + step, ... (reads of whole 16-byte
// fragments, consecutive ids contiguous), and the entry's total goes where it belongs:
// gram[i * bands + j] for i <= j (the host mirrors the rest; a diagonal tile's entries below the
// diagonal are dropped, a tile below the diagonal is the transpose of its upper block), sums[i].
#define FRAGMENT_ENTRIES(bands) (FRAGMENT_UINT4 + (bands))
inline ulong4 addChunkFragments(int id, int bands, int first, int step, int chunks,
                                __global const uint4* partial, __global const uint* partialSums) {
    ulong4 v = 0;
    if (id < FRAGMENT_UINT4) {
        for (int c = first; c < chunks; c += step)
            v += convert_ulong4(partial[(size_t)c * FRAGMENT_UINT4 + id]);
    } else if (id < FRAGMENT_ENTRIES(bands)) {
        for (int c = first; c < chunks; c += step)
            v.x += partialSums[(size_t)c * bands + id - FRAGMENT_UINT4];
    }
    return v;
}

inline void placeFragmentEntry(int id, ulong4 v, int bands, __global ulong* gram,
                               __global ulong* sums) {
    if (id >= FRAGMENT_UINT4) {
        if (id < FRAGMENT_ENTRIES(bands)) sums[id - FRAGMENT_UINT4] = v.x;
        return;
    }
    const int lane = id & 31, ab = (id >> 5) & 7, wd = id >> 8;
    const int w = wd / TILES, d = wd - w * TILES;
    const int rowBlk = gramTileRowBlock(w, d), colBlk = gramTileColBlock(w, d);
    if (colBlk < 0) return;  // a tile the warp lacks (even NB)
    const int g = lane >> 2, t = lane & 3, a = ab >> 2, b = ab & 3;
    const ulong vq[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        int i = mmaAccRow(rowBlk * 32 + a * 16, g, q), j = mmaAccCol(colBlk * 32 + b * 8, t, q);
        if (colBlk < rowBlk) {  // the transpose of the upper block (colBlk, rowBlk)
            const int k = i;
            i = j, j = k;
        }
        if (i <= j && j < bands) gram[(size_t)i * bands + j] = vq[q];
    }
}
#endif

// FUSED_REDUCE (NVIDIA, FRAGMENT_STORES, every work-group resident: the host checks): after
// storing their partials the work-groups meet at a device-wide barrier (common/grid_barrier.clh)
// and each adds its share of the entries, FUSED_SLICES work-items per entry (chunk c: entries
// c * E ... c * E + E - 1 of every round of `chunks` x E, E = NT / FUSED_SLICES), reading the
// partials back from L2: one launch. A group whose barrier times out sets failed[0] = target and
// leaves; the host then adds the chunks by the second pass.
#if defined(FUSED_REDUCE) && !defined(NV_INLINE_PTX)
#undef FUSED_REDUCE  // the barrier needs PTX: the host sees the portable build and runs two passes
#endif
#ifdef FUSED_REDUCE
#if !defined(FRAGMENT_STORES) || SPLIT > 1
#error the fused reduce adds fragment-order partials of whole work-groups
#endif
#include "common/grid_barrier.clh"
#endif

// The stage of samples [s, s + KS) of the chunk ending at s1: work-item tid copies column chunk
// tid % 4 of rows tid / 4 + 8 NB q; rows past `bands` and samples past s1 are zero-filled.
inline void stageSamples(__local uint4* stage, __global const uchar* X, int bands, int pitch,
                         long s, long s1, int tid) {
    const int col = (tid & 3) * 16;
    const long left = s1 - (s + col);
    const int bytes = left >= 16 ? 16 : left > 0 ? (int)left : 0;
#pragma unroll
    for (int q = 0; q < ROWS * 4 / NT; ++q) {
        const int row = (tid >> 2) + q * (NT / 4);
        const bool inside = row < bands && bytes > 0;
        __global const uchar* src = X + (size_t)row * pitch + s + col;
        cp_async16_bytes(stage + row * 4 + CHUNK_SLOT(row, tid & 3), inside ? src : X,
                         inside ? bytes : 0);
    }
    cp_async_commit();
}

__kernel __attribute__((reqd_work_group_size(NT, 1, 1))) void cov_gram_u8_staged(
    int bands, int pitch, long samples, int chunkLen, __global const uchar* X,
#ifdef ADD_IN_PLACE
    __global ulong* gram, __global ulong* sums) {
#else
    __global uint* partial, __global uint* partialSums
#ifdef FUSED_REDUCE
    , __global ulong* gram, __global ulong* sums, __global int* gridSync, uint target,
    long budgetCycles
#endif
    ) {
#endif
    __local uint4 smem[STAGES * STAGE_UINT4];
    // Warp w of each side (PAIRED_WARPS: warps w and w + NB, so that an SM's 4 schedulers get
    // halves of both kinds).
    const int tid = get_local_id(0), lane = tid & 31, w = (tid >> 5) % NB,
              side = (tid >> 5) / NB;
    const int g = lane >> 2, t = lane & 3;
    const int chunk = get_group_id(1);
    const int firstTile = (int)get_group_id(0) * TPS;
    const bool rowSums = get_group_id(0) == 0 && side == 0;  // block w's sums: one warp's
    const long s0 = (long)chunk * chunkLen;
    const long s1 = min(samples, s0 + chunkLen);
    const int stages = (int)((s1 - s0 + KS - 1) / KS);

    // The row and column blocks of this group's tiles (firstTile + d among the warp's TILES;
    // column -1: none), and the block of each column slot.
    int rowBlk[WTILES], partner[WTILES], colSlotBlk[COL_SLOTS];
#pragma unroll
    for (int d = 0; d < WTILES; ++d) {
        rowBlk[d] = gramTileRowBlock(w, firstTile + TRIANGLE_TILE(d));
        partner[d] = gramTileColBlock(w, firstTile + TRIANGLE_TILE(d));
    }
#pragma unroll
    for (int c = 0; c < COL_SLOTS; ++c)
        colSlotBlk[c] = SPLIT == 1 && HALVES == 1 ? gramSlotBlock(w, c) : partner[c];

    uint acc[WTILES][2][4][4];
    uint ones[2][4];  // row sums (columns all alike)
#pragma unroll
    for (int d = 0; d < WTILES; ++d)
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
            stageSamples(smem + st * STAGE_UINT4, X, bands, pitch, s0 + (long)st * KS, s1, tid);
        else
            cp_async_commit();
    }
#if defined(NV_INLINE_PTX) && defined(LDMATRIX)
    // ldmatrix rows: lane l gives row l % 8 of matrix l / 8. A (a, h): matrices (rows +0, chunk
    // 2h), (rows +8, 2h), (+0, 2h + 1), (+8, 2h + 1); B (b): chunks 0-3 of rows b*8 ... b*8 + 7.
    // A block's rows start at multiples of 8, so the slot depends on the lane alone.
    const int lm = lane >> 3, lr = lane & 7;
    const uint smemAt = (uint)(size_t)smem;
    uint aLane[2];  // the lane's row address in a block, A fragments of k 32h ... 32h + 31
#pragma unroll
    for (int h = 0; h < 2; ++h)
        aLane[h] = (((lm & 1) * 8 + lr) * 4 + CHUNK_SLOT(lr, 2 * h + (lm >> 1))) * 16;
    const uint bLane = (lr * 4 + CHUNK_SLOT(lr, lm)) * 16;
    uint rowAt[WARP_ROW_SLOTS], colAt[COL_SLOTS];  // the slots' blocks in a stage, bytes
#pragma unroll
    for (int r = 0; r < WARP_ROW_SLOTS; ++r)
        rowAt[r] = (uint)gramSlotBlock(w, r + side) * 32 * 64;
#pragma unroll
    for (int c = 0; c < COL_SLOTS; ++c)
        colAt[c] = (uint)max(colSlotBlk[c], 0) * 32 * 64;
#endif
    int readStage = 0, writeStage = STAGES - 1;
    for (int k = 0; k < stages; ++k) {
        WAIT_FOR_OLDEST_STAGE();
        barrier(CLK_LOCAL_MEM_FENCE);  // the stage refilled next was read by every warp last round
        const int next = k + STAGES - 1;
        if (next < stages)
            stageSamples(smem + writeStage * STAGE_UINT4, X, bands, pitch, s0 + (long)next * KS,
                         s1, tid);
        else
            cp_async_commit();
        writeStage = writeStage == STAGES - 1 ? 0 : writeStage + 1;
        __local const uint4* stage = smem + readStage * STAGE_UINT4;
        readStage = readStage == STAGES - 1 ? 0 : readStage + 1;

#if defined(NV_INLINE_PTX) && defined(LDMATRIX)
        const uint at = smemAt + (uint)(stage - smem) * 16;
        // [r][a][h]: the A fragment of row slot r's rows a*16 ... a*16 + 15, k 32h ... 32h + 31
        uint af[WARP_ROW_SLOTS][2][2][4];
#pragma unroll
        for (int r = 0; r < WARP_ROW_SLOTS; ++r)
#pragma unroll
            for (int a = 0; a < 2; ++a)
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    LDMATRIX_X4_AT(af[r][a][h][0], af[r][a][h][1], af[r][a][h][2], af[r][a][h][3],
                                   at + rowAt[r] + aLane[h] + a * 16 * 64);
        const uint one = 0x01010101u;
#ifdef ROWSUM_DP4A
        if (HALVES == 1 || rowSums)
#pragma unroll
            for (int a = 0; a < 2; ++a)
#pragma unroll
                for (int k = 0; k < 2; ++k) {
                    ones[a][0] = byteSum4(af[0][a][k][0], byteSum4(af[0][a][k][2], ones[a][0]));
                    ones[a][2] = byteSum4(af[0][a][k][1], byteSum4(af[0][a][k][3], ones[a][2]));
                }
#else
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            if ((SPLIT > 1 || HALVES > 1) && !rowSums) break;
#pragma unroll
            for (int k = 0; k < 2; ++k)
                MMA_U8_M16N8K32(ones[a][0], ones[a][1], ones[a][2], ones[a][3], af[0][a][k][0],
                                af[0][a][k][1], af[0][a][k][2], af[0][a][k][3], one, one);
        }
#endif
        // Column slot by column slot, 8 columns at a time: the B fragment of columns
        // b*8 ... b*8 + 7 (64 k) serves every tile of that slot (the triangles' tiles two by two).
#pragma unroll
        for (int c = 0; c < COL_SLOTS; ++c) {
            if (!SLOT_IS_COLUMN(c) || (TILES_MAY_BE_ABSENT && colSlotBlk[c] < 0)) continue;
#pragma unroll
            for (int b = 0; b < 4; ++b) {
                uint bf[4];  // k chunks 0-3 (16 bytes each) of the 8 columns
                if (COLUMN_FROM_ROW_REGISTERS(c)) {
                    // A row slot's registers: columns b*8.. are rows of its A (a, s) = (b / 2,
                    // b % 2), matrix s + 2 (chunk % 2) of the chunk's k half
#pragma unroll
                    for (int k = 0; k < 4; ++k)
                        bf[k] = af[c][b >> 1][k >> 1][(b & 1) + 2 * (k & 1)];
                } else {
                    LDMATRIX_X4_AT(bf[0], bf[1], bf[2], bf[3], at + colAt[c] + b * 8 * 64 + bLane);
                }
#pragma unroll
                for (int d = 0; d < WTILES; ++d) {
                    if (TILE_COL_SLOT(d) != c) continue;  // folds: both sides are constants
#pragma unroll
                    for (int a = 0; a < 2; ++a)
#pragma unroll
                        for (int h = 0; h < 2; ++h)
                            MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                            acc[d][a][b][3], af[TILE_ROW_SLOT(d)][a][h][0],
                                            af[TILE_ROW_SLOT(d)][a][h][1],
                                            af[TILE_ROW_SLOT(d)][a][h][2],
                                            af[TILE_ROW_SLOT(d)][a][h][3], bf[2 * h],
                                            bf[2 * h + 1]);
                }
            }
        }
#elif defined(NV_INLINE_PTX)
        // [r][a][h]: the lane's 16-byte column t of rows g (+8 h) of row slot r's 16-row half a
        // (B rows: partner*32 + b*8 + g)
        uint4 avs[ROW_SLOTS][2][2];
#pragma unroll
        for (int r = 0; r < ROW_SLOTS; ++r)
#pragma unroll
            for (int a = 0; a < 2; ++a) {
                const int row = gramSlotBlock(w, r) * 32 + a * 16 + g;
                avs[r][a][0] = stage[row * 4 + t];
                avs[r][a][1] = stage[(row + 8) * 4 + t];
            }
        const uint one = 0x01010101u;
#ifdef ROWSUM_DP4A
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const uint4 v = avs[0][a][h];  // block w's rows
                ones[a][2 * h] =
                    byteSum4(v.x, byteSum4(v.y, byteSum4(v.z, byteSum4(v.w, ones[a][2 * h]))));
            }
#else
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            if (SPLIT > 1 && !rowSums) break;
            MMA_U8_M16N8K32(ones[a][0], ones[a][1], ones[a][2], ones[a][3], avs[0][a][0].x,
                            avs[0][a][1].x, avs[0][a][0].y, avs[0][a][1].y, one, one);
            MMA_U8_M16N8K32(ones[a][0], ones[a][1], ones[a][2], ones[a][3], avs[0][a][0].z,
                            avs[0][a][1].z, avs[0][a][0].w, avs[0][a][1].w, one, one);
        }
#endif
#pragma unroll
        for (int d = 0; d < TPS; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
            uint4 bv[4];
#pragma unroll
            for (int b = 0; b < 4; ++b)
                bv[b] = stage[(partner[d] * 32 + b * 8 + g) * 4 + t];
            const int r = TILE_ROW_SLOT(d);
#pragma unroll
            for (int a = 0; a < 2; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) {
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], avs[r][a][0].x, avs[r][a][1].x,
                                    avs[r][a][0].y, avs[r][a][1].y, bv[b].x, bv[b].y);
                    MMA_U8_M16N8K32(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2],
                                    acc[d][a][b][3], avs[r][a][0].z, avs[r][a][1].z,
                                    avs[r][a][0].w, avs[r][a][1].w, bv[b].z, bv[b].w);
                }
        }
#else
        // Lane (g, t) owns rows g and g + 8, columns 2t and 2t + 1 of each 16 x 8 tile.
        __local const uchar* bytes = (__local const uchar*)stage;
#define BYTE_AT(r, e) bytes[(r) * KS + CHUNK_SLOT(r, (e) >> 4) * 16 + ((e) & 15)]
        for (int a = 0; a < 2 && rowSums; ++a)
            for (int q = 0; q < 4; ++q) {
                const int r = mmaAccRow(w * 32 + a * 16, g, q);
                uint sum = ones[a][q];
                for (int e = 0; e < KS; ++e)
                    sum += BYTE_AT(r, e);
                ones[a][q] = sum;
            }
        for (int d = 0; d < WTILES; ++d) {
            if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 4; ++b)
                    for (int q = 0; q < 4; ++q) {
                        const int r = mmaAccRow(rowBlk[d] * 32 + a * 16, g, q);
                        const int c = mmaAccCol(partner[d] * 32 + b * 8, t, q);
                        uint sum = acc[d][a][b][q];
                        for (int e = 0; e < KS; ++e)
                            sum += (uint)BYTE_AT(r, e) * (uint)BYTE_AT(c, e);
                        acc[d][a][b][q] = sum;
                    }
        }
#endif
    }
    CP_ASYNC_WAIT(0);  // only empty groups can be left; none may outlive the work-group
#if defined(NV_INLINE_PTX) && defined(ROWSUM_DP4A)
    // Each lane summed its 16 bytes (LDMATRIX: word t of each chunk) of rows g and g + 8: add the
    // row's four lanes.
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
    __global ulong* outSums = sums;
#else
#define STORE(p, v) (*(p) = (v))
    __global uint* outSums = partialSums + (size_t)chunk * bands;
#endif
#ifdef FRAGMENT_STORES
    __global uint4* frag = (__global uint4*)partial + (size_t)chunk * FRAGMENT_UINT4;
#pragma unroll
    for (int d = 0; d < WTILES; ++d) {
        if (TILES_MAY_BE_ABSENT && partner[d] < 0) continue;
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int b = 0; b < 4; ++b)
                frag[((w * TILES + TRIANGLE_TILE(d)) * 8 + a * 4 + b) * 32 + lane] =
                    (uint4)(acc[d][a][b][0], acc[d][a][b][1], acc[d][a][b][2], acc[d][a][b][3]);
    }
#else
#ifdef ADD_IN_PLACE
    __global ulong* out = gram;
#else
    __global uint* out = partial + (size_t)chunk * bands * bands;
#endif
    STORE_GRAM_TILES(STORE, out, acc, rowBlk, partner, WTILES, g, t, bands)
#endif
    if (t == 0 && rowSums)  // ones[a][0] (row g) and ones[a][2] (row g + 8): every column holds the sum
#pragma unroll
        for (int a = 0; a < 2; ++a)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int i = w * 32 + a * 16 + g + 8 * h;
                if (i < bands) STORE(outSums + i, ones[a][2 * h]);
            }
#ifdef FUSED_REDUCE
    // gridSync[0]: the barrier's arrivals; gridSync[1]: the target of a launch that timed out.
    __local int passed;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);  // the group's stores before the arrive
    if (tid == 0) {
        passed = gridArriveAndWait(gridSync, target, budgetCycles);
        if (!passed) *(volatile __global int*)(gridSync + 1) = (int)target;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (!passed) return;
    // The stages are free: each slice's sums meet there (ulong4 as two 16-byte halves, the
    // stages being 16-byte aligned).
    __local ulong2* part = (__local ulong2*)smem;
    const int perGroup = NT / FUSED_SLICES, slice = tid / perGroup, e = tid - slice * perGroup;
    const int chunks = get_num_groups(1), entries = FRAGMENT_ENTRIES(bands);
    __global const uint4* fragments = (__global const uint4*)partial;
    for (int base = chunk * perGroup; base < entries; base += chunks * perGroup) {
        const int id = base + e;
        ulong4 v = 0;
        if (slice < FUSED_SLICES)
            v = addChunkFragments(id, bands, slice, FUSED_SLICES, chunks, fragments, partialSums);
        part[2 * tid] = v.lo, part[2 * tid + 1] = v.hi;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (slice == 0) {
            for (int y = 1; y < FUSED_SLICES; ++y)
                v += (ulong4)(part[2 * (y * perGroup + e)], part[2 * (y * perGroup + e) + 1]);
            placeFragmentEntry(id, v, bands, gram, sums);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
}

#ifdef FRAGMENT_STORES
// The second pass of FRAGMENT_STORES: work-item e of the first FRAGMENT_ENTRIES adds entry e of
// every chunk (SLICES work-items per entry, as covariance.cl's cov_reduce_partials: slice y adds
// chunks y, y + SLICES, ...; 4 KB per group and chunk contiguous) and puts it in its place.
#ifndef SLICES
#define SLICES 1
#endif
__kernel __attribute__((reqd_work_group_size(256 / SLICES, SLICES, 1))) void cov_reduce_fragments(
    int bands, int chunks, __global const uint4* partial, __global const uint* partialSums,
    __global ulong* gram, __global ulong* sums) {
    const int id = get_global_id(0), slice = get_local_id(1);
    ulong4 v = addChunkFragments(id, bands, slice, SLICES, chunks, partial, partialSums);
#if SLICES > 1
    __local ulong4 part[SLICES][256 / SLICES];
    part[slice][get_local_id(0)] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (slice != 0) return;
    for (int y = 1; y < SLICES; ++y)
        v += part[y][get_local_id(0)];
#endif
    placeFragmentEntry(id, v, bands, gram, sums);
}
#endif
