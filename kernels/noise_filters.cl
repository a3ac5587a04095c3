// 3 x 3 mean and median (seed 002), per channel on all four channels. Each TX x TY work-group
// stages its pixels plus a one-pixel halo in local memory, so each source pixel is read from
// global memory about once instead of nine times. Borders replicate the edge pixel.
#define TX 32
#define TY 8
#define TILE_W (TX + 2)
#define TILE_H (TY + 2)

inline void load_tile(__local uchar4* tile, const __global uchar4* src, int w, int h) {
    const int x0 = (int)get_group_id(0) * TX - 1, y0 = (int)get_group_id(1) * TY - 1;
    const int lid = get_local_id(1) * TX + get_local_id(0);
    for (int i = lid; i < TILE_W * TILE_H; i += TX * TY) {
        const int x = clamp(x0 + i % TILE_W, 0, w - 1);
        const int y = clamp(y0 + i / TILE_W, 0, h - 1);
        tile[i] = src[(size_t)y * w + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void mean3(const __global uchar4* src, __global uchar4* dst, int w, int h) {
    __local uchar4 tile[TILE_W * TILE_H];
    load_tile(tile, src, w, h);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const int lx = get_local_id(0), ly = get_local_id(1);
    uint4 sum = 0;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) sum += convert_uint4(tile[(ly + dy) * TILE_W + lx + dx]);
    dst[(size_t)y * w + x] = convert_uchar4((sum + 4) / 9);  // rounded mean, exact
}

// Compare-exchange: afterwards a <= b in every channel.
#define SORT2(a, b)                  \
    {                                \
        const uchar4 lo = min(a, b); \
        b = max(a, b);               \
        a = lo;                      \
    }

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void median3(const __global uchar4* src, __global uchar4* dst, int w, int h) {
    __local uchar4 tile[TILE_W * TILE_H];
    load_tile(tile, src, w, h);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h) return;
    const __local uchar4* t = tile + get_local_id(1) * TILE_W + get_local_id(0);
    uchar4 p0 = t[0], p1 = t[1], p2 = t[2];
    uchar4 p3 = t[TILE_W], p4 = t[TILE_W + 1], p5 = t[TILE_W + 2];
    uchar4 p6 = t[2 * TILE_W], p7 = t[2 * TILE_W + 1], p8 = t[2 * TILE_W + 2];
    // The 19-exchange median-of-9 network (Paeth; Devillard's opt_med9): p4 ends as the median.
    SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
    SORT2(p0, p1); SORT2(p3, p4); SORT2(p6, p7);
    SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
    SORT2(p0, p3); SORT2(p5, p8); SORT2(p4, p7);
    SORT2(p3, p6); SORT2(p1, p4); SORT2(p2, p5);
    SORT2(p4, p7); SORT2(p4, p2); SORT2(p6, p4);
    SORT2(p4, p2);
    dst[(size_t)y * w + x] = p4;
}
