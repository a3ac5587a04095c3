// Packs one GEMM operand for the bulk-copy TF32 kernel (gemm_tf32_bulk.cl): the operand seen as
// ROWS x DEPTH (op(A): M x K; op(B)^T: N x K) is cut into TILE_ROWS x BK tiles, each written
// contiguous (block b's k-tiles one after the other) in the local layout the main kernel copies
// as it is (common/tf32_packed_tile.clh). Past the operand's edge the tile is zeros, so the main
// kernel needs no edge checks along k, m or n.
// One work-item per tile row (BK floats): K_CONTIGUOUS (the operand stored ROWS x DEPTH) reads
// BK consecutive floats (16-byte loads where whole); otherwise (stored DEPTH x ROWS) neighbouring
// work-items read neighbouring rows, so each of the BK reads is coalesced across a warp. The
// writes of a warp are 32 consecutive rows of a tile: one contiguous run.

#include "common/tf32_packed_tile.clh"  // PACKED_CHUNK

#define CPR (BK / 4)

__kernel void gemm_tf32_pack(int rows, int depth, int tiles, __global const float* src,
                             __global float* dst) {
    const size_t id = get_global_id(0);
    const int r = id % TILE_ROWS;
    const size_t tile = id / TILE_ROWS;  // b * tiles + kt
    const int kt = tile % tiles;
    const size_t b = tile / tiles;
    if (b * TILE_ROWS >= (size_t)rows) return;  // the launch rounds up to whole work-groups
    const size_t row = b * TILE_ROWS + r;
    const int k0 = kt * BK;
    __global float* out = dst + tile * (TILE_ROWS * BK);
#pragma unroll
    for (int q = 0; q < CPR; ++q) {
        const int k = k0 + 4 * q;
#ifdef K_CONTIGUOUS
        // A whole chunk inside a row whose length is a multiple of 4: one aligned 16-byte load.
        if (depth % 4 == 0 && row < (size_t)rows && k + 3 < depth) {
            vstore4(vload4(0, src + row * depth + k), 0, out + PACKED_CHUNK(r, q, CPR));
            continue;
        }
#endif
        float v[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const bool inside = row < (size_t)rows && k + e < depth;
#ifdef K_CONTIGUOUS
            v[e] = inside ? src[row * depth + k + e] : 0.0f;
#else
            v[e] = inside ? src[(size_t)(k + e) * rows + row] : 0.0f;
#endif
        }
        vstore4((float4)(v[0], v[1], v[2], v[3]), 0, out + PACKED_CHUNK(r, q, CPR));
    }
}
