#pragma once
// Where the packing kernel of gemm-tf32's bulk-copy path (kernels/gemm_tf32_pack.cl) puts each
// element of an operand: the host's statement of kernels/common/tf32_packed_tile.clh, for tests
// and for sizing the packed buffers.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace clviz {

// An operand seen as rows x depth (op(A): M x K; op(B)^T: N x K), cut into tileRows x bk tiles
// (bk a multiple of 4), tiles of block b stored for k-tile 0, 1, ... one after the other.
struct Tf32PackedLayout {
    int rows = 0, depth = 0, tileRows = 0, bk = 0;

    int kTiles() const { return (depth + bk - 1) / bk; }
    int blocks() const { return (rows + tileRows - 1) / tileRows; }
    // Floats in the packed buffer (ragged tiles padded with zeros).
    std::size_t floats() const {
        return std::size_t(blocks()) * kTiles() * std::size_t(tileRows) * bk;
    }
    // Float offset of element (row, k): rows of bk floats, their 4-float chunks permuted by an XOR
    // with (row / rows-per-128-byte-line) within aligned groups of up to 8 chunks.
    std::size_t offset(int row, int k) const {
        const int chunks = bk / 4;
        const int group = chunks % 8 == 0 ? 8 : chunks % 4 == 0 ? 4 : chunks % 2 == 0 ? 2 : 1;
        const int rowsPerLine = chunks < 8 && 8 % chunks == 0 ? 8 / chunks : 1;
        const int r = row % tileRows, q = (k % bk) / 4;
        const int swizzled = q ^ ((r / rowsPerLine) & (group - 1));
        const std::size_t tile = std::size_t(row / tileRows) * kTiles() + k / bk;
        return tile * tileRows * bk + std::size_t(r) * bk + swizzled * 4 + k % 4;
    }
};

// An element as the packing kernel stores it: rounded to TF32, to nearest with ties away from zero
// (packedTf32 in kernels/common/tf32_packed_tile.clh).
inline float packedTf32(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & 0xffffe000u;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// Work-items of a packing work-group (kernels/gemm_tf32_pack.cl).
constexpr int kTf32PackGroupSize = 256;

// How the packing kernel cuts an operand into panels, one per work-group: panelRows rows of a
// tile (a divisor of tileRows) by panelTiles k-tiles, read whole into local memory. A panel spans
// 32 floats of k where bk divides 32 (128-byte runs of a k-contiguous row), else one k-tile; rows
// up to 128 (512-byte runs of a row-contiguous source), fewer where the panel would pass 32 KiB.
struct Tf32PackPanels {
    Tf32PackedLayout layout;
    bool kContiguous = true;
    int panelRows = 0, panelTiles = 0;

    int kPanels() const { return (layout.kTiles() + panelTiles - 1) / panelTiles; }
    std::size_t groups() const {
        return std::size_t(layout.blocks()) * (layout.tileRows / panelRows) * kPanels();
    }
    // The panel in local memory, rows padded by 4 floats: [row][k] or [k][row].
    std::size_t localFloats() const {
        const std::size_t k = std::size_t(panelTiles) * layout.bk;
        return kContiguous ? panelRows * (k + 4) : k * (panelRows + 4);
    }
};

inline Tf32PackPanels tf32PackPanels(const Tf32PackedLayout& l, bool kContiguous) {
    Tf32PackPanels p{l, kContiguous, 4, 32 % l.bk == 0 ? 32 / l.bk : 1};
    for (int rows : {128, 64, 32, 16, 8}) {
        p.panelRows = rows;
        if (l.tileRows % rows == 0 && p.localFloats() * sizeof(float) <= 32 * 1024) return p;
    }
    p.panelRows = 4;  // tileRows is a multiple of 4 (BM, BN: multiples of the warp tile)
    return p;
}

}  // namespace clviz
