#pragma once
// Where the packing kernel of gemm-tf32's bulk-copy path (kernels/gemm_tf32_pack.cl) puts each
// element of an operand: the host's statement of kernels/common/tf32_packed_tile.clh, for tests
// and for sizing the packed buffers.
#include <cstddef>

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

}  // namespace clviz
