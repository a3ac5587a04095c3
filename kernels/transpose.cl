// Transpose through local-memory tiles: a TILE x TILE block is read row by row (coalesced),
// staged in local memory, and written row by row of the output (coalesced again). The +1 column
// of padding puts the tile's columns in different banks. Work-groups are TILE x ROWS; each
// work-item moves TILE / ROWS pixels. Pixels are moved as 32-bit words.
#define TILE 32
#define ROWS 8

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose(const __global uint* src, __global uint* dst, int w, int h) {
    __local uint tile[TILE][TILE + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
    for (int j = ly; j < TILE; j += ROWS) {
        const int x = bx + lx, y = by + j;
        if (x < w && y < h) tile[j][lx] = src[(size_t)y * w + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Output is h wide and w tall; output (x, y) = source (y, x).
    for (int j = ly; j < TILE; j += ROWS) {
        const int x = by + lx, y = bx + j;
        if (x < h && y < w) dst[(size_t)y * h + x] = tile[lx][j];
    }
}
