// Packs both GEMM operands for the bulk-copy TF32 kernel (gemm_tf32_bulk.cl) in one launch: each
// operand seen as ROWS x DEPTH (op(A): M x K; op(B)^T: N x K) is cut into TILE_ROWS x BK tiles,
// each written contiguous (block b's k-tiles one after the other) in the local layout the main
// kernel copies as it is (common/tf32_packed_tile.clh). Past the operand's edge the tile is
// zeros, so the main kernel needs no edge checks along k, m or n. With ROUND_TF32 (where the main
// kernel multiplies on the tensor cores) every element is stored rounded to TF32 (packedTf32), so
// its loop has no rounding to do.
//
// A work-group moves one panel, PANEL_ROWS rows of a tile by PANEL_TILES k-tiles, through local
// memory: it reads the panel in the source's order (an operand stored ROWS x DEPTH: runs of
// PANEL_TILES * BK floats along k; stored DEPTH x ROWS: runs of PANEL_ROWS floats along the rows)
// and writes it in the packed order, where a panel's share of each k-tile is one contiguous run.
// Both sides are whole 16-byte chunks, consecutive work-items on consecutive chunks, so reads and
// writes are coalesced whichever way the operand is stored (the transpose happens in local
// memory). Groups [0, groupsA) pack op(A), the rest op(B)^T: one launch, one tail.
// Build options: BK, PANEL_TILES, WG_SIZE, LOCAL_FLOATS, ROUND_TF32 (0 or 1), and for X in A, B:
// X_TILE_ROWS, X_PANEL_ROWS (a power of two, at least 4, dividing X_TILE_ROWS), X_K_CONTIGUOUS (1:
// stored ROWS x DEPTH).

#include "common/tf32_packed_tile.clh"  // PACKED_SWIZZLE, packedTf32

#define CPR (BK / 4)                // chunks a tile row
#define PANEL_K (PANEL_TILES * BK)  // floats of k a panel spans
#define ROW_STRIDE (PANEL_K + 4)    // local row of a k-contiguous panel (padded: fewer conflicts)

// The source's 4 floats from (row, k) on along k (kContiguous) or along the rows, zeros outside.
inline float4 sourceChunk(__global const float* src, int rows, int depth, int row, int k,
                          const int kContiguous) {
    if (kContiguous) {
        // A whole chunk inside a row whose length is a multiple of 4: one aligned 16-byte load.
        if (depth % 4 == 0 && row < rows && k + 3 < depth)
            return vload4(0, src + (size_t)row * depth + k);
        float v[4];
        for (int e = 0; e < 4; ++e)
            v[e] = row < rows && k + e < depth ? src[(size_t)row * depth + k + e] : 0.0f;
        return (float4)(v[0], v[1], v[2], v[3]);
    }
    if (rows % 4 == 0 && row + 3 < rows && k < depth)
        return vload4(0, src + (size_t)k * rows + row);
    float v[4];
    for (int e = 0; e < 4; ++e)
        v[e] = row + e < rows && k < depth ? src[(size_t)k * rows + row + e] : 0.0f;
    return (float4)(v[0], v[1], v[2], v[3]);
}

// A work-group's panel: PANEL_TILES k-tiles from kt0 on, panelRows rows from row0 on.
#define PANEL_OF(panel, tiles, panelRows, kt0, row0)             \
    const int kPanels = (tiles + PANEL_TILES - 1) / PANEL_TILES; \
    const int kt0 = ((panel) % kPanels) * PANEL_TILES;           \
    const int row0 = ((panel) / kPanels) * (panelRows)

// Reads the panel in the source's order into local memory: [row][ROW_STRIDE] (k-contiguous) or
// [k][panelRows + 4]. panelRows is a power of two (chunks of a row: a shift and a mask).
inline void readPanel(int rows, int depth, int tiles, int panel, __global const float* src,
                      __local float* lm, int panelRows, int kContiguous) {
    PANEL_OF(panel, tiles, panelRows, kt0, row0);
    const int k0 = kt0 * BK;
    const int rowChunksLog2 = 31 - clz(panelRows / 4);
    const int chunks = panelRows * (PANEL_K / 4);
    for (int c0 = 0; c0 < chunks; c0 += WG_SIZE) {
        const int c = c0 + get_local_id(0);
        if (c >= chunks) break;
        if (kContiguous) {
            const int r = c / (PANEL_K / 4), kc = 4 * (c % (PANEL_K / 4));
            vstore4(sourceChunk(src, rows, depth, row0 + r, k0 + kc, 1), 0,
                    lm + r * ROW_STRIDE + kc);
        } else {
            const int kk = c >> rowChunksLog2, r = 4 * (c & (panelRows / 4 - 1));
            vstore4(sourceChunk(src, rows, depth, row0 + r, k0 + kk, 0), 0,
                    lm + kk * (panelRows + 4) + r);
        }
    }
}

// Writes the panel in the packed order: k-tile t's rows of this panel are panelRows * BK floats
// in a row.
inline void writePanel(int tiles, int panel, __global float* dst, __local const float* lm,
                       int tileRows, int panelRows, int kContiguous) {
    PANEL_OF(panel, tiles, panelRows, kt0, row0);
    const int tilesHere = min(PANEL_TILES, tiles - kt0);
    const size_t block = row0 / tileRows;
    const int rIn0 = row0 % tileRows;
    for (int t = 0; t < tilesHere; ++t) {
        __global float* run = dst + ((block * tiles + kt0 + t) * tileRows + rIn0) * BK;
        for (int w0 = 0; w0 < panelRows * CPR; w0 += WG_SIZE) {
            const int w = w0 + get_local_id(0);
            if (w >= panelRows * CPR) break;
            const int r = w / CPR, p = w % CPR;               // p: the chunk's place in its row
            const int q = p ^ PACKED_SWIZZLE(rIn0 + r, CPR);  // the logical chunk stored there
            const int kk = t * BK + 4 * q;
            float4 v;
            if (kContiguous) {
                v = vload4(0, lm + r * ROW_STRIDE + kk);
            } else {
                const int s = panelRows + 4;
                v = (float4)(lm[kk * s + r], lm[(kk + 1) * s + r], lm[(kk + 2) * s + r],
                             lm[(kk + 3) * s + r]);
            }
            vstore4(ROUND_TF32 ? packedTf32(v) : v, 0, run + 4 * w);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void gemm_tf32_pack(
    int m, int n, int k, int tiles, int groupsA, __global const float* a, __global const float* b,
    __global float* packedA, __global float* packedB) {
    __local float lm[LOCAL_FLOATS] __attribute__((aligned(16)));
    const int g = get_group_id(0);
    // One path for both operands, its parameters picked per group; the barrier is outside it.
    const bool isA = g < groupsA;
    const int rows = isA ? m : n, panel = isA ? g : g - groupsA;
    const int panelRows = isA ? A_PANEL_ROWS : B_PANEL_ROWS;
    const int kContiguous = isA ? A_K_CONTIGUOUS : B_K_CONTIGUOUS;
    readPanel(rows, k, tiles, panel, isA ? a : b, lm, panelRows, kContiguous);
    barrier(CLK_LOCAL_MEM_FENCE);
    writePanel(tiles, panel, isA ? packedA : packedB, lm, isA ? A_TILE_ROWS : B_TILE_ROWS,
               panelRows, kContiguous);
}
