// Barnes-Hut gravity on the device, every stage in one file (see compute/nbody/tree/tree_force.hpp):
//   box      bounds_partial, bounds_final   bounding cube of the finite positions
//   keys     morton_keys                    63-bit Morton key (21 bits per axis) and body index
//   sort     radix_count, radix_scan, radix_scatter   stable LSD radix sort, 4 bits per pass
//            (radix_scatter_chunks: the same over chunks of many keys;
//            radix_count8, radix_scan_digits, radix_scatter8: 8 bits per pass)
//   build    gather_sorted, build_radix_tree          Karras 2012 binary radix tree
//   moments  moments                        mass, centre of mass, quadrupole, bounds, opening radius
//   walk     find_groups, walk, scatter_accelerations   group walk with shared interaction lists
//            (invert_order, gather_accelerations: the scatter turned around)
//            (kick_velocities: leapfrog's closing half-kick, after the scatter)
// Same softened force as kernels/nbody_force.cl (common/gravity.clh), so theta -> 0 gives the
// all-pairs sum.
//
// Build options: -DWG=n (walk work-group, power of two), -DBPI=n (bodies per walk work-item, 1 or
// 2: a walk group holds up to GROUP = WG * BPI bodies), -DSTACK=n, -DLIST=n,
// -DCELLS=n (local-memory walk stack, body list and cell list), -DLEAF=n (a cell of at most n bodies that must
// be opened puts its bodies on the list directly), -DSELF_GUARD (softening is 0: r^2 == 0 adds 0),
// -DSORT_WG, -DSCAN_WG, -DREDUCE_WG, -DKEY_BITS (below), -DSORT_KPI (radix_scatter_chunks),
// -DFAR_FIELD (the group walk sums far cells once per group as an expansion; see walk),
// -DFAR_ORDER=n (3 or 4: the expansion's last order of the acceleration's derivatives).
// Probe switches (bench/device/run-walk31s8-h200.sh, never the product's builds), which time or
// count parts of the group walk: -DWALK_PROBE_NO_SUMS (no list sums), -DWALK_PROBE_NO_FAR_ACC (far
// cells found but not accumulated), -DWALK_PROBE_NO_FAR_EVAL (no coefficient sums or evaluation),
// -DWALK_PROBE_COUNT (stats[g] = (cell entries summed per body, far cells of the group)).
//
// Tree layout: internal nodes 0 .. n-2 (root 0); a child index c < 0 is the leaf holding sorted
// body ~c. For n == 1 the root is the leaf ~0.

#include "common/device_fence.clh"  // deviceArrive: the moments climb
#include "common/gravity.clh"  // GRAVITY_PULL, RSQRT

#ifndef WG
#define WG 64
#endif
#ifndef BPI
#define BPI 1
#endif
#define GROUP (WG * BPI)
#if BPI != 1 && BPI != 2
#error "BPI must be 1 or 2"
#endif
#ifndef STACK
#define STACK 1024
#endif
#ifndef LIST
#define LIST 1024
#endif
#ifndef LEAF
#define LEAF 4
#endif
#ifndef CELLS
#define CELLS 256
#endif
// The fixed work-group sizes come from the host (compute/nbody/tree/tree_force.cpp), which
// launches with them: SORT_WG (radix sort; one 8-bit rank field per digit: at most 255 keys),
// SCAN_WG (radix_scan: one work-group scans every tile count), REDUCE_WG (bounds kernels and
// cell_boxes).
// KEY_BITS: Morton key bits per axis, as the CPU reference tree uses (kTreeKeyBits).
#if !defined(SORT_WG) || !defined(SCAN_WG) || !defined(REDUCE_WG) || !defined(KEY_BITS)
#error "the host passes -DSORT_WG, -DSCAN_WG, -DREDUCE_WG and -DKEY_BITS"
#endif

#if LIST < 2 * WG || LIST < LEAF || STACK < WG + 256
#error "LIST must hold 2 * WG entries and a leaf, STACK WG + 256 (see walk)"
#endif

// ---- box ---------------------------------------------------------------------------------------

// The group's min and max corner into lo[0] and hi[0] (a tree reduction in local memory).
static inline void reduceBox(__local float4* lo, __local float4* hi, const int lid, const float4 mn,
                             const float4 mx) {
    lo[lid] = mn;
    hi[lid] = mx;
    for (int s = REDUCE_WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) {
            lo[lid] = fmin(lo[lid], lo[lid + s]);
            hi[lid] = fmax(hi[lid], hi[lid + s]);
        }
    }
}

// Each group reduces a grid-stride slice of the bodies to min and max; NaN and Inf are skipped
// (the diagnostics report them; the tree stays finite and bounded without them).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void bounds_partial(
    __global const float4* restrict pos, const int n, __global float4* restrict partials) {
    __local float4 lo[REDUCE_WG], hi[REDUCE_WG];
    const int lid = get_local_id(0);
    float4 mn = (float4)(INFINITY), mx = (float4)(-INFINITY);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float4 p = pos[i];
        if (isfinite(p.x) && isfinite(p.y) && isfinite(p.z)) {
            mn = fmin(mn, p);
            mx = fmax(mx, p);
        }
    }
    reduceBox(lo, hi, lid, mn, mx);
    if (lid == 0) {
        partials[2 * get_group_id(0)] = lo[0];
        partials[2 * get_group_id(0) + 1] = hi[0];
    }
}

// box[0] = (min corner, scale): key coordinate = (x - min) * scale in [0, 2^21); box[1] = max.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void bounds_final(
    __global const float4* restrict partials, const int groups, __global float4* restrict box) {
    __local float4 lo[REDUCE_WG], hi[REDUCE_WG];
    const int lid = get_local_id(0);
    float4 mn = (float4)(INFINITY), mx = (float4)(-INFINITY);
    for (int g = lid; g < groups; g += REDUCE_WG) {
        mn = fmin(mn, partials[2 * g]);
        mx = fmax(mx, partials[2 * g + 1]);
    }
    reduceBox(lo, hi, lid, mn, mx);
    if (lid == 0) {
        const float4 e = hi[0] - lo[0];
        const float extent = fmax(fmax(e.x, e.y), e.z);
        // A cube, so Morton cells are cubes; no finite body (or one point): every key is 0.
        const float scale = (isfinite(extent) && extent > 0) ? (float)((1 << KEY_BITS) - 1) / extent : 0.0f;
        const float4 corner = isfinite(extent) ? lo[0] : (float4)(0);
        box[0] = (float4)(corner.x, corner.y, corner.z, scale);
        box[1] = hi[0];
    }
}

// ---- keys --------------------------------------------------------------------------------------

// Spreads the low 21 bits of v to every third bit of a 64-bit word.
static inline ulong spread3(ulong v) {
    v &= 0x1fffffUL;
    v = (v | (v << 32)) & 0x1f00000000ffffUL;
    v = (v | (v << 16)) & 0x1f0000ff0000ffUL;
    v = (v | (v << 8)) & 0x100f00f00f00f00fUL;
    v = (v | (v << 4)) & 0x10c30c30c30c30c3UL;
    v = (v | (v << 2)) & 0x1249249249249249UL;
    return v;
}

static inline ulong quantize(float x, float lo, float scale) {
    // convert_uint_sat maps NaN to 0 and clamps the rest: every body gets a valid key.
    return (ulong)min(convert_uint_sat((x - lo) * scale), (uint)((1 << KEY_BITS) - 1));
}

__kernel void morton_keys(__global const float4* restrict pos, const int n,
                          __global const float4* restrict box, __global ulong* restrict keys,
                          __global uint* restrict index, __global int* restrict counters) {
    const int i = get_global_id(0);
    if (i < 3) counters[i] = 0;  // fallbacks, groups, next group: this step counts from here
    if (i >= n) return;
    const float4 b = box[0];
    const float4 p = pos[i];
    keys[i] = (spread3(quantize(p.x, b.x, b.w)) << 2) | (spread3(quantize(p.y, b.y, b.w)) << 1) |
              spread3(quantize(p.z, b.z, b.w));
    index[i] = (uint)i;
}

// ---- sort: stable LSD radix sort of (key, index), 4 bits per pass ------------------------------
// Tiles of tileKeys consecutive keys; counts[digit * tiles + tile] is laid out so that one
// exclusive scan of the whole array gives every (digit, tile) its first output slot.

// One histogram per 32 work-items (a warp on NVIDIA), so that fewer work-items collide on one local
// counter; summed at the end.
#define COUNT_LANES 32
#define COUNT_HISTS ((SORT_WG + COUNT_LANES - 1) / COUNT_LANES)
// Also zeroes clear[0 .. clearWords) (the counts radix_scatter_chunks adds the next pass's into).
__kernel __attribute__((reqd_work_group_size(SORT_WG, 1, 1))) void radix_count(
    __global const ulong* restrict keys, const int n, const int shift, const int tileKeys,
    __global uint* restrict counts, const int tiles, __global uint* restrict clear,
    const int clearWords) {
    __local uint hist[16 * COUNT_HISTS];
    const int lid = get_local_id(0), tile = get_group_id(0);
    for (int e = tile * SORT_WG + lid; e < clearWords; e += tiles * SORT_WG) clear[e] = 0;
    for (int h = lid; h < 16 * COUNT_HISTS; h += SORT_WG) hist[h] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint* mine = hist + 16 * (lid / COUNT_LANES);
    const int start = tile * tileKeys, end = min(start + tileKeys, n);
    for (int i = start + lid; i < end; i += SORT_WG)
        atomic_inc(&mine[(uint)(keys[i] >> shift) & 15u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) {
        uint sum = 0;
        for (int h = 0; h < COUNT_HISTS; ++h) sum += hist[16 * h + lid];
        counts[lid * tiles + tile] = sum;
    }
}

// sums[lid] becomes sums[0] + ... + sums[lid] over a work-group's first n work-items (Hillis-Steele
// in local memory; every work-item of the group calls it). The caller waits at a barrier before
// reading another work-item's sum.
inline void scanInclusive(__local uint* sums, int lid, int n) {
    for (int d = 1; d < n; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint add = lid >= d ? sums[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        sums[lid] += add;
    }
}

// Exclusive scan of `total` counts in place, by one work-group, in blocks of SCAN_WG * SCAN_RUN
// counts: each work-item sums a run of SCAN_RUN consecutive counts (neighbours read neighbouring
// words, so the loads coalesce), the run sums are scanned in local memory, then each run is
// rewritten from the block's carry. The next block's counts are loaded before this block is
// scanned, so the memory latency overlaps the scan.
#define SCAN_RUN 8

__kernel __attribute__((reqd_work_group_size(SCAN_WG, 1, 1))) void radix_scan(
    __global uint* restrict counts, const int total) {
    __local uint sums[SCAN_WG];
    const int lid = get_local_id(0);
    uint carry = 0;  // sum of the earlier blocks, the same in every work-item
    uint next[SCAN_RUN];
    for (int k = 0; k < SCAN_RUN; ++k)
        next[k] = lid * SCAN_RUN + k < total ? counts[lid * SCAN_RUN + k] : 0;
    for (int block = 0; block < total; block += SCAN_WG * SCAN_RUN) {
        const int start = block + lid * SCAN_RUN;
        uint v[SCAN_RUN];
        uint s = 0;
        for (int k = 0; k < SCAN_RUN; ++k) {
            v[k] = next[k];
            s += v[k];
            const int ahead = start + SCAN_WG * SCAN_RUN + k;
            next[k] = ahead < total ? counts[ahead] : 0;
        }
        sums[lid] = s;
        scanInclusive(sums, lid, SCAN_WG);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint run = carry + sums[lid] - s;  // exclusive prefix of this run
        for (int k = 0; k < SCAN_RUN; ++k) {
            if (start + k < total) counts[start + k] = run;
            run += v[k];
        }
        carry += sums[SCAN_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);  // sums[] is rewritten by the next block
    }
}

// Where digit d's keys start among a chunk's keys sorted by digit: the counts of the smaller
// digits, from the chunk's packed per-digit counts (16 fields of 8 bits in a uint4; a chunk holds
// at most 255 keys, so every byte-wise prefix sum fits its byte). w * 0x01010101 puts in byte k
// the sum of bytes 0 .. k of w.
static inline uint digitStart(const uint4 all, const uint d) {
    const uint q = d >> 2, b = 8 * (d & 3);
    const uint w = q == 0 ? all.s0 : q == 1 ? all.s1 : q == 2 ? all.s2 : all.s3;
    const uint words = (q > 0 ? (all.s0 * 0x01010101u) >> 24 : 0) +
                       (q > 1 ? (all.s1 * 0x01010101u) >> 24 : 0) +
                       (q > 2 ? (all.s2 * 0x01010101u) >> 24 : 0);
    return words + (((w * 0x01010101u) >> b) & 255u) - ((w >> b) & 255u);
}

// Where this work-item's key goes among the chunk's valid keys sorted stably by the 4-bit `nib`:
// a work-group scan of one-hot digit counters (16 fields of 8 bits in a uint4) ranks the key among
// the chunk's keys with the same digit. radix_scatter runs it once a chunk, radix_scatter8 twice.
// Every work-item of the group calls it (it holds barriers); afterwards scan[SORT_WG - 1] holds
// the chunk's packed counts until the caller's next barrier.
static inline uint nibbleSlot(const uint nib, const bool valid, __local uint4* scan, const int lid) {
    const uint one = valid ? 1u << (8 * (nib & 3)) : 0u;
    uint4 mine = (uint4)(0);
    if ((nib >> 2) == 0) mine.s0 = one;
    else if ((nib >> 2) == 1) mine.s1 = one;
    else if ((nib >> 2) == 2) mine.s2 = one;
    else mine.s3 = one;
    barrier(CLK_LOCAL_MEM_FENCE);  // scan[] and the caller's chunk buffers free
    scan[lid] = mine;
    for (int d = 1; d < SORT_WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint4 add = lid >= d ? scan[lid - d] : (uint4)(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        scan[lid] += add;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint4 all = scan[SORT_WG - 1];
    const uint4 before = scan[lid] - mine;
    const uint word = (nib >> 2) == 0 ? before.s0
                    : (nib >> 2) == 1 ? before.s1
                    : (nib >> 2) == 2 ? before.s2
                                      : before.s3;
    return digitStart(all, nib) + ((word >> (8 * (nib & 3))) & 255u);
}

// Moves each key to its slot. The tile is walked in chunks of SORT_WG keys in order; inside a
// chunk a work-group scan of one-hot digit counters (16 fields of 8 bits in a uint4) ranks each key
// among the chunk's keys with the same digit, which keeps the sort stable. The chunk is then
// reordered by digit in local memory, so that neighbouring work-items write neighbouring slots
// (whole memory sectors rather than one key in each of 16 places).
__kernel __attribute__((reqd_work_group_size(SORT_WG, 1, 1))) void radix_scatter(
    __global const ulong* restrict keysIn, __global const uint* restrict valsIn,
    __global ulong* restrict keysOut, __global uint* restrict valsOut, const int n,
    const int shift, const int tileKeys, __global const uint* restrict offsets, const int tiles) {
    __local uint base[16];
    __local uint4 scan[SORT_WG];
    __local ulong byDigitKey[SORT_WG];
    __local uint byDigitVal[SORT_WG];
    const int lid = get_local_id(0), tile = get_group_id(0);
    if (lid < 16) base[lid] = offsets[lid * tiles + tile];
    const int start = tile * tileKeys, end = min(start + tileKeys, n);
    // The next chunk's key and value are loaded while this chunk is ranked.
    ulong nextKey = start + lid < end ? keysIn[start + lid] : 0;
    uint nextVal = start + lid < end ? valsIn[start + lid] : 0;
    for (int c = start; c < end; c += SORT_WG) {
        const int i = c + lid;
        const bool valid = i < end;
        const ulong key = nextKey;
        const uint val = nextVal;
        if (i + SORT_WG < end) {
            nextKey = keysIn[i + SORT_WG];
            nextVal = valsIn[i + SORT_WG];
        }
        // Its first barrier also waits for base[]'s update and frees byDigit*[].
        const uint at = nibbleSlot((uint)(key >> shift) & 15u, valid, scan, lid);
        const uint4 all = scan[SORT_WG - 1];
        if (valid) {
            byDigitKey[at] = key;
            byDigitVal[at] = val;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < end - c) {
            const ulong k = byDigitKey[lid];
            const uint d = (uint)(k >> shift) & 15u;
            const uint dst = base[d] + (uint)lid - digitStart(all, d);
            keysOut[dst] = k;
            valsOut[dst] = byDigitVal[lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 16) {
            const uint w = (lid >> 2) == 0 ? all.s0 : (lid >> 2) == 1 ? all.s1 : (lid >> 2) == 2 ? all.s2 : all.s3;
            base[lid] += (w >> (8 * (lid & 3))) & 255u;
        }
    }
}

// ---- sort, 4 bits per pass over chunks of many keys (TreeForceOptions::sortKeysPerItem > 1) ---
#ifndef SORT_KPI
#define SORT_KPI 16
#endif
#if SORT_KPI < 1 || SORT_KPI > 255 || SORT_WG % 16 != 0
#error "radix_scatter_chunks: SORT_KPI in 1 .. 255 (8-bit counters), SORT_WG a multiple of 16"
#endif
#define CHUNK_KEYS (SORT_WG * SORT_KPI)
// Local slots, padded so that both a work-item's run of consecutive keys (stride SORT_KPI across
// the warp) and a warp's consecutive keys fall in distinct banks (8-byte keys: one pad per 16).
#define KEY_SLOT(i) ((i) + ((i) >> 4))
#define VAL_SLOT(i) ((i) + ((i) >> 5))
#define HIST_SLOT(i) ((i) + ((i) >> 4))

// Field d (8 bits) of 16 packed counters.
static inline uint packedField(const uint4 c, const uint d) {
    const uint w = (d >> 2) == 0 ? c.s0 : (d >> 2) == 1 ? c.s1 : (d >> 2) == 2 ? c.s2 : c.s3;
    return (w >> (8 * (d & 3))) & 255u;
}

// This tile's first output slot of each digit into base[0 .. 15], from the raw counts of every
// tile (counts[d * tiles + t]): the keys of the smaller digits in every tile and of digit d in the
// tiles before this one, which is what radix_scan's exclusive scan leaves at d * tiles + tile.
// Every work-group works it out for itself (a few loads from the cache a work-item), so no scan
// kernel runs between two passes. Work-item lid sums digit lid % 16 over every (SORT_WG / 16)-th
// tile; scratch holds 2 * SORT_WG words. Every work-item calls it (barriers); base[d] is written
// by work-item d.
#if SORT_WG % 16 != 0
#error "the tile bases need SORT_WG to be a multiple of 16"
#endif
static inline void tileBasesFromCounts(__global const uint* restrict counts, const int tiles,
                                       const int tile, __local uint* restrict base,
                                       __local uint* restrict scratch, const int lid) {
    const int digit = lid & 15, lane = lid >> 4, lanes = SORT_WG / 16;
    uint all = 0, before = 0;
    for (int t = lane; t < tiles; t += lanes) {
        const uint c = counts[digit * tiles + t];
        all += c;
        before += t < tile ? c : 0u;
    }
    scratch[lid] = all;  // [lane][digit]
    scratch[SORT_WG + lid] = before;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint total = 0, earlier = 0;
    if (lid < 16)
        for (int l = 0; l < lanes; ++l) {
            total += scratch[16 * l + lid];
            earlier += scratch[SORT_WG + 16 * l + lid];
        }
    barrier(CLK_LOCAL_MEM_FENCE);  // every lane's sums read
    if (lid < 16) scratch[lid] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) {
        uint smaller = 0;
        for (int d = 0; d < lid; ++d) smaller += scratch[d];
        base[lid] = smaller + earlier;
    }
}

// radix_scatter over chunks of SORT_WG * SORT_KPI keys (TreeForceOptions::sortKeysPerItem > 1).
// radix_scatter's work-group scan costs about twenty barriers per 128 keys; here each work-item
// ranks SORT_KPI consecutive keys of the chunk among its own keys in registers, and one scan of the
// 16 x SORT_WG per-work-item digit counts (digit-major, so the scan's order is digit, then
// work-item, then the key's place: stable) places every key of the chunk, with as many barriers
// per chunk. The chunk, sorted by digit in local memory, then leaves as one run per digit (128
// keys per digit on average with 2,048-key chunks), whose writes fill whole memory sectors.
// scanHere: `offsets` holds this pass's raw counts, each work-group finds its bases itself
// (tileBasesFromCounts) and zeroes zeroCounts (16 * tiles words: the counts buffer of the pass
// after next, which the last pass read); else `offsets` is radix_scan's output.
__kernel __attribute__((reqd_work_group_size(SORT_WG, 1, 1))) void radix_scatter_chunks(
    __global const ulong* restrict keysIn, __global const uint* restrict valsIn,
    __global ulong* restrict keysOut, __global uint* restrict valsOut, const int n,
    const int shift, const int tileKeys, __global const uint* restrict offsets, const int tiles,
    __global uint* restrict nextCounts, const int nextShift, const int scanHere,
    __global uint* restrict zeroCounts) {
    __local uint base[16];        // next output slot of each digit for this tile
    __local uint chunkStart[17];  // where each digit's keys start in the sorted chunk; [16]: keys
    __local uint firstTile[16];   // the output tile of each digit's first slot in this chunk
    __local uint nextHist[16 * 2 * 16];  // [digit][first tile or the one after][next pass's digit]
    __local uint hist[HIST_SLOT(16 * SORT_WG)];  // [digit][work-item]: counts, then their scan
    __local uint sums[SORT_WG];
    __local ulong chunkKey[KEY_SLOT(CHUNK_KEYS)];
    __local uint chunkVal[VAL_SLOT(CHUNK_KEYS)];
    const int lid = get_local_id(0), tile = get_group_id(0);
    if (scanHere) {
        tileBasesFromCounts(offsets, tiles, tile, base, hist, lid);
        for (int e = tile * SORT_WG + lid; e < 16 * tiles; e += tiles * SORT_WG) zeroCounts[e] = 0;
    } else if (lid < 16) {
        base[lid] = offsets[lid * tiles + tile];
    }
    for (int e = lid; e < 16 * 2 * 16; e += SORT_WG) nextHist[e] = 0;
    const int start = tile * tileKeys, end = min(start + tileKeys, n);
    // The next chunk, loaded (coalesced) while this one is sorted.
    ulong nextKey[SORT_KPI];
    uint nextVal[SORT_KPI];
    for (int q = 0; q < SORT_KPI; ++q) {
        const int i = start + q * SORT_WG + lid;
        nextKey[q] = i < end ? keysIn[i] : 0;
        nextVal[q] = i < end ? valsIn[i] : 0;
    }
    for (int c = start; c < end; c += CHUNK_KEYS) {
        const int m = min(CHUNK_KEYS, end - c);  // keys in this chunk
        for (int q = 0; q < SORT_KPI; ++q) {
            const int i = q * SORT_WG + lid;
            chunkKey[KEY_SLOT(i)] = nextKey[q];
            chunkVal[VAL_SLOT(i)] = nextVal[q];
            if (c + CHUNK_KEYS + i < end) {
                nextKey[q] = keysIn[c + CHUNK_KEYS + i];
                nextVal[q] = valsIn[c + CHUNK_KEYS + i];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // This work-item's keys lid * SORT_KPI .. + SORT_KPI - 1, each ranked among the earlier
        // ones of the same digit (16 counters of 8 bits).
        ulong key[SORT_KPI];
        uint val[SORT_KPI], rank[SORT_KPI];
        uint4 counts = (uint4)(0);
        for (int k = 0; k < SORT_KPI; ++k) {
            const int i = lid * SORT_KPI + k;
            key[k] = chunkKey[KEY_SLOT(i)];
            val[k] = chunkVal[VAL_SLOT(i)];
            const uint d = (uint)(key[k] >> shift) & 15u;
            rank[k] = packedField(counts, d);
            const uint one = i < m ? 1u << (8 * (d & 3)) : 0u;
            counts += (uint4)((d >> 2) == 0 ? one : 0u, (d >> 2) == 1 ? one : 0u,
                              (d >> 2) == 2 ? one : 0u, (d >> 2) == 3 ? one : 0u);
        }
        for (int d = 0; d < 16; ++d)
            hist[HIST_SLOT(d * SORT_WG + lid)] = packedField(counts, (uint)d);
        barrier(CLK_LOCAL_MEM_FENCE);  // also: every key of the chunk read into registers
        // Exclusive scan of hist in digit-major order: work-item lid scans entries lid * 16 ..
        // lid * 16 + 15 (one digit's counts of 16 work-items), then the 16-entry sums.
        uint s = 0;
        for (int j = 0; j < 16; ++j)
            s += hist[HIST_SLOT(lid * 16 + j)];
        sums[lid] = s;
        scanInclusive(sums, lid, SORT_WG);
        uint run = sums[lid] - s;
        if ((lid * 16) % SORT_WG == 0) chunkStart[lid * 16 / SORT_WG] = run;
        if (lid == 0) chunkStart[16] = (uint)m;
        if (lid < 16) firstTile[lid] = base[lid] / (uint)tileKeys;
        for (int j = 0; j < 16; ++j) {
            const uint v = hist[HIST_SLOT(lid * 16 + j)];
            hist[HIST_SLOT(lid * 16 + j)] = run;
            run += v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Every key to its place in the chunk sorted by digit.
        for (int k = 0; k < SORT_KPI; ++k) {
            if (lid * SORT_KPI + k < m) {
                const uint d = (uint)(key[k] >> shift) & 15u;
                const uint at = hist[HIST_SLOT(d * SORT_WG + lid)] + rank[k];
                chunkKey[KEY_SLOT(at)] = key[k];
                chunkVal[VAL_SLOT(at)] = val[k];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Out in runs: neighbouring work-items write neighbouring slots of one digit's run.
        for (int q = 0; q < SORT_KPI; ++q) {
            const int j = q * SORT_WG + lid;
            if (j < m) {
                const ulong k = chunkKey[KEY_SLOT(j)];
                const uint d = (uint)(k >> shift) & 15u;
                const uint dst = base[d] + (uint)j - chunkStart[d];
                keysOut[dst] = k;
                valsOut[dst] = chunkVal[VAL_SLOT(j)];
                if (nextShift >= 0) {  // the next pass's count of the output tile
                    const uint d2 = (uint)(k >> nextShift) & 15u;
                    const uint t = dst / (uint)tileKeys;
                    const uint slot = t - firstTile[d];  // a run longer than a tile: elsewhere
                    if (slot < 2u) atomic_inc(&nextHist[(d * 2 + slot) * 16 + d2]);
                    else atomic_inc(&nextCounts[d2 * tiles + t]);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // every base[] and chunkStart[] read; chunk* free
        if (nextShift >= 0)
            for (int e = lid; e < 16 * 2 * 16; e += SORT_WG) {
                const uint v = nextHist[e];
                if (v) {
                    atomic_add(&nextCounts[(e & 15) * tiles + firstTile[e >> 5] + ((e >> 4) & 1)], v);
                    nextHist[e] = 0;
                }
            }
        if (lid < 16) base[lid] += chunkStart[lid + 1] - chunkStart[lid];
    }
}
#undef KEY_SLOT
#undef VAL_SLOT
#undef HIST_SLOT
#undef CHUNK_KEYS

// ---- sort, 8 bits per pass (TreeForceOptions::sortDigitBits = 8) -----------------------------
// Half the passes of the 4-bit sort over the same 63-bit keys. counts[digit * tiles + tile] as
// above, 256 digits; radix_scan_digits scans each digit's tiles apart (one work-group per digit,
// the 256 digit totals after the counts) and the scatter adds the digit's start, the exclusive
// scan of the totals, which each of its work-groups forms itself.
#if SORT_WG > 256 || 256 % SORT_WG != 0
#error "radix_scatter8 needs SORT_WG to divide 256"
#endif

__kernel __attribute__((reqd_work_group_size(SORT_WG, 1, 1))) void radix_count8(
    __global const ulong* restrict keys, const int n, const int shift, const int tileKeys,
    __global uint* restrict counts, const int tiles) {
    __local uint hist[256 * COUNT_HISTS];
    const int lid = get_local_id(0), tile = get_group_id(0);
    for (int h = lid; h < 256 * COUNT_HISTS; h += SORT_WG) hist[h] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint* mine = hist + 256 * (lid / COUNT_LANES);
    const int start = tile * tileKeys, end = min(start + tileKeys, n);
    for (int i = start + lid; i < end; i += SORT_WG)
        atomic_inc(&mine[(uint)(keys[i] >> shift) & 255u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = lid; d < 256; d += SORT_WG) {
        uint sum = 0;
        for (int h = 0; h < COUNT_HISTS; ++h) sum += hist[256 * h + d];
        counts[d * tiles + tile] = sum;
    }
}

// Work-group g scans digit g's `tiles` counts in place (exclusive) and writes their sum to
// counts[256 * tiles + g]. Same blocks of SCAN_WG * SCAN_RUN as radix_scan, without the prefetch:
// a digit's counts are one block up to 2,048 tiles.
__kernel __attribute__((reqd_work_group_size(SCAN_WG, 1, 1))) void radix_scan_digits(
    __global uint* restrict counts, const int tiles) {
    __local uint sums[SCAN_WG];
    const int lid = get_local_id(0), digit = get_group_id(0);
    __global uint* c = counts + digit * tiles;
    uint carry = 0;
    for (int block = 0; block < tiles; block += SCAN_WG * SCAN_RUN) {
        const int start = block + lid * SCAN_RUN;
        uint v[SCAN_RUN];
        uint s = 0;
        for (int k = 0; k < SCAN_RUN; ++k) {
            v[k] = start + k < tiles ? c[start + k] : 0;
            s += v[k];
        }
        sums[lid] = s;
        scanInclusive(sums, lid, SCAN_WG);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint run = carry + sums[lid] - s;
        for (int k = 0; k < SCAN_RUN; ++k) {
            if (start + k < tiles) c[start + k] = run;
            run += v[k];
        }
        carry += sums[SCAN_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) counts[256 * tiles + digit] = carry;
}

// radix_scatter with 8-bit digits. Each chunk is sorted by its digit in local memory with two
// stable 4-bit splits (low half, then high half), which keeps the sort stable; then a key's slot is
// its digit's running start in this tile plus its place in the digit's run in the chunk, where
// runs begin at the keys whose left neighbour has another digit.
__kernel __attribute__((reqd_work_group_size(SORT_WG, 1, 1))) void radix_scatter8(
    __global const ulong* restrict keysIn, __global const uint* restrict valsIn,
    __global ulong* restrict keysOut, __global uint* restrict valsOut, const int n,
    const int shift, const int tileKeys, __global const uint* restrict offsets, const int tiles) {
    __local uint base[256];      // next slot of each digit for this tile
    __local uint runStart[256];  // first place of each digit's run in the sorted chunk
    __local uint sums[SORT_WG];
    __local uint4 scan[SORT_WG];
    __local ulong chunkKey[SORT_WG];
    __local uint chunkVal[SORT_WG];
    const int lid = get_local_id(0), tile = get_group_id(0);
    // Digit starts: exclusive scan of the digit totals, PER consecutive digits per work-item.
#define PER (256 / SORT_WG)
    {
        uint t[PER];
        uint s = 0;
        for (int k = 0; k < PER; ++k) {
            t[k] = offsets[256 * tiles + lid * PER + k];
            s += t[k];
        }
        sums[lid] = s;
        scanInclusive(sums, lid, SORT_WG);
        uint run = sums[lid] - s;
        for (int k = 0; k < PER; ++k) {
            const int d = lid * PER + k;
            base[d] = run + offsets[d * tiles + tile];
            run += t[k];
        }
    }
#undef PER
    const int start = tile * tileKeys, end = min(start + tileKeys, n);
    ulong nextKey = start + lid < end ? keysIn[start + lid] : 0;
    uint nextVal = start + lid < end ? valsIn[start + lid] : 0;
    for (int c = start; c < end; c += SORT_WG) {
        const int m = min(SORT_WG, end - c);  // keys in this chunk
        const bool valid = lid < m;
        ulong key = nextKey;
        uint val = nextVal;
        if (c + lid + SORT_WG < end) {
            nextKey = keysIn[c + lid + SORT_WG];
            nextVal = valsIn[c + lid + SORT_WG];
        }
        for (int from = 0; from < 8; from += 4) {
            const uint at = nibbleSlot((uint)(key >> (shift + from)) & 15u, valid, scan, lid);
            if (valid) {
                chunkKey[at] = key;
                chunkVal[at] = val;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (valid) {
                key = chunkKey[lid];
                val = chunkVal[lid];
            }
        }
        const uint d = (uint)(key >> shift) & 255u;
        if (valid && (lid == 0 || ((uint)(chunkKey[lid - 1] >> shift) & 255u) != d))
            runStart[d] = lid;
        const bool last = valid && (lid == m - 1 || ((uint)(chunkKey[lid + 1] >> shift) & 255u) != d);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (valid) {
            const uint dst = base[d] + (uint)lid - runStart[d];
            keysOut[dst] = key;
            valsOut[dst] = val;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // every base[] and runStart[] read
        if (last) base[d] += (uint)lid + 1 - runStart[d];
    }
}

// ---- build -------------------------------------------------------------------------------------

__kernel void gather_sorted(__global const float4* restrict pos, __global const uint* restrict index,
                            const int n, __global float4* restrict sorted) {
    const int i = get_global_id(0);
    if (i < n) sorted[i] = pos[index[i]];
}

// Length of the common prefix of keys i and j, with the index as tie-break (identical keys still
// differ in their position), or -1 when j is outside [0, n).
static inline int prefix(__global const ulong* keys, const int n, const int i, const int j) {
    if (j < 0 || j >= n) return -1;
    const ulong a = keys[i], b = keys[j];
    if (a == b) return 64 + (int)clz((uint)i ^ (uint)j);
    return (int)clz(a ^ b);
}

// Node i's range [first, last] and split (Karras 2012, figure 4), P(j) the common prefix of the
// keys i and j (-1 outside the bodies).
#define KARRAS_NODE(i, P, first, last, split)                                                 \
    do {                                                                                       \
        const int d_ = P((i) + 1) - P((i)-1) > 0 ? 1 : -1;                                     \
        const int minPrefix_ = P((i)-d_);                                                      \
        int lmax_ = 2;                                                                         \
        while (P((i) + lmax_ * d_) > minPrefix_) lmax_ <<= 1; /* past n it is -1 */            \
        int l_ = 0;                                                                            \
        for (int t_ = lmax_ >> 1; t_ >= 1; t_ >>= 1)                                           \
            if (P((i) + (l_ + t_) * d_) > minPrefix_) l_ += t_;                                \
        const int j_ = (i) + l_ * d_;                                                          \
        const int nodePrefix_ = P(j_);                                                         \
        int s_ = 0;                                                                            \
        for (int div_ = 2, t_ = l_;; div_ <<= 1) {                                             \
            t_ = (l_ + div_ - 1) / div_;                                                       \
            if (P((i) + (s_ + t_) * d_) > nodePrefix_) s_ += t_;                               \
            if (t_ <= 1) break;                                                                \
        }                                                                                      \
        split = (i) + s_ * d_ + min(d_, 0);                                                    \
        first = min((i), j_);                                                                  \
        last = max((i), j_);                                                                   \
    } while (0)

// Node i's children from its range and split (a leaf as ~body), with the children's parents;
// clears the counter the moments climb with.
static inline void writeNode(const int i, const int first, const int last, const int split,
                             __global int2* restrict children, __global int2* restrict ranges,
                             __global int* restrict nodeParent, __global int* restrict leafParent,
                             __global int* restrict visits) {
    const int left = first == split ? ~split : split;
    const int right = last == split + 1 ? ~(split + 1) : split + 1;
    children[i] = (int2)(left, right);
    ranges[i] = (int2)(first, last);
    if (left < 0) leafParent[split] = i; else nodeParent[split] = i;
    if (right < 0) leafParent[split + 1] = i; else nodeParent[split + 1] = i;
    if (i == 0) nodeParent[0] = -1;
    visits[i] = 0;
}

// One work-item per internal node i (0 .. n-2), Karras 2012, figure 4. Also clears the counters
// the moments pass climbs with.
__kernel void build_radix_tree(__global const ulong* restrict keys, const int n,
                               __global int2* restrict children, __global int2* restrict ranges,
                               __global int* restrict nodeParent, __global int* restrict leafParent,
                               __global int* restrict visits) {
    const int i = get_global_id(0);
    if (i >= n - 1) return;
    int first, last, split;
#define P(j) prefix(keys, n, i, (j))
    KARRAS_NODE(i, P, first, last, split);
#undef P
    writeNode(i, first, last, split, children, ranges, nodeParent, leafParent, visits);
}

// Walk groups: the largest subtrees holding at most GROUP bodies. They partition the bodies into
// runs of consecutive sorted bodies that share a key prefix, so each group is compact in space (a
// run of GROUP sorted bodies can straddle a jump of the curve and span half the system). One
// work-item per internal node: a node of more than GROUP bodies emits each child that has at most
// GROUP.
// counters[1] counts the groups; groups[g] = (first, last) sorted body, in no particular order.
// With markStarts, starts[] (one bit a body, cleared before) gets each group's first body marked,
// for order_groups.
static inline void emitGroup(__global int2* groups, __global int* counters,
                             __global uint* starts, const int markStarts, const int2 r) {
    groups[atomic_inc(&counters[1])] = r;
    if (markStarts) atomic_or(&starts[r.x >> 5], 1u << (r.x & 31));
}

// Node i (range r) emits each child of at most GROUP bodies when it holds more; the root of at most
// GROUP is the one group.
static inline void emitNodeGroups(const int i, const int2 r, __global const int2* restrict children,
                                  __global const int2* restrict ranges, __global int2* groups,
                                  __global int* counters, __global uint* starts,
                                  const int markStarts) {
    if (r.y - r.x + 1 <= GROUP) {
        if (i == 0) emitGroup(groups, counters, starts, markStarts, r);  // one group: the tree
        return;
    }
    const int2 ch = children[i];
    for (int k = 0; k < 2; ++k) {
        const int c = k ? ch.y : ch.x;
        const int2 cr = c < 0 ? (int2)(~c, ~c) : ranges[c];
        if (cr.y - cr.x + 1 <= GROUP) emitGroup(groups, counters, starts, markStarts, cr);
    }
}

__kernel void find_groups(__global const int2* restrict children,
                          __global const int2* restrict ranges, const int n,
                          __global int2* restrict groups, __global int* restrict counters,
                          __global uint* restrict starts, const int markStarts) {
    const int i = get_global_id(0);
    if (n == 1 && i == 0) emitGroup(groups, counters, starts, markStarts, (int2)(0, 0));
    if (i >= n - 1) return;
    emitNodeGroups(i, ranges[i], children, ranges, groups, counters, starts, markStarts);
}

// ---- walk groups in body order (the pieces of a split walk) ------------------------------------
// The groups tile the sorted bodies, so a group's rank in body order is the number of group starts
// before its first body: prefix counts of the start bits give it. A piece of the sorted bodies is
// then one run of ranks, which its walk takes groups from (piece_groups), instead of passing over
// every group of the tree to find its own.
// Per word of starts[]: wordBefore[w] = the starts in the words before w of its block of ORDER_WG
// words; blockCount[b] = the block's starts (made a prefix by group_block_prefix).
#define ORDER_WG 256

static inline uint scanLocal(__local uint* s, const int lid, const uint mine) {  // inclusive
    s[lid] = mine;
    for (int d = 1; d < ORDER_WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint v = lid >= d ? s[lid - d] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[lid] += v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return s[lid];
}

__kernel __attribute__((reqd_work_group_size(ORDER_WG, 1, 1))) void group_start_counts(
    __global const uint* restrict starts, const int words, __global uint* restrict wordBefore,
    __global uint* restrict blockCount) {
    __local uint s[ORDER_WG];
    const int w = get_global_id(0), lid = get_local_id(0);
    const uint c = w < words ? popcount(starts[w]) : 0u;
    const uint upTo = scanLocal(s, lid, c);
    if (w < words) wordBefore[w] = upTo - c;
    if (lid == ORDER_WG - 1) blockCount[get_group_id(0)] = upTo;
}

// One work-group: blockCount[b] becomes the starts in the blocks before b.
__kernel __attribute__((reqd_work_group_size(ORDER_WG, 1, 1))) void group_block_prefix(
    __global uint* blockCount, const int blocks) {
    __local uint s[ORDER_WG];
    const int lid = get_local_id(0);
    uint carry = 0;
    for (int base = 0; base < blocks; base += ORDER_WG) {
        const int b = base + lid;
        const uint c = b < blocks ? blockCount[b] : 0u;
        const uint upTo = scanLocal(s, lid, c);
        if (b < blocks) blockCount[b] = carry + upTo - c;
        carry += s[ORDER_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);  // s[] read by all before the next round writes it
    }
}

// Group starts at sorted bodies before x (0 <= x <= n).
static inline int startsBefore(__global const uint* starts, __global const uint* wordBefore,
                               __global const uint* blockCount, const int x) {
    const int w = x >> 5;
    const uint below = starts[w] & ((1u << (x & 31)) - 1u);
    return (int)(blockCount[w / ORDER_WG] + wordBefore[w] + popcount(below));
}

__kernel void order_groups(__global const int2* restrict groups,
                           __global const int* restrict counters,
                           __global const uint* restrict starts,
                           __global const uint* restrict wordBefore,
                           __global const uint* restrict blockCount,
                           __global int2* restrict ordered) {
    const int g = get_global_id(0);
    if (g >= counters[1]) return;
    const int2 r = groups[g];
    ordered[startsBefore(starts, wordBefore, blockCount, r.x)] = r;
}

// The ranks [counters[2], counters[3]) of the groups holding a body of [begin, end): from the
// group of body begin (the last start at or before it) to the last start before end.
__kernel void piece_groups(__global const uint* restrict starts,
                           __global const uint* restrict wordBefore,
                           __global const uint* restrict blockCount, const int begin,
                           const int end, __global int* counters) {
    if (get_global_id(0) != 0) return;
    const int first = begin < end ? startsBefore(starts, wordBefore, blockCount, begin + 1) - 1 : 0;
    counters[2] = first;
    counters[3] = begin < end ? startsBefore(starts, wordBefore, blockCount, end) : 0;
}

// ---- moments -----------------------------------------------------------------------------------

// One work-item per leaf climbs towards the root; at each node the second arrival (both children
// done) computes it. Node data goes through volatile pointers and a global fence before the
// counter, so the other child's writes are seen. Each climb is at most n - 1 steps.
// nodeCom = (centre of mass, mass); nodeQa/nodeQb = traceless quadrupole about the centre of mass,
// sum m (3 y y^T - |y|^2 I), as (xx, yy, zz, xy) and (xz, yz); nodeLo/nodeHi = bounds of
// the bodies (nodeLo.w: the distance from the centre of mass to the bounds' farthest corner);
// crit = opening radius l / theta + |com - centre of the bounds| (l: longest side), INFINITY when
// theta == 0.
// The climb from `node` (a parent of the work-item's start) towards the root, shared by the
// kernels below so that every node's figures come from the same code wherever it is computed. It
// ends at a parent below 0: the root's, or (split build) PARENT_ELSEWHERE, the parent of a domain's
// subtree, which lies across domains (computed by moments_across once every domain's are in).
static inline void climbMoments(
    int node, __global const float4* restrict sorted, const int n,
    __global const int2* restrict children, __global const int* restrict nodeParent,
    __global int* visits, volatile __global float4* nodeCom, volatile __global float4* nodeQa,
    volatile __global float2* nodeQb, volatile __global float4* nodeLo,
    volatile __global float4* nodeHi, volatile __global float* crit, const float theta) {
    for (int steps = 0; node >= 0 && steps < n; ++steps) {
        // This child's moments (written last round) out, the other child's in, device-wide.
        if (deviceArrive(&visits[node]) == 0) return;  // the other child is not done yet
        const int2 ch = children[node];
        float4 c[2], qa[2], lo[2], hi[2];
        float2 qb[2];
        for (int k = 0; k < 2; ++k) {
            const int child = k ? ch.y : ch.x;
            if (child < 0) {
                const float4 p = sorted[~child];
                c[k] = p;
                qa[k] = (float4)(0);
                qb[k] = (float2)(0);
                lo[k] = hi[k] = (float4)(p.x, p.y, p.z, 0);
            } else {
                c[k] = nodeCom[child];
                qa[k] = nodeQa[child];
                qb[k] = nodeQb[child];
                lo[k] = nodeLo[child];
                hi[k] = nodeHi[child];
            }
        }
        float4 mn = fmin(lo[0], lo[1]);
        const float4 mx = fmax(hi[0], hi[1]);
        const float m = c[0].w + c[1].w;
        const float4 centre = 0.5f * (mn + mx);
        // A step from one child towards the other, not (m0 c0 + m1 c1) / m: coincident children
        // give their position exactly (whatever FMA contraction does), so bodies on one point
        // feel exactly no force from their own cell.
        float4 com = m > 0 ? c[0] + (c[1] - c[0]) * (c[1].w / m) : centre;
        com.w = m;
        const float4 e = mx - mn;
        const float side = fmax(fmax(e.x, e.y), e.z);
        const float dx = com.x - centre.x, dy = com.y - centre.y, dz = com.z - centre.z;
        const float offset = sqrt(dx * dx + dy * dy + dz * dz);
        // Parallel-axis shift of each child's quadrupole to the new centre of mass.
        float4 qa2 = qa[0] + qa[1];
        float2 qb2 = qb[0] + qb[1];
        for (int k = 0; k < 2; ++k) {
            const float4 d = c[k] - com;
            const float d2 = d.x * d.x + d.y * d.y + d.z * d.z, mk = c[k].w;
            qa2 += mk * (float4)(3 * d.x * d.x - d2, 3 * d.y * d.y - d2, 3 * d.z * d.z - d2,
                                 3 * d.x * d.y);
            qb2 += mk * (float2)(3 * d.x * d.z, 3 * d.y * d.z);
        }
        // Traceless exactly (zz = -(xx + yy), as it is in exact arithmetic): a walk record then
        // carries xx and yy only, and its receiver's zz has the same bits as this one.
        qa2.z = -(qa2.x + qa2.y);
        nodeCom[node] = com;
        nodeQa[node] = qa2;
        nodeQb[node] = qb2;
        // The cell's extent about its centre of mass (the farthest corner of its bounds), in the
        // free w of its lower corner: the far-field rule of the group walk (FAR_FIELD) reads it.
        const float cx = fmax(com.x - mn.x, mx.x - com.x), cy = fmax(com.y - mn.y, mx.y - com.y),
                    cz = fmax(com.z - mn.z, mx.z - com.z);
        mn.w = sqrt(cx * cx + cy * cy + cz * cz);
        nodeLo[node] = mn;
        nodeHi[node] = mx;
        crit[node] = theta > 0 ? side / theta + offset : INFINITY;
        node = nodeParent[node];
    }
}

#define MOMENTS_PARAMS                                                                          \
    __global const float4 *restrict sorted, const int n, __global const int2 *restrict children, \
        __global const int *restrict nodeParent, __global const int *restrict leafParent,        \
        __global int *visits, volatile __global float4 *nodeCom,                                 \
        volatile __global float4 *nodeQa, volatile __global float2 *nodeQb,                      \
        volatile __global float4 *nodeLo, volatile __global float4 *nodeHi,                      \
        volatile __global float *crit, const float theta
#define MOMENTS_ARGS                                                                            \
    sorted, n, children, nodeParent, visits, nodeCom, nodeQa, nodeQb, nodeLo, nodeHi, crit, theta

// Every node, from every leaf.
__kernel void moments(MOMENTS_PARAMS) {
    const int leaf = get_global_id(0);
    if (leaf >= n || n < 2) return;
    climbMoments(leafParent[leaf], MOMENTS_ARGS);
}

// Split build: the nodes within the domain [lo, hi) of the sorted bodies, from its leaves (the
// domain's own build links no node to a parent across domains: build_domain_tree).
__kernel void moments_domain(MOMENTS_PARAMS, const int lo, const int hi) {
    const int leaf = lo + get_global_id(0);
    if (leaf >= hi || n < 2) return;
    climbMoments(leafParent[leaf], MOMENTS_ARGS);
}

// Split build: the nodes across domains, from the roots of the domains' subtrees below them
// (roots[0 .. *count), a leaf as ~body), whose figures are in by then.
__kernel void moments_across(MOMENTS_PARAMS, __global const int* restrict roots,
                             __global const int* restrict count) {
    const int k = get_global_id(0);
    if (k >= count[0] || n < 2) return;
    const int r = roots[k];
    climbMoments(r < 0 ? leafParent[~r] : nodeParent[r], MOMENTS_ARGS);
}

// ---- split build: local essential trees (NbodyMultiDevice, TreeForce::buildDomainSorted) ------
// Each device sorts only a window of the global sorted order (its domain [lo, hi) and a group's
// bodies either side; TreeWindowSelect picks them), builds the nodes within its domain and
// computes their moments. The nodes across domains (the top of the tree) it builds with its
// neighbours' prefix tables (the common prefixes at their ends), and every device gets them, with
// the roots of every domain's subtrees below them, from which it computes their moments; each
// device sends each other the nodes and bodies of its domain that the other's walk may read (the
// local essential tree, judged against that domain's cells), grafted at the same indices. Every
// figure comes from the same code on the same inputs, so each walk reads what one device's would.
// A node record is 6 float4: com, qa, (qb, crit, index), lo, hi, (children, range); a body
// record an int2 (sorted position, body index): the receiver has every body's position.
#define RECORD 6
// Node parents a domain's own build does not know (its root's parent lies across domains).
#define PARENT_ELSEWHERE (-2)

static inline bool within(const int2 r, const int lo, const int hi) {
    return r.x >= lo && r.y < hi;
}

// The common prefix of keys i and j (global sorted positions) from the window's keys (key of
// position x at keys[x - w0]), with the position as tie-break.
static inline int windowPrefix(__global const ulong* keys, const int w0, const int i, const int j) {
    const ulong a = keys[i - w0], b = keys[j - w0];
    if (a == b) return 64 + (int)clz((uint)i ^ (uint)j);
    return (int)clz(a ^ b);
}

// A node's common prefix with body j clamped into the window [w0, w0 + m): never less than the
// true one (keys are sorted), so a node the clamp lets reach the window's end lies across domains.
static inline int clampedPrefix(__global const ulong* keys, const int w0, const int m, const int n,
                                const int i, const int j) {
    if (j < 0 || j >= n) return -1;
    return windowPrefix(keys, w0, i, clamp(j, w0, w0 + m - 1));
}

// The nodes with index in [lo, hi) (< n - 1): within the domain, written whole; across domains,
// listed in across[atomic_inc(&counters[4])] with the range (-1, -1) for now (build_across). The
// parents of the domain's bodies and nodes were set to PARENT_ELSEWHERE before.
__kernel void build_domain_tree(__global const ulong* restrict keys, const int w0, const int m,
                                const int lo, const int hi, const int n,
                                __global int2* restrict children, __global int2* restrict ranges,
                                __global int* restrict nodeParent,
                                __global int* restrict leafParent, __global int* restrict visits,
                                __global int* restrict across, __global int* counters) {
    const int i = lo + get_global_id(0);
    if (i >= hi || i >= n - 1) return;
    int first, last, split;
#define P(j) clampedPrefix(keys, w0, m, n, i, (j))
    KARRAS_NODE(i, P, first, last, split);
#undef P
    if (!within((int2)(first, last), lo, hi)) {
        ranges[i] = (int2)(-1, -1);
        across[atomic_inc(&counters[4])] = i;
        return;
    }
    writeNode(i, first, last, split, children, ranges, nodeParent, leafParent, visits);
}

// Prefix tables (one per domain, TABLE ints): [0] lo, [1] hi, [2] the common prefix of its last
// key and the next domain's first (-1: none), [3] the least prefix of two neighbours within it,
// [4 + L] the first position k with prefix(k, k + 1) <= L (INT_MAX: none), [4 + PREFIXES + L]
// the last (-1: none). Prefixes are 0 .. 95 (63 key bits, then 32 of the position).
#define PREFIXES 96
#define TABLE (4 + 2 * PREFIXES)
#define PREFIX_NONE 1000

// Each work-group of DROPS_WG work-items takes DROPS_WG * DROPS_PER_ITEM neighbour pairs (k, k + 1)
// of the domain and writes, for each prefix p, the first and the last k whose pair has prefix
// exactly p (INT_MAX and -1: none) to partials[2 * PREFIXES * group ..]. A few prefixes take most
// pairs, so a global atomic per pair queued on a few addresses (issue 32, session 12): each
// work-item sends a prefix to the group's local table only at its first pair with it (in k
// order for the firsts, backwards for the lasts), and the group writes its table once.
#define DROPS_WG 256
#define DROPS_PER_ITEM 64
__kernel __attribute__((reqd_work_group_size(DROPS_WG, 1, 1))) void domain_drops(
    __global const ulong* restrict keys, const int w0, const int lo, const int hi,
    __global int* restrict partials) {
    __local int firsts[PREFIXES], lasts[PREFIXES];
    const int l = get_local_id(0);
    for (int p = l; p < PREFIXES; p += DROPS_WG) {
        firsts[p] = INT_MAX;
        lasts[p] = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int base = lo + (int)get_group_id(0) * DROPS_WG * DROPS_PER_ITEM + l;
    uint seen[3] = {0, 0, 0};  // PREFIXES bits
    for (int j = 0; j < DROPS_PER_ITEM; ++j) {
        const int k = base + j * DROPS_WG;
        if (k >= hi - 1) break;
        const int p = windowPrefix(keys, w0, k, k + 1);
        const uint bit = 1u << (p & 31);
        if (seen[p >> 5] & bit) continue;
        seen[p >> 5] |= bit;
        atomic_min(&firsts[p], k);
    }
    seen[0] = seen[1] = seen[2] = 0;
    for (int j = DROPS_PER_ITEM - 1; j >= 0; --j) {
        const int k = base + j * DROPS_WG;
        if (k >= hi - 1) continue;
        const int p = windowPrefix(keys, w0, k, k + 1);
        const uint bit = 1u << (p & 31);
        if (seen[p >> 5] & bit) continue;
        seen[p >> 5] |= bit;
        atomic_max(&lasts[p], k);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global int* out = partials + 2 * PREFIXES * get_group_id(0);
    for (int p = l; p < PREFIXES; p += DROPS_WG) {
        out[p] = firsts[p];
        out[PREFIXES + p] = lasts[p];
    }
}

// One work-group of DROPS_FINISH_WG: the groups' partial tables (domain_drops) into the domain's
// table, the firsts and lasts at or below each prefix, and its ends.
#define DROPS_FINISH_WG 128
__kernel __attribute__((reqd_work_group_size(DROPS_FINISH_WG, 1, 1))) void domain_drops_finish(
    __global const ulong* restrict keys, const int w0, const int lo, const int hi, const int n,
    __global const int* restrict partials, const int groups, __global int* table) {
    __local int firsts[PREFIXES], lasts[PREFIXES];
    const int l = get_local_id(0);
    for (int p = l; p < PREFIXES; p += DROPS_FINISH_WG) {
        int f = INT_MAX, e = -1;
        for (int g = 0; g < groups; ++g) {
            f = min(f, partials[2 * PREFIXES * g + p]);
            e = max(e, partials[2 * PREFIXES * g + PREFIXES + p]);
        }
        firsts[p] = f;
        lasts[p] = e;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l != 0) return;
    table[0] = lo;
    table[1] = hi;
    table[2] = lo < hi && hi < n ? windowPrefix(keys, w0, hi - 1, hi) : -1;
    int f = INT_MAX, e = -1;
    table[3] = PREFIX_NONE;
    for (int p = 0; p < PREFIXES; ++p) {
        f = min(f, firsts[p]);
        e = max(e, lasts[p]);
        table[4 + p] = f;
        table[4 + PREFIXES + p] = e;
        if (f != INT_MAX && table[3] == PREFIX_NONE) table[3] = p;
    }
}

// The least prefix of neighbours in [t.lo, j) and in [j, t.hi) of one domain's table t.
static inline int prefixFromStart(__global const int* t, const int j) {
    for (int p = 0; p < PREFIXES; ++p)
        if (t[4 + p] < j) return p;
    return PREFIX_NONE;
}

static inline int prefixToEnd(__global const int* t, const int j) {
    for (int p = 0; p < PREFIXES; ++p)
        if (t[4 + PREFIXES + p] >= j) return p;
    return PREFIX_NONE;
}

// The common prefix of keys i (in this domain [lo, hi)) and j (anywhere): that of sorted keys is
// the least of their neighbours' between them, so beyond the domain it comes from the tables.
static inline int tablePrefix(__global const ulong* keys, const int w0, const int lo, const int hi,
                              const int n, __global const int* tables, const int domains,
                              const int self, const int i, const int j) {
    if (j < 0 || j >= n) return -1;
    if (j >= lo && j < hi) return windowPrefix(keys, w0, i, j);
    int m;
    if (j > i) {
        m = i < hi - 1 ? windowPrefix(keys, w0, i, hi - 1) : PREFIX_NONE;
        for (int e = self; e + 1 < domains;) {
            m = min(m, tables[e * TABLE + 2]);
            do ++e;
            while (e + 1 < domains && tables[e * TABLE] == tables[e * TABLE + 1]);
            __global const int* t = tables + e * TABLE;
            if (j < t[1]) return min(m, prefixFromStart(t, j));
            m = min(m, t[3]);
        }
    } else {
        m = i > lo ? windowPrefix(keys, w0, lo, i) : PREFIX_NONE;
        for (int e = self; e > 0;) {
            do --e;
            while (e > 0 && tables[e * TABLE] == tables[e * TABLE + 1]);
            __global const int* t = tables + e * TABLE;
            m = min(m, t[2]);
            if (j >= t[0]) return min(m, prefixToEnd(t, j));
            m = min(m, t[3]);
        }
    }
    return -1;  // tables that do not tile the bodies
}

static inline void writeRecord(__global float4* restrict out, const int node,
                               __global const int2* restrict children,
                               __global const int2* restrict ranges,
                               __global const float4* restrict nodeCom,
                               __global const float4* restrict nodeQa,
                               __global const float2* restrict nodeQb,
                               __global const float4* restrict nodeLo,
                               __global const float4* restrict nodeHi,
                               __global const float* restrict crit) {
    const float2 qb = nodeQb[node];
    const int2 ch = children[node], r = ranges[node];
    out[0] = nodeCom[node];
    out[1] = nodeQa[node];
    out[2] = (float4)(qb.x, qb.y, crit[node], as_float(node));
    out[3] = nodeLo[node];
    out[4] = nodeHi[node];
    out[5] = (float4)(as_float(ch.x), as_float(ch.y), as_float(r.x), as_float(r.y));
}

#define NODE_ARRAYS children, ranges, nodeCom, nodeQa, nodeQb, nodeLo, nodeHi, crit

// The nodes across domains listed by build_domain_tree (counters[4] of them), built with the
// tables of every domain; their records (shape only: moments_across computes their figures on
// every device) appended to out at atomic_inc(&counters[5]).
__kernel void build_across(__global const ulong* restrict keys, const int w0, const int lo,
                           const int hi, const int n, __global const int* restrict tables,
                           const int domains, const int self, __global const int* restrict across,
                           __global int* counters, __global int2* restrict children,
                           __global int2* restrict ranges, __global const float4* restrict nodeCom,
                           __global const float4* restrict nodeQa,
                           __global const float2* restrict nodeQb,
                           __global const float4* restrict nodeLo,
                           __global const float4* restrict nodeHi,
                           __global const float* restrict crit, __global float4* restrict out) {
    const int k = get_global_id(0);
    if (k >= counters[4]) return;
    const int i = across[k];
    int first, last, split;
#define P(j) tablePrefix(keys, w0, lo, hi, n, tables, domains, self, i, (j))
    KARRAS_NODE(i, P, first, last, split);
#undef P
    children[i] =
        (int2)(first == split ? ~split : split, last == split + 1 ? ~(split + 1) : split + 1);
    ranges[i] = (int2)(first, last);
    writeRecord(out + RECORD * atomic_inc(&counters[5]), i, NODE_ARRAYS);
}

// Every domain's nodes across domains (records) as the parents of their children, with their
// moments' counters cleared.
__kernel void link_across(__global const float4* restrict records, const int count,
                          __global int* restrict nodeParent, __global int* restrict leafParent,
                          __global int* restrict visits) {
    const int k = get_global_id(0);
    if (k >= count) return;
    __global const float4* in = records + RECORD * k;
    const int node = as_int(in[2].w);
    const int2 ch = (int2)(as_int(in[5].x), as_int(in[5].y));
    for (int c = 0; c < 2; ++c) {
        const int child = c ? ch.y : ch.x;
        if (child < 0)
            leafParent[~child] = node;
        else
            nodeParent[child] = node;
    }
    visits[node] = 0;
    if (node == 0) nodeParent[0] = -1;
}

static inline void emitBody(__global int2* bodies, __global int* counter, const int room,
                            const int j, __global const uint* windowIndex, const int w0) {
    const int at = atomic_inc(counter);
    if (at < room) bodies[at] = (int2)(j, (int)windowIndex[j - w0]);
}

// The roots of this domain's subtrees (a node or body whose parent lies across domains): node
// records at atomic_inc(&counters[1]), body records at atomic_inc(&counters[6]) (room for
// bodyRoom; the count goes on past it), with the bodies of a root of at most LEAF (an opened cell
// of at most LEAF lists its bodies).
__kernel void pack_domain_roots(const int lo, const int hi, const int n,
                                __global const int* restrict nodeParent,
                                __global const int* restrict leafParent,
                                __global const uint* restrict windowIndex, const int w0,
                                __global const int2* restrict children,
                                __global const int2* restrict ranges,
                                __global const float4* restrict nodeCom,
                                __global const float4* restrict nodeQa,
                                __global const float2* restrict nodeQb,
                                __global const float4* restrict nodeLo,
                                __global const float4* restrict nodeHi,
                                __global const float* restrict crit, __global float4* restrict out,
                                __global int2* restrict bodies, const int bodyRoom,
                                __global int* counters) {
    const int j = lo + get_global_id(0);
    if (j >= hi || n < 2) return;
    if (leafParent[j] == PARENT_ELSEWHERE)
        emitBody(bodies, &counters[6], bodyRoom, j, windowIndex, w0);
    if (j >= n - 1 || nodeParent[j] != PARENT_ELSEWHERE) return;
    const int2 r = ranges[j];
    if (!within(r, lo, hi)) return;  // across domains
    writeRecord(out + RECORD * atomic_inc(&counters[1]), j, NODE_ARRAYS);
    if (r.y - r.x + 1 <= LEAF)
        for (int b = r.x; b <= r.y; ++b)
            emitBody(bodies, &counters[6], bodyRoom, b, windowIndex, w0);
}

// Body records (from other devices) into the sorted positions, from every body's position.
// records[k] = (sorted place, body) for k up to end (from the launch's global offset on).
__kernel void graft_bodies(__global const int2* restrict records, const int end,
                           __global const float4* restrict pos, __global float4* restrict sorted) {
    const int k = get_global_id(0);
    if (k >= end) return;
    const int2 r = records[k];
    sorted[r.x] = pos[r.y];
}

// The window's bodies into their sorted positions, and their indices into the global index
// (whose other domains' slices come from the other devices). Also clears what the build starts
// from (a fill command each cost more than this): the split counters (zeroCount words), the walk
// groups' start bits (startWords words), and the parents of the domain's nodes and leaves
// [parentsLo, parentsHi) (PARENT_ELSEWHERE until the build links them).
__kernel void gather_window(__global const float4* restrict pos,
                            __global const uint* restrict windowIndex, const int w0, const int m,
                            __global float4* restrict sorted, __global uint* restrict index,
                            __global int* restrict zeroed, const int zeroCount,
                            __global uint* restrict starts, const int startWords,
                            __global int* restrict nodeParent, __global int* restrict leafParent,
                            const int parentsLo, const int parentsHi) {
    const int k = get_global_id(0), stride = get_global_size(0);
    for (int i = k; i < zeroCount; i += stride) zeroed[i] = 0;
    for (int i = k; i < startWords; i += stride) starts[i] = 0u;
    for (int i = parentsLo + k; i < parentsHi; i += stride)
        nodeParent[i] = leafParent[i] = PARENT_ELSEWHERE;
    if (k >= m) return;
    const uint b = windowIndex[k];
    sorted[w0 + k] = pos[b];
    index[w0 + k] = b;
}

// Records (from other devices) into the node arrays at their indices.
__kernel void graft_nodes(__global const float4* restrict records, const int count,
                          __global int2* restrict children, __global int2* restrict ranges,
                          __global float4* restrict nodeCom, __global float4* restrict nodeQa,
                          __global float2* restrict nodeQb, __global float4* restrict nodeLo,
                          __global float4* restrict nodeHi, __global float* restrict crit) {
    const int k = get_global_id(0);
    if (k >= count) return;
    __global const float4* in = records + RECORD * k;
    const float4 c2 = in[2], c5 = in[5];
    const int node = as_int(c2.w);
    nodeCom[node] = in[0];
    nodeQa[node] = in[1];
    nodeQb[node] = (float2)(c2.x, c2.y);
    crit[node] = c2.z;
    nodeLo[node] = in[3];
    nodeHi[node] = in[4];
    children[node] = (int2)(as_int(c5.x), as_int(c5.y));
    ranges[node] = (int2)(as_int(c5.z), as_int(c5.w));
}

// A walk record: what a walk reads of a node, WALK_RECORD floats: com (4), the quadrupole's xx, yy,
// xy, xz, yz (its zz is -(xx + yy): moments keeps it traceless exactly), crit, the node's index,
// the far field's extent (lo.w), the other end of its range, its split. A node's index is one end
// of its range, and its children are its split and the next (leaves where they are its ends).
// 56 bytes: the records are most of what the split build's exchange copies.
#define WALK_RECORD 14

static inline void writeWalkRecord(__global float* restrict out, const int node,
                                   __global const int2* restrict children,
                                   __global const int2* restrict ranges,
                                   __global const float4* restrict nodeCom,
                                   __global const float4* restrict nodeQa,
                                   __global const float2* restrict nodeQb,
                                   __global const float4* restrict nodeLo,
                                   __global const float* restrict crit) {
    const float4 qa = nodeQa[node];
    const float2 qb = nodeQb[node];
    const int2 r = ranges[node];
    const int left = children[node].x;
    vstore4(nodeCom[node], 0, out);
    vstore4((float4)(qa.x, qa.y, qa.w, qb.x), 1, out);
    vstore4((float4)(qb.y, crit[node], as_float(node), nodeLo[node].w), 2, out);
    vstore2((float2)(as_float(r.x == node ? r.y : r.x), as_float(left < 0 ? ~left : left)), 6,
            out);
}

__kernel void graft_walk_nodes(__global const float* restrict records, const int end,
                               __global int2* restrict children, __global int2* restrict ranges,
                               __global float4* restrict nodeCom, __global float4* restrict nodeQa,
                               __global float2* restrict nodeQb, __global float4* restrict nodeLo,
                               __global float* restrict crit) {
    const int k = get_global_id(0);  // from the launch's global offset on
    if (k >= end) return;
    __global const float* in = records + WALK_RECORD * k;
    const float4 q = vload4(1, in), c = vload4(2, in);
    const float2 ends = vload2(6, in);
    const int node = as_int(c.z), other = as_int(ends.x), split = as_int(ends.y);
    const int first = min(node, other), last = max(node, other);
    nodeCom[node] = vload4(0, in);
    nodeQa[node] = (float4)(q.x, q.y, -(q.x + q.y), q.z);
    nodeQb[node] = (float2)(q.w, c.x);
    crit[node] = c.y;
    nodeLo[node] = (float4)(0.0f, 0.0f, 0.0f, c.w);
    children[node] =
        (int2)(first == split ? ~split : split, last == split + 1 ? ~(split + 1) : split + 1);
    ranges[node] = (int2)(first, last);
}

// The bodies another device walks, as boxes for the essential nodes' test: the domain's cells,
// the largest subtrees within it of at most fineMax bodies (a node, or a body whose parent holds
// more or lies across domains). Every walk group within the domain is one of those subtrees or
// lies within one. Each cell goes to cells[atomic_inc(&counters[3])] (room for `room`; the count
// goes on past it) as its bodies' range [first, last] of the sorted order with the index of its
// super cell (its largest ancestor within the domain of at most superMax bodies, or itself) in w;
// cell_boxes turns the range into the bodies' box (lo, hi), the super cell staying in lo.w, and
// the host groups the cells by super cell.
static inline void emitCell(__global float4* cells, __global int* counters, const int room,
                            const int first, const int last, const int super) {
    const int at = atomic_inc(&counters[3]);
    if (at >= room) return;
    cells[2 * at] = (float4)(as_float(first), as_float(last), 0.0f, as_float(super));
}

// The super cell of node (or ~body) c, whose parent is p.
static inline int superCell(int c, int p, __global const int* nodeParent,
                            __global const int2* ranges, const int lo, const int hi,
                            const int superMax, const int n) {
    for (int steps = 0; p >= 0 && steps < n; ++steps) {
        const int2 pr = ranges[p];
        if (!within(pr, lo, hi) || pr.y - pr.x + 1 > superMax) break;
        c = p;
        p = nodeParent[p];
    }
    return c;
}

// The domain's cells from its nodes' shape alone (cell_boxes then gives their boxes), so that they
// can go to the other devices while the moments are computed.
__kernel void domain_cells(const int lo, const int hi, const int fineMax, const int superMax,
                           __global const int* restrict nodeParent,
                           __global const int* restrict leafParent,
                           __global const int2* restrict ranges, const int n,
                           __global float4* restrict cells, const int room,
                           __global int* counters) {
    const int i = lo + get_global_id(0);
    if (i >= hi) return;
    // The body i as a cell of its own.
    const int lp = n > 1 ? leafParent[i] : -1;
    const int2 lpr = lp >= 0 ? ranges[lp] : (int2)(0, n);
    if (lp < 0 || !within(lpr, lo, hi) || lpr.y - lpr.x + 1 > fineMax)
        emitCell(cells, counters, room, i, i,
                 superCell(~i, lp, nodeParent, ranges, lo, hi, superMax, n));
    // The node i.
    if (i >= n - 1) return;
    const int2 r = ranges[i];
    if (!within(r, lo, hi) || r.y - r.x + 1 > fineMax) return;
    const int p = nodeParent[i];
    if (p >= 0) {
        const int2 pr = ranges[p];
        if (within(pr, lo, hi) && pr.y - pr.x + 1 <= fineMax) return;  // inside its parent's
    }
    emitCell(cells, counters, room, r.x, r.y,
             superCell(i, p, nodeParent, ranges, lo, hi, superMax, n));
}

// Each cell domain_cells listed (one work-group a cell): the least and greatest coordinates of its
// bodies, which are a node's bounds from the moments exactly (fmin and fmax of the same values in
// any order), as (lo with the super cell in w, hi).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void cell_boxes(
    __global const float4* restrict sorted, __global const int* restrict counters,
    __global float4* restrict cells, const int room) {
    __local float4 lows[REDUCE_WG], highs[REDUCE_WG];
    const int c = get_group_id(0), lid = get_local_id(0);
    if (c >= min(counters[3], room)) return;
    const float4 head = cells[2 * c];
    const int first = as_int(head.x), last = as_int(head.y);
    if (first == last) {  // a body: itself, whatever its coordinates (a NaN one may be opened)
        if (lid) return;
        const float4 b = sorted[first];
        cells[2 * c] = (float4)(b.x, b.y, b.z, head.w);
        cells[2 * c + 1] = b;
        return;
    }
    float4 mn = (float4)(INFINITY), mx = (float4)(-INFINITY);
    for (int j = first + lid; j <= last; j += REDUCE_WG) {
        const float4 p = sorted[j];
        mn = fmin(mn, p);
        mx = fmax(mx, p);
    }
    reduceBox(lows, highs, lid, mn, mx);
    if (lid) return;
    cells[2 * c] = (float4)(lows[0].x, lows[0].y, lows[0].z, head.w);
    cells[2 * c + 1] = (float4)(highs[0].x, highs[0].y, highs[0].z, 0.0f);
}

// Whether a walk group within the box [bLo, bHi] may open a cell: the walk opens it unless the
// distance from its group's box (within this one) to the centre of mass exceeds crit, and the
// distance from a larger box is never larger (the same float operations, each monotone). A
// margin keeps it so whatever contraction the compiler chose for either.
static inline bool mayOpen(const float4 c, const float r, const float4 bLo, const float4 bHi) {
    const float dx = fmax(fmax(bLo.x - c.x, c.x - bHi.x), 0.0f);
    const float dy = fmax(fmax(bLo.y - c.y, c.y - bHi.y), 0.0f);
    const float dz = fmax(fmax(bLo.z - c.z, c.z - bHi.z), 0.0f);
    const float rr = 1.001f * r;
    return !(dx * dx + dy * dy + dz * dz > rr * rr);
}

// boxes: boxes[0].x = the super cells' count S as an int; boxes[1], boxes[2] the box around them
// all; then S times (lo, hi, (first, count) of its cells as ints); then the cells (lo, hi), a super
// cell's consecutive. Most nodes lie far from the other domain: the box around it all turns them
// away with one test instead of one a super cell.
static inline bool mayOpenAny(const float4 c, const float r, __global const float4* boxes) {
    if (!mayOpen(c, r, boxes[1], boxes[2])) return false;
    const int supers = as_int(boxes[0].x);
    for (int s = 0; s < supers; ++s) {
        __global const float4* sup = boxes + 3 + 3 * s;
        if (!mayOpen(c, r, sup[0], sup[1])) continue;
        const int first = as_int(sup[2].x), count = as_int(sup[2].y);
        __global const float4* cell = boxes + 3 + 3 * supers + 2 * first;
        for (int k = 0; k < count; ++k)
            if (mayOpen(c, r, cell[2 * k], cell[2 * k + 1])) return true;
    }
    return false;
}

// What another device's walk (its bodies in `boxes`) may do with each node of this domain, once
// per node: opens[i] bit 0, it may open node i (mayOpenAny); bit 1, node i holds more than LEAF
// bodies (an opened cell of at most LEAF lists its bodies instead of pushing its children).
#define MAY_OPEN 1
#define PUSHES 2
__kernel void essential_flags(const int lo, const int hi, __global const float4* restrict boxes,
                              __global const int2* restrict ranges,
                              __global const float4* restrict nodeCom,
                              __global const float* restrict crit, const int n,
                              __global uchar* restrict opens) {
    const int i = lo + get_global_id(0);
    if (i >= hi || i >= n - 1) return;
    const int2 r = ranges[i];
    if (!within(r, lo, hi)) return;  // across domains: never read (mayPush stops there)
    opens[i] = (mayOpenAny(nodeCom[i], crit[i], boxes) ? MAY_OPEN : 0) |
               (r.y - r.x + 1 > LEAF ? PUSHES : 0);
}

// Whether that walk may push node i of this domain [lo, hi): every ancestor within the domain
// may be opened and pushes its children; a parent across domains counts as one that does.
static inline bool mayPush(const int i, const int lo, const int hi, const int n,
                           __global const int* restrict nodeParent,
                           __global const int2* restrict ranges,
                           __global const uchar* restrict opens) {
    for (int p = nodeParent[i], steps = 0; p >= 0 && steps < n; p = nodeParent[p], ++steps) {
        if (!within(ranges[p], lo, hi)) break;
        if (opens[p] != (MAY_OPEN | PUSHES)) return false;
    }
    return true;
}

// The nodes of this domain that walk may read (mayPush), appended to out (room for `room` walk
// records) at atomic_inc(&counters[2]); the count goes on past the room, for the caller to grow
// it and ask again.
__kernel void essential_nodes(const int lo, const int hi, __global const uchar* restrict opens,
                              __global const int* restrict nodeParent,
                              __global const int2* restrict children,
                              __global const int2* restrict ranges,
                              __global const float4* restrict nodeCom,
                              __global const float4* restrict nodeQa,
                              __global const float2* restrict nodeQb,
                              __global const float4* restrict nodeLo,
                              __global const float* restrict crit, const int n,
                              __global float* restrict out, const int room,
                              __global int* counters) {
    const int i = lo + get_global_id(0);
    if (i >= hi || i >= n - 1) return;
    if (!within(ranges[i], lo, hi)) return;  // across domains: every device has it
    if (!mayPush(i, lo, hi, n, nodeParent, ranges, opens)) return;
    const int at = atomic_inc(&counters[2]);
    if (at < room)
        writeWalkRecord(out + WALK_RECORD * at, i, children, ranges, nodeCom, nodeQa, nodeQb,
                        nodeLo, crit);
}

// The bodies of this domain that walk may read: the bodies of the highest ancestor within the
// domain of at most LEAF (or of the leaf's parent when it holds more) when that node may be pushed
// and opened. Roots' bodies travel with the roots (pack_domain_roots). Appended to out (room for
// `room`) at atomic_inc(&counters[7]).
__kernel void essential_bodies(const int lo, const int hi, __global const uchar* restrict opens,
                               __global const int* restrict nodeParent,
                               __global const int* restrict leafParent,
                               __global const int2* restrict ranges, const int n,
                               __global const uint* restrict windowIndex, const int w0,
                               __global int2* restrict out, const int room,
                               __global int* counters) {
    const int j = lo + get_global_id(0);
    if (j >= hi || n < 2) return;
    int a = leafParent[j];
    if (a < 0) return;  // a root
    for (int steps = 0; steps < n; ++steps) {
        const int q = nodeParent[a];
        if (q < 0) break;
        const int2 qr = ranges[q];
        if (!within(qr, lo, hi) || qr.y - qr.x + 1 > LEAF) break;
        a = q;
    }
    if (!(opens[a] & MAY_OPEN) || !mayPush(a, lo, hi, n, nodeParent, ranges, opens)) return;
    emitBody(out, &counters[7], room, j, windowIndex, w0);
}

// Walk groups of the nodes in list[0 .. count) (the nodes across domains), as find_groups does.
__kernel void find_groups_listed(__global const int* restrict list, const int count,
                                 __global const int2* restrict children,
                                 __global const int2* restrict ranges,
                                 __global int2* restrict groups, __global int* restrict counters,
                                 __global uint* restrict starts, const int markStarts) {
    const int k = get_global_id(0);
    if (k >= count) return;
    const int i = list[k];
    emitNodeGroups(i, ranges[i], children, ranges, groups, counters, starts, markStarts);
}

// Walk groups of this domain's own nodes [lo, hi) (those across domains are listed).
__kernel void find_groups_domain(const int lo, const int hi, const int n,
                                 __global const int2* restrict children,
                                 __global const int2* restrict ranges,
                                 __global int2* restrict groups, __global int* restrict counters,
                                 __global uint* restrict starts, const int markStarts) {
    const int i = lo + get_global_id(0);
    if (n == 1 && i == 0) emitGroup(groups, counters, starts, markStarts, (int2)(0, 0));
    if (i >= hi || i >= n - 1) return;
    const int2 r = ranges[i];
    if (within(r, lo, hi))
        emitNodeGroups(i, r, children, ranges, groups, counters, starts, markStarts);
}

// ---- walk --------------------------------------------------------------------------------------

// A cell: softened point mass plus quadrupole (d = com - p, r^2 = |d|^2 + eps^2):
// a = M d / r^3 - Q d / r^5 + 5/2 (d^T Q d) d / r^7, computed with e = d / r^3 and
// w = (d^T Q e) / r = (d^T Q d) / r^4 as (M + 5/2 w) e - (Q e) / r^2, so that no power of 1/r
// beyond the 4th is formed (r^-7 overflows float for r ~ 1e-6). Its potential,
// -M / r - (d^T Q d) / (2 r^5), is -(M + w / 2) / r, added to phi (the energy diagnostics'
// potential). Written around M + k w so that the radial factor and the potential share w, and
// around e rather than the unit vector d / r so that the radial factor needs no 1 / r^2: 34 FP32
// instructions, one fewer than around d / r (SASS counts in docs/benchmarks.md, issue 31 rounds 3
// and 6).
#define INTERACT_CELL(p, c, qa, qb, ax, ay, az, phi)                              \
    do {                                                                          \
        const float dx = (c).x - (p).x;                                           \
        const float dy = (c).y - (p).y;                                           \
        const float dz = (c).z - (p).z;                                           \
        const float r2 = mad(dx, dx, mad(dy, dy, mad(dz, dz, eps2)));             \
        const float inv = RSQRT(r2);                                              \
        const float inv2 = inv * inv, inv3 = inv2 * inv;                          \
        const float ex = dx * inv3, ey = dy * inv3, ez = dz * inv3;               \
        const float qx = mad((qa).x, ex, mad((qa).w, ey, (qb).x * ez));           \
        const float qy = mad((qa).w, ex, mad((qa).y, ey, (qb).y * ez));           \
        const float qz = mad((qb).x, ex, mad((qb).y, ey, (qa).z * ez));           \
        const float w = mad(dx, qx, mad(dy, qy, dz * qz)) * inv;                  \
        const float radial = mad(2.5f, w, (c).w);                                 \
        ax = mad(radial, ex, mad(-qx, inv2, ax));                                 \
        ay = mad(radial, ey, mad(-qy, inv2, ay));                                 \
        az = mad(radial, ez, mad(-qz, inv2, az));                                 \
        phi = mad(-inv, mad(0.5f, w, (c).w), phi);                                \
    } while (0)

// The shared lists' sums for the first `bodies` of a work-item's bodies, entries first, first +
// step, ... (a split tail warp's parts, see walk): every work-item reads the same entry (a
// broadcast); unrolled so that loads run ahead of the arithmetic. The potential (phi) comes with
// the force for the energy diagnostics.
#define SUM_LISTS(bodies, first, step)                                                           \
    do {                                                                                         \
        _Pragma("unroll 4") for (int k = (first); k < lc; k += (step)) {                         \
            const float4 q = list[k];                                                            \
            for (int b = 0; b < (bodies); ++b)                                                   \
                GRAVITY_PULL_POTENTIAL(p[b], q, eps2, ax[b], ay[b], az[b], phi[b]);              \
        }                                                                                        \
        _Pragma("unroll 8") for (int k = (first); k < cc; k += (step)) {                         \
            const float4 c = cellCom[k], qa = cellQa[k];                                         \
            const float2 qb = cellQb[k];                                                         \
            for (int b = 0; b < (bodies); ++b)                                                   \
                INTERACT_CELL(p[b], c, qa, qb, ax[b], ay[b], az[b], phi[b]);                     \
        }                                                                                        \
    } while (0)

// The walks list a body itself (as they list every body of an opened leaf), which pulls nothing but
// adds -m / eps to its potential: that term is taken out again, with the same rsqrt, so that phi is
// the potential of the other bodies (exact while a cell holding the body is never accepted whole,
// which the opening rule guarantees for theta < 1 / sqrt(3)).
static inline float withoutSelf(const float phi, const float4 p, const float eps2) {
    return mad(p.w, softenedInv(0.0f, 0.0f, 0.0f, eps2), phi);
}

#ifdef FAR_FIELD
// Far field (TreeForceOptions::thetaFar): a cell whose distance R from the walk group's centre x_g
// satisfies (r_g + r_c) < thetaFar R (r_g: the group's radius about x_g, r_c: the cell's extent)
// is not summed by every work-item for its body. The work-item that pops it adds the cell's field's
// Taylor expansion about x_g to its own share of the coefficients at once (no list entry, no room
// taken from the near lists); the shares are summed once per group and each body evaluates
//   a(x)   = a0 + G y + T(y, y) / 2 + U(y, y, y) / 6
//   phi(x) = phi0 - a0.y - y.G y / 2 - y.T(y, y) / 6 - y.U(y, y, y) / 24,   y = x - x_g,
// with G_ij = d a_i / dx_j, T_ijk = d^2 a_i / dx_j dx_k and U_ijkl = d^3 a_i / dx_j dx_k dx_l
// (FAR_ORDER 4; FAR_ORDER 3 stops at T), so the truncation error goes as ((r_g + r_c) / R)^4
// (^3). The coefficients, FAR_COEFFS floats per work-item in its private memory (registers, or
// spilled where the register cap says: written only when the work-item pops a far cell):
// [0] phi0, [1..3] a0, [4..9] G xx yy zz xy xz yz, [10..19] T xxx yyy zzz xxy xxz xyy yyz xzz yzz
// xyz, [20..34] U r_g^3: xxxx yyyy zzzz xxxy xxxz xyyy yyyz xzzz yzzz xxyy xxzz yyzz xxyz xyyz
// xyzz (U kept times r_g^3 and evaluated at y / r_g, so that no M / s^5 is formed).
// The monopole's terms are the derivatives of the softened potential -M / s, s^2 = |d|^2 +
// eps^2, exactly (the same forms as unsoftened with s for r; G then has trace -3 M eps^2 / s^5, so
// all six components are kept). The quadrupole adds to phi0, a0, G and (FAR_ORDER 4) T, written
// with s for r as the near cell term is (its softening is exact only to O(eps^2 / R^2); far cells
// have R >> eps in any sane system, and their quadrupole is (r_c / R)^2 of their monopole): its
// share of T is of the same order in (r_g + r_c) / R as the monopole's U. Every term is formed
// from u = d / s (|u| <= 1), Q / s^2 (~ M r_c^2 / s^2) and r_g / s (< thetaFar) times at most
// 1 / s^4, so nothing beyond M / s^4 is formed: no 1 / s^5 or more to overflow at small scales.
// A cell of zero mass adds zeros.
#ifndef FAR_ORDER  // the host passes it (TreeForceOptions::farOrder)
#define FAR_ORDER 3
#endif
#if FAR_ORDER == 4
#define FAR_COEFFS 35
#elif FAR_ORDER == 3
#define FAR_COEFFS 20
#else
#error "FAR_ORDER must be 3 or 4"
#endif
// The coefficients summed over the work-group per pass through list[] (LIST float4 = 4 LIST floats,
// WG of them per coefficient).
#define FAR_CHUNK min(FAR_COEFFS, 4 * LIST / WG)
static inline void farAccumulate(float* f, const float4 xg, const float rg, const float4 c,
                                 const float4 qa, const float2 qb, const float eps2) {
#define FA(k) f[k]
    const float dx = xg.x - c.x, dy = xg.y - c.y, dz = xg.z - c.z;  // d = x - c
    const float inv = rsqrt(mad(dx, dx, mad(dy, dy, mad(dz, dz, eps2))));
    const float inv2 = inv * inv;
    const float ux = dx * inv, uy = dy * inv, uz = dz * inv;
    const float m1 = c.w * inv, m2 = m1 * inv, m3 = m2 * inv, m4 = m3 * inv;
    // Monopole: phi = -M / s, a = -M u / s^2, G = M (3 u u - I) / s^3,
    // T = M (3 (I u + u I + ...) - 15 u u u) / s^4.
    FA(0) -= m1;
    FA(1) -= m2 * ux;
    FA(2) -= m2 * uy;
    FA(3) -= m2 * uz;
    const float g3 = 3 * m3;
    FA(4) += mad(g3 * ux, ux, -m3);
    FA(5) += mad(g3 * uy, uy, -m3);
    FA(6) += mad(g3 * uz, uz, -m3);
    FA(7) += g3 * ux * uy;
    FA(8) += g3 * ux * uz;
    FA(9) += g3 * uy * uz;
    const float t3 = 3 * m4, t15 = 15 * m4;
    const float xx = ux * ux, yy = uy * uy, zz = uz * uz;
    FA(10) += ux * mad(-t15, xx, 3 * t3);  // xxx
    FA(11) += uy * mad(-t15, yy, 3 * t3);  // yyy
    FA(12) += uz * mad(-t15, zz, 3 * t3);  // zzz
    FA(13) += uy * mad(-t15, xx, t3);      // xxy
    FA(14) += uz * mad(-t15, xx, t3);      // xxz
    FA(15) += ux * mad(-t15, yy, t3);      // xyy
    FA(16) += uz * mad(-t15, yy, t3);      // yyz
    FA(17) += ux * mad(-t15, zz, t3);      // xzz
    FA(18) += uy * mad(-t15, zz, t3);      // yzz
    FA(19) -= t15 * ux * uy * uz;          // xyz
    // Quadrupole, with S = Q / s^2 and w = u.S u: phi = -w / (2 s), a = (S u - 5/2 w u) / s^2,
    // G = (S - 5 (S u u^T + u (S u)^T) - 5/2 w I + 35/2 w u u^T) / s^3.
    const float sxx = qa.x * inv2, syy = qa.y * inv2, szz = qa.z * inv2, sxy = qa.w * inv2,
                sxz = qb.x * inv2, syz = qb.y * inv2;
    const float sx = mad(sxx, ux, mad(sxy, uy, sxz * uz));
    const float sy = mad(sxy, ux, mad(syy, uy, syz * uz));
    const float sz = mad(sxz, ux, mad(syz, uy, szz * uz));
    const float w = mad(ux, sx, mad(uy, sy, uz * sz));
    FA(0) -= 0.5f * w * inv;
    FA(1) += mad(-2.5f * w, ux, sx) * inv2;
    FA(2) += mad(-2.5f * w, uy, sy) * inv2;
    FA(3) += mad(-2.5f * w, uz, sz) * inv2;
    const float i3 = inv2 * inv, w35 = 17.5f * w;
    FA(4) += i3 * (sxx - 10 * sx * ux - 2.5f * w + w35 * xx);
    FA(5) += i3 * (syy - 10 * sy * uy - 2.5f * w + w35 * yy);
    FA(6) += i3 * (szz - 10 * sz * uz - 2.5f * w + w35 * zz);
    FA(7) += i3 * (sxy - 5 * (sx * uy + sy * ux) + w35 * ux * uy);
    FA(8) += i3 * (sxz - 5 * (sx * uz + sz * ux) + w35 * ux * uz);
    FA(9) += i3 * (syz - 5 * (sy * uz + sz * uy) + w35 * uy * uz);
#if FAR_ORDER == 4
    // The quadrupole's T, with Su = S u, over s^4: -5 (S_ij u_k + ...) - 5 (Su_i d_jk + ...)
    // + 35 (Su_i u_j u_k + ...) + 35/2 w (d_ij u_k + ...) - 315/2 w u_i u_j u_k (sums over the
    // three distinct index placements); TQ_III: i = j = k, TQ_IIJ: i = j != k.
    const float i4 = inv2 * inv2;
#define TQ_III(sii, ui, si, ii) \
    (ui * mad(w, mad(-157.5f, ii, 52.5f), -15 * sii) + si * mad(105.0f, ii, -15.0f))
#define TQ_IIJ(sii, sij, ui, uj, si, sj, ii)                                                     \
    (-5 * (mad(2 * sij, ui, sii * uj) + sj) + 35 * mad(2 * si * ui, uj, sj * ii) +               \
     w * uj * mad(-157.5f, ii, 17.5f))
    FA(10) += i4 * TQ_III(sxx, ux, sx, xx);
    FA(11) += i4 * TQ_III(syy, uy, sy, yy);
    FA(12) += i4 * TQ_III(szz, uz, sz, zz);
    FA(13) += i4 * TQ_IIJ(sxx, sxy, ux, uy, sx, sy, xx);  // xxy
    FA(14) += i4 * TQ_IIJ(sxx, sxz, ux, uz, sx, sz, xx);  // xxz
    FA(15) += i4 * TQ_IIJ(syy, sxy, uy, ux, sy, sx, yy);  // xyy
    FA(16) += i4 * TQ_IIJ(syy, syz, uy, uz, sy, sz, yy);  // yyz
    FA(17) += i4 * TQ_IIJ(szz, sxz, uz, ux, sz, sx, zz);  // xzz
    FA(18) += i4 * TQ_IIJ(szz, syz, uz, uy, sz, sy, zz);  // yzz
    FA(19) += i4 * (35 * (sx * uy * uz + sy * ux * uz + sz * ux * uy) -
                    5 * (sxy * uz + sxz * uy + syz * ux) - 157.5f * w * ux * uy * uz);  // xyz
#undef TQ_III
#undef TQ_IIJ
    // The monopole's U times r_g^3: M r_g^3 / s^5 (105 u_i u_j u_k u_l - 15 (d_ij u_k u_l + 5
    // more) + 3 (d_ij d_kl + 2 more)), as M / s^2 (r_g / s)^3.
    const float k = rg * inv, u3 = m2 * (k * k * k);
#define U_IIII(ii) (u3 * mad(ii, mad(105.0f, ii, -90.0f), 9.0f))
#define U_IIIJ(ui, uj, ii) (u3 * ui * uj * mad(105.0f, ii, -45.0f))
#define U_IIJJ(ii, jj) (u3 * mad(105.0f * ii, jj, mad(-15.0f, ii + jj, 3.0f)))
#define U_IIJK(uj, uk, ii) (u3 * uj * uk * mad(105.0f, ii, -15.0f))
    FA(20) += U_IIII(xx);
    FA(21) += U_IIII(yy);
    FA(22) += U_IIII(zz);
    FA(23) += U_IIIJ(ux, uy, xx);  // xxxy
    FA(24) += U_IIIJ(ux, uz, xx);  // xxxz
    FA(25) += U_IIIJ(uy, ux, yy);  // xyyy
    FA(26) += U_IIIJ(uy, uz, yy);  // yyyz
    FA(27) += U_IIIJ(uz, ux, zz);  // xzzz
    FA(28) += U_IIIJ(uz, uy, zz);  // yzzz
    FA(29) += U_IIJJ(xx, yy);
    FA(30) += U_IIJJ(xx, zz);
    FA(31) += U_IIJJ(yy, zz);
    FA(32) += U_IIJK(uy, uz, xx);  // xxyz
    FA(33) += U_IIJK(ux, uz, yy);  // xyyz
    FA(34) += U_IIJK(ux, uy, zz);  // xyzz
#undef U_IIII
#undef U_IIIJ
#undef U_IIJJ
#undef U_IIJK
#endif
#undef FA
}

// The expansion's acceleration and potential at offset y from the group's centre (invRg: 1 / r_g,
// 0 for a group of one point, whose U is 0).
static inline float4 farEvaluate(__local const float* f, const int stride, const float yx,
                                 const float yy, const float yz, const float rg,
                                 const float invRg) {
#define F(k) f[(k) * stride]
    const float gx = mad(F(4), yx, mad(F(7), yy, F(8) * yz));
    const float gy = mad(F(7), yx, mad(F(5), yy, F(9) * yz));
    const float gz = mad(F(8), yx, mad(F(9), yy, F(6) * yz));
    const float xx = yx * yx, yy2 = yy * yy, zz = yz * yz;
    const float xy = 2 * yx * yy, xz = 2 * yx * yz, yz2 = 2 * yy * yz;
    const float tx = F(10) * xx + F(15) * yy2 + F(17) * zz + F(13) * xy + F(14) * xz + F(19) * yz2;
    const float ty = F(13) * xx + F(11) * yy2 + F(18) * zz + F(15) * xy + F(19) * xz + F(16) * yz2;
    const float tz = F(14) * xx + F(16) * yy2 + F(12) * zz + F(19) * xy + F(17) * xz + F(18) * yz2;
    float ax = F(1) + gx + 0.5f * tx, ay = F(2) + gy + 0.5f * ty, az = F(3) + gz + 0.5f * tz;
    // phi0 - y.(a0 + G y / 2 + T(y, y) / 6)
    const float px = F(1) + 0.5f * gx + tx / 6, py = F(2) + 0.5f * gy + ty / 6,
                pz = F(3) + 0.5f * gz + tz / 6;
    float phi = F(0) - mad(yx, px, mad(yy, py, yz * pz));
#if FAR_ORDER == 4
    // v = (r_g^3 U)(e, e, e) at e = y / r_g (|e| <= 1): a += v / 6, phi -= r_g e.v / 24.
    const float ex = yx * invRg, ey = yy * invRg, ez = yz * invRg;
    const float exx = ex * ex, eyy = ey * ey, ezz = ez * ez;
    const float vx =
        ex * (F(20) * exx + 3 * (F(23) * ex * ey + F(24) * ex * ez + F(29) * eyy + F(30) * ezz +
                                 2 * F(32) * ey * ez)) +
        F(25) * ey * eyy + F(27) * ez * ezz + 3 * (F(33) * eyy * ez + F(34) * ey * ezz);
    const float vy =
        ey * (F(21) * eyy + 3 * (F(25) * ey * ex + F(26) * ey * ez + F(29) * exx + F(31) * ezz +
                                 2 * F(33) * ex * ez)) +
        F(23) * ex * exx + F(28) * ez * ezz + 3 * (F(32) * exx * ez + F(34) * ex * ezz);
    const float vz =
        ez * (F(22) * ezz + 3 * (F(27) * ez * ex + F(28) * ez * ey + F(30) * exx + F(31) * eyy +
                                 2 * F(34) * ex * ey)) +
        F(24) * ex * exx + F(26) * ey * eyy + 3 * (F(32) * exx * ey + F(33) * ex * eyy);
    ax += vx / 6;
    ay += vy / 6;
    az += vz / 6;
    phi -= rg * mad(ex, vx, mad(ey, vy, ez * vz)) / 24;
#endif
#undef F
    return (float4)(ax, ay, az, phi);
}
#endif

// Lanes of a warp on NVIDIA: the unit of the tail split in walk (any width is correct).
#define SPLIT_WARP 32

// Each work-group takes walk groups (find_groups) from a shared counter until none are left, so
// that slow groups do not leave compute units idle. A group walks the tree once: a cell is
// accepted (monopole + quadrupole) when its opening radius is smaller than the distance from its
// centre of mass to the group's bounding box, so the rule holds for every body of the group;
// otherwise it is opened. Up to WG cells are popped per iteration, one per work-item, as many as
// the lists have room for whatever each turns out to be (a cell, or up to LEAF bodies); accepted
// cells and bodies go to shared lists, which all work-items sum when one cannot take another pop.
// Bounded: the stack cannot overflow. A radix-tree path is at most 97 nodes long (each level adds
// at least one bit to a common prefix of 64 key + 32 index bits). Popping k cells grows the stack
// by at most k (each pushes two children at most), so up to STACK - 128 - size cells are popped
// (at most WG), which keeps it at most STACK - 128 full; beyond that one cell at a time, depth
// first, which adds at most one entry per level. A group whose walk opens a wide front of cells
// (in a dense core) thus still pops many at a time near the top, not one by one, which had made
// it the launch's straggler (docs/benchmarks.md, session 10). (The direct-sum fallback below,
// counted in counters[0], is a safety net only.) Every node is popped at most once per group, so
// a walk ends after at most 4n + 4 iterations whatever the positions hold (NaN too).
// A group's last warp often holds few bodies (groups average 88 of 128): with BPI 1 and at most 16
// bodies there, its lanes split into `parts` slices of SPLIT_WARP / parts lanes, each summing
// every parts-th list entry for the same bodies, added up at the end, so the warp sums for half
// as long or less instead of issuing with most lanes idle.
// stats[g] = (list entries summed per body, walk iterations) of group g, for the benchmark.
// Split over devices, a device walks only the groups that hold a body of its domain
// shareBegin .. shareEnd - 1 of the Morton order and writes the domain's accelerations, zeros for
// the other bodies (0 .. n: all). A group across a domain boundary is walked by both devices, each
// keeping its own bodies, so a device's nonzero results are exactly its domain's sorted slice.
// writeOthers 0 (a domain walked piece by piece while the pieces already walked, and the other
// devices' slices, are copied in and out) writes the range's bodies and their groups' stats only.
// Built with WALK_IN_BODY_ORDER (the pieces' walk, writeOthers 0): groups[] is order_groups' list
// in body order, and the walk takes the ranks piece_groups left in counters[2] (next) ..
// counters[3] (end) only; stats[g] is then the group of rank g.
// ptxas ignores a register cap (-cl-nv-maxrregcount, TreeForceOptions::walkRegisterCap) on a
// kernel with a required work-group size (PTX .reqntid binds like CUDA's launch bounds): a capped
// build goes without it.
#ifdef WALK_REGISTER_CAP
#define WALK_GROUP_SIZE
#else
#define WALK_GROUP_SIZE __attribute__((reqd_work_group_size(WG, 1, 1)))
#endif
__kernel WALK_GROUP_SIZE void walk(
    __global const float4* restrict sorted, const int n, __global const int2* restrict children,
    __global const int2* restrict ranges, __global const float4* restrict nodeCom,
    __global const float4* restrict nodeQa, __global const float2* restrict nodeQb,
    __global const float* restrict crit, const float eps2, __global const int2* restrict groups,
    __global float4* restrict sortedAcc, __global int* counters, __global int2* restrict stats,
    const int shareBegin, const int shareEnd, const int writeOthers,
    __global const float4* restrict nodeLo, const float thetaFar
#ifdef WALK_IN_BODY_ORDER
    ,
    __global float* restrict packedAcc
#endif
) {
    __local int stack[STACK];
    __local float4 list[LIST];  // also the scratch of the group's bounding-box reduction
#ifdef FAR_FIELD
    // farShare[k]: this work-item's share of expansion coefficient k; farSum[k]: the group's.
    float farShare[FAR_COEFFS];
    __local float farSum[FAR_COEFFS];
    const float thetaFar2 = thetaFar * thetaFar;
#endif
    __local float4 cellCom[CELLS], cellQa[CELLS];
    __local float2 cellQb[CELLS];
    __local int stackSize, listSize, cellSize, group;
    const int lid = get_local_id(0);
#ifdef WALK_IN_BODY_ORDER
    const int groupCount = counters[3];  // piece_groups' end: a piece's run of groups only
#else
    const int groupCount = counters[1];
#endif
    for (;;) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) group = atomic_inc(&counters[2]);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = group;
    if (g >= groupCount) break;
    const int2 range = groups[g];
    const int count = range.y - range.x + 1;
    // Work-item lid holds the group's bodies lid and lid + WG (BPI 2): coalesced loads, and
    // every list entry read from local memory serves BPI bodies.
    float4 p[BPI];
    int body[BPI];
    bool valid[BPI];
    float ax[BPI], ay[BPI], az[BPI], phi[BPI];
    float4 mn = (float4)(INFINITY), mx = (float4)(-INFINITY);
    int lane = lid, part = 0, parts = 1;  // this work-item's body (BPI 1) and its slice of the lists
#if BPI == 1
    const int tail = count % SPLIT_WARP;
    const bool split = tail != 0 && tail <= SPLIT_WARP / 2;  // the same in every work-item
    const int warpFirst = lid - lid % SPLIT_WARP;
    if (split && warpFirst + tail == count) {  // the last warp, holding `tail` bodies
        parts = tail <= SPLIT_WARP / 8 ? 8 : tail <= SPLIT_WARP / 4 ? 4 : 2;
        part = (lid - warpFirst) / (SPLIT_WARP / parts);
        lane = warpFirst + (lid - warpFirst) % (SPLIT_WARP / parts);
    }
#endif
    for (int b = 0; b < BPI; ++b) {
        valid[b] = lane + b * WG < count;
        body[b] = range.x + (valid[b] ? lane + b * WG : 0);
        ax[b] = ay[b] = az[b] = phi[b] = 0;
    }
    if (range.y < shareBegin || range.x >= shareEnd ||
        shareBegin >= shareEnd) {  // other devices' domains: they add a
        if (!writeOthers) continue;  // here, this device 0 (uniform branch)
        for (int b = 0; b < BPI; ++b)
            if (valid[b] && part == 0) sortedAcc[body[b]] = (float4)(0);
        if (lid == 0) stats[g] = (int2)(0, 0);
        continue;
    }
    for (int b = 0; b < BPI; ++b) {
        p[b] = sorted[body[b]];
        if (valid[b]) {
            mn = fmin(mn, (float4)(p[b].x, p[b].y, p[b].z, 0));
            mx = fmax(mx, (float4)(p[b].x, p[b].y, p[b].z, 0));
        }
    }

    __local float4* lo = list;
    __local float4* hi = list + WG;
    lo[lid] = mn;
    hi[lid] = mx;
    for (int s = WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) {
            lo[lid] = fmin(lo[lid], lo[lid + s]);
            hi[lid] = fmax(hi[lid], hi[lid + s]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const float4 gLo = lo[0], gHi = hi[0];
#ifdef FAR_FIELD
    const float4 xg = 0.5f * (gLo + gHi), he = 0.5f * (gHi - gLo);
    const float rg = sqrt(mad(he.x, he.x, mad(he.y, he.y, he.z * he.z)));
    // 1 / r_g for the fourth order's y / r_g; 0 below any sane group's radius (U ~ r_g^3 is 0 there).
    const float invRg = rg >= 1e-30f ? 1 / rg : 0.0f;
    _Pragma("unroll") for (int k = 0; k < FAR_COEFFS; ++k) farShare[k] = 0;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);  // list[] is the list from here on
    if (lid == 0) {
        stack[0] = n > 1 ? 0 : ~0;
        stackSize = 1;
        listSize = 0;
        cellSize = 0;
    }
    bool overflow = true;  // cleared when the walk ends normally
    int summed = 0, iterations = 0;
#ifdef WALK_PROBE_COUNT
    int cellsSummed = 0, farMine = 0;  // far cells this work-item popped
#endif
    const long maxIterations = 4 * (long)n + 4;
    for (long iter = 0; iter < maxIterations; ++iter) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int sz = stackSize, lc = listSize, cc = cellSize;
        if (sz == 0 && lc == 0 && cc == 0) {
            overflow = false;
            break;
        }
        ++iterations;
        const int room = min((LIST - lc) / LEAF, CELLS - cc);  // pops the lists can absorb
        if (sz == 0 || room == 0) {
            // Work-items without a body skip the sums: whole warps past the group's last body
            // then issue nothing (a group holds fewer bodies than work-items, often).
#ifndef WALK_PROBE_NO_SUMS
#if BPI == 2
            if (valid[1])
                SUM_LISTS(2, 0, 1);
            else
#endif
            if (valid[0]) {
                if (parts == 1)  // the same in a whole warp
                    SUM_LISTS(1, 0, 1);
                else
                    SUM_LISTS(1, part, parts);
            }
#endif
#ifdef WALK_PROBE_COUNT
            cellsSummed += cc;
#endif
            summed += lc + cc;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) listSize = cellSize = 0;
            continue;
        }
        const int take = min(room, sz < STACK - 1 ? min(sz, clamp(STACK - 128 - sz, 1, WG)) : 0);
        if (take == 0) break;  // unreachable (see above); the fallback keeps the result exact
        const int node = lid < take ? stack[sz - 1 - lid] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) stackSize = sz - take;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < take) {
            if (node < 0) {
                list[atomic_inc(&listSize)] = sorted[~node];
            } else {
                const float4 c = nodeCom[node];
                const float r = crit[node];
                const float dx = fmax(fmax(gLo.x - c.x, c.x - gHi.x), 0.0f);
                const float dy = fmax(fmax(gLo.y - c.y, c.y - gHi.y), 0.0f);
                const float dz = fmax(fmax(gLo.z - c.z, c.z - gHi.z), 0.0f);
                if (dx * dx + dy * dy + dz * dz > r * r) {
#ifdef FAR_FIELD
                    const float rc = ((__global const float*)nodeLo)[4 * node + 3];
                    const float fx = c.x - xg.x, fy = c.y - xg.y, fz = c.z - xg.z;
                    const float reach = rg + rc;
                    if (reach * reach < thetaFar2 * mad(fx, fx, mad(fy, fy, fz * fz))) {
#ifndef WALK_PROBE_NO_FAR_ACC
                        farAccumulate(farShare, xg, rg, c, nodeQa[node], nodeQb[node], eps2);
#endif
#ifdef WALK_PROBE_COUNT
                        ++farMine;
#endif
                    } else
#endif
                    {
                        const int at = atomic_inc(&cellSize);
                        cellCom[at] = c;
                        cellQa[at] = nodeQa[node];
                        cellQb[at] = nodeQb[node];
                    }
                } else {
                    const int2 nr = ranges[node];
                    const int count = nr.y - nr.x + 1;
                    if (count <= LEAF) {
                        const int at = atomic_add(&listSize, count);
                        for (int k = 0; k < count; ++k) list[at + k] = sorted[nr.x + k];
                    } else {
                        const int2 ch = children[node];
                        const int at = atomic_add(&stackSize, 2);
                        stack[at] = ch.x;
                        stack[at + 1] = ch.y;
                    }
                }
            }
        }
    }
    if (overflow) {  // uniform: every work-item read the same sizes
        for (int b = 0; b < BPI; ++b) ax[b] = ay[b] = az[b] = phi[b] = 0;
        for (int t = 0; t < n; t += WG) {
            barrier(CLK_LOCAL_MEM_FENCE);
            list[lid] = t + lid < n ? sorted[t + lid] : (float4)(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < WG; ++k)
                for (int b = 0; b < BPI; ++b)
                    GRAVITY_PULL_POTENTIAL(p[b], list[k], eps2, ax[b], ay[b], az[b], phi[b]);
        }
        summed = n;
        if (part != 0) ax[0] = ay[0] = az[0] = phi[0] = 0;  // part 0 holds the whole sum
        if (lid == 0) atomic_inc(&counters[0]);
    }
#if BPI == 1
    // list[] is free once every work-item is past the walk (the first barrier). The barriers are
    // not inside `if (split)`: PoCL 3.1 crashed on that form.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (part != 0) list[lid] = (float4)(ax[0], ay[0], az[0], phi[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (split && part == 0) {
        for (int j = 1; j < parts; ++j) {
            const float4 o = list[lid + j * (SPLIT_WARP / parts)];
            ax[0] += o.x;
            ay[0] += o.y;
            az[0] += o.z;
            phi[0] += o.w;
        }
    }
#endif
#if defined(FAR_FIELD) && !defined(WALK_PROBE_NO_FAR_EVAL)
    // The lanes' coefficients summed, FAR_CHUNK coefficients at a time through list[] (free
    // here; scratch[k * WG + lane] holds lane's share of the chunk's coefficient k): 4 partial
    // sums per coefficient, then those. Then every body evaluates the expansion. Barriers outside
    // `if (!overflow)` (uniform anyway), as above.
    __local float* scratch = (__local float*)list;
    _Pragma("unroll") for (int k0 = 0; k0 < FAR_COEFFS; k0 += FAR_CHUNK) {
        const int count = min(FAR_CHUNK, FAR_COEFFS - k0);
        barrier(CLK_LOCAL_MEM_FENCE);
        _Pragma("unroll") for (int k = 0; k < count; ++k) scratch[k * WG + lid] = farShare[k0 + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = lid; t < 4 * count; t += WG) {
            __local float* row = scratch + (t / 4) * WG + (t % 4) * (WG / 4);
            float sum = 0;
            for (int j = 0; j < WG / 4; ++j)
                sum += row[j];
            row[0] = sum;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = lid; t < count; t += WG) {  // FAR_COEFFS may exceed WG (32)
            __local float* row = scratch + t * WG;
            farSum[k0 + t] = (row[0] + row[WG / 4]) + (row[WG / 2] + row[3 * WG / 4]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!overflow) {
        for (int b = 0; b < BPI; ++b) {
            if (!valid[b] || part != 0) continue;
            const float4 e = farEvaluate(farSum, 1, p[b].x - xg.x, p[b].y - xg.y, p[b].z - xg.z, rg, invRg);
            ax[b] += e.x;
            ay[b] += e.y;
            az[b] += e.z;
            phi[b] += e.w;
        }
    }
#endif
    for (int b = 0; b < BPI; ++b) {
        const bool mine = body[b] >= shareBegin && body[b] < shareEnd;
        if (valid[b] && part == 0 && (mine || writeOthers))
            sortedAcc[body[b]] =
                mine ? (float4)(ax[b], ay[b], az[b], withoutSelf(phi[b], p[b], eps2)) : (float4)(0);
#ifdef WALK_IN_BODY_ORDER
        if (valid[b] && part == 0 && mine)
            vstore3((float3)(ax[b], ay[b], az[b]), body[b], packedAcc);
#endif
    }
#ifdef WALK_PROBE_COUNT
    barrier(CLK_LOCAL_MEM_FENCE);  // list[] is free: the work-items' far counts summed there
    ((__local int*)list)[lid] = farMine;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int far = 0;
        for (int k = 0; k < WG; ++k) far += ((__local int*)list)[k];
        stats[g] = (int2)(cellsSummed, far);
    }
#else
    if (lid == 0) stats[g] = (int2)(summed, iterations);
#endif
    }
}

// The walk for CPU devices: one work-item per body, its own depth-first stack, no barriers or
// local atomics (which a CPU runtime turns into loops over the work-group). Same opening rule
// with the body itself as the group. The stack holds at most depth + 1 <= 98 entries (each pop of
// an opened cell pushes two children one level down), so 128 is safe; the loop is bounded like the
// group walk's. Arguments as walk's (groups unused); stats[i] = (list entries, iterations).
__kernel void walk_body(
    __global const float4* restrict sorted, const int n, __global const int2* restrict children,
    __global const int2* restrict ranges, __global const float4* restrict nodeCom,
    __global const float4* restrict nodeQa, __global const float2* restrict nodeQb,
    __global const float* restrict crit, const float eps2, __global const int2* restrict groups,
    __global float4* restrict sortedAcc, __global int* counters, __global int2* restrict stats,
    const int shareBegin, const int shareEnd, const int writeOthers,
    __global const float4* restrict nodeLo, const float thetaFar,
    __global float* restrict packedAcc) {
    const int i = get_global_id(0);
    if (i >= n) return;
    if (i == 0) counters[1] = n;  // one "group" per body, for TreeForce::lastWalkStats
    if (i < shareBegin || i >= shareEnd) {  // another device's domain (or piece)
        if (!writeOthers) return;
        sortedAcc[i] = (float4)(0);
        stats[i] = (int2)(0, 0);
        return;
    }
    const float4 p = sorted[i];
    int stack[128];
    int sp = 0;
    stack[sp++] = n > 1 ? 0 : ~0;
    float ax = 0, ay = 0, az = 0, phi = 0;
    int summed = 0, iterations = 0;
    const long maxIterations = 4 * (long)n + 4;
    for (long iter = 0; sp > 0 && iter < maxIterations; ++iter) {
        ++iterations;
        const int node = stack[--sp];
        if (node < 0) {
            GRAVITY_PULL_POTENTIAL(p, sorted[~node], eps2, ax, ay, az, phi);
            ++summed;
            continue;
        }
        const float4 c = nodeCom[node];
        const float r = crit[node];
        const float dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
        if (dx * dx + dy * dy + dz * dz > r * r) {
            const float4 qa = nodeQa[node];
            const float2 qb = nodeQb[node];
            INTERACT_CELL(p, c, qa, qb, ax, ay, az, phi);
            ++summed;
            continue;
        }
        const int2 nr = ranges[node];
        if (nr.y - nr.x + 1 <= LEAF || sp > 126) {  // sp > 126 cannot happen (see above)
            for (int k = nr.x; k <= nr.y; ++k)
                GRAVITY_PULL_POTENTIAL(p, sorted[k], eps2, ax, ay, az, phi);
            summed += nr.y - nr.x + 1;
        } else {
            const int2 ch = children[node];
            stack[sp++] = ch.x;
            stack[sp++] = ch.y;
        }
    }
    sortedAcc[i] = (float4)(ax, ay, az, withoutSelf(phi, p, eps2));
    vstore3((float3)(ax, ay, az), i, packedAcc);
    stats[i] = (int2)(summed, iterations);
}

// v + a * kick (the mass slot kept): the one form of leapfrog's closing half-kick, whether
// scatter_accelerations adds it or kick_velocities does, so both give the same velocities.
static inline float4 kicked(const float4 v, const float4 a, const float kick) {
    return (float4)(mad(a.x, kick, v.x), mad(a.y, kick, v.y), mad(a.z, kick, v.z), v.w);
}

// Sorted acceleration s: this device's own walk's (sorted places [ownLo, ownHi): the float4, its
// potential in w) or, outside that range, one another device walked, which came in packed (x, y,
// z: its potential stays on that device, so w is 0 here). [0, n): every one is the float4.
static inline float4 sortedAccAt(__global const float4* restrict sortedAcc,
                                 __global const float* restrict packed, const int s,
                                 const int ownLo, const int ownHi) {
    return s >= ownLo && s < ownHi ? sortedAcc[s] : (float4)(vload3(s, packed), 0.0f);
}

// Back to the caller's body order; fuses the closing half-kick of leapfrog like nbody_force.cl.
__kernel void scatter_accelerations(__global const float4* restrict sortedAcc,
                                    __global const uint* restrict index, const int n,
                                    __global float4* restrict acc, __global float4* restrict vel,
                                    const float kick, __global const float* restrict packed,
                                    const int ownLo, const int ownHi) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const float4 a = sortedAccAt(sortedAcc, packed, i, ownLo, ownHi);
    const uint b = index[i];
    acc[b] = a;
    if (kick != 0.0f) vel[b] = kicked(vel[b], a, kick);
}

// scatter_accelerations over up to eight ranges of the sorted order in one launch: work-item t
// takes the range whose first item (firsts.sk, the counts of the ranges before it; unused slots
// past total) is the last at or before t, and its sorted place begins.sk + (t - firsts.sk).
__kernel void scatter_accelerations_ranges(__global const float4* restrict sortedAcc,
                                           __global const uint* restrict index, const int total,
                                           const int8 begins, const int8 firsts,
                                           __global float4* restrict acc,
                                           __global float4* restrict vel, const float kick,
                                           __global const float* restrict packed,
                                           const int ownLo, const int ownHi) {
    const int t = get_global_id(0);
    if (t >= total) return;
    int begin = begins.s0, first = firsts.s0;
#define TAKE_IF_REACHED(k)    \
    if (t >= firsts.s##k) {   \
        begin = begins.s##k;  \
        first = firsts.s##k;  \
    }
    TAKE_IF_REACHED(1)
    TAKE_IF_REACHED(2)
    TAKE_IF_REACHED(3)
    TAKE_IF_REACHED(4)
    TAKE_IF_REACHED(5)
    TAKE_IF_REACHED(6)
    TAKE_IF_REACHED(7)
#undef TAKE_IF_REACHED
    const int s = begin + (t - first);
    const float4 a = sortedAccAt(sortedAcc, packed, s, ownLo, ownHi);
    const uint b = index[s];
    acc[b] = a;
    if (kick != 0.0f) vel[b] = kicked(vel[b], a, kick);
}

// Every body's place in the sorted order (rank[index[s]] = s), for gather_accelerations.
__kernel void invert_order(__global const uint* restrict index, const int n,
                           __global uint* restrict rank) {
    const int s = get_global_id(0);
    if (s < n) rank[index[s]] = (uint)s;
}

// scatter_accelerations turned around: each body reads its acceleration at its sorted place, so
// the writes (the acceleration, the kicked velocity) go in the caller's order and only the reads
// land at scattered places, which the caches serve. The same values and the same kick. Bodies
// whose sorted place lies in one of the ranges [skipLo.sk, skipHi.sk) are left (scattered later).
__kernel void gather_accelerations(__global const float4* restrict sortedAcc,
                                   __global const uint* restrict rank, const int n,
                                   __global float4* restrict acc, __global float4* restrict vel,
                                   const float kick, const int8 skipLo, const int8 skipHi,
                                   __global const float* restrict packed, const int ownLo,
                                   const int ownHi) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const int s = (int)rank[i];
    if (any((int8)(s) >= skipLo && (int8)(s) < skipHi)) return;
    const float4 a = sortedAccAt(sortedAcc, packed, s, ownLo, ownHi);
    acc[i] = a;
    if (kick != 0.0f) vel[i] = kicked(vel[i], a, kick);
}

// The closing half-kick of leapfrog over the caller's order (TreeForceOptions::kickInScatter
// false): reads and writes each velocity in order, where scatter_accelerations's kick lands at
// random places. The same mad as there: the same velocities.
__kernel void kick_velocities(__global const float4* restrict acc, __global float4* restrict vel,
                              const int n, const float kick) {
    const int i = get_global_id(0);
    if (i >= n) return;
    const float4 a = acc[i];
    vel[i] = kicked(vel[i], a, kick);
}

// ---- accuracy ----------------------------------------------------------------------------------

// Direct-sum accelerations of sample bodies (one work-group each; sample g of count is body
// g * n / count) for the error figures: out[2g] = direct sum, out[2g + 1] = acc of the same body
// (what the tree computed).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void direct_sample(
    __global const float4* restrict pos, const int n, const int count, const float eps2,
    __global const float4* restrict acc, __global float4* restrict out) {
    __local float4 part[REDUCE_WG];
    const int lid = get_local_id(0);
    const int body = (int)((long)get_group_id(0) * n / count);
    const float4 p = pos[body];
    float ax = 0, ay = 0, az = 0;
    for (int j = lid; j < n; j += REDUCE_WG) {
        const float4 q = pos[j];
        const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        const float r2 = dx * dx + dy * dy + dz * dz + eps2;
        const float inv = r2 > 0 ? rsqrt(r2) : 0.0f;
        const float s = q.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    part[lid] = (float4)(ax, ay, az, 0);
    for (int s = REDUCE_WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) part[lid] += part[lid + s];
    }
    if (lid == 0) {
        out[2 * get_group_id(0)] = part[0];
        out[2 * get_group_id(0) + 1] = acc[body];
    }
}
