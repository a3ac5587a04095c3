// A window of the tree's global sorted order without sorting all of it (see
// compute/nbody/tree/window_select.hpp): given n (key, index) pairs in body order, as morton_keys
// writes them, copy out the pairs whose rank in the stable order by key (ties in body order) lies
// in [lo, hi), in body order.
//   select   window_pass          MSD radix select of the two splitter keys, the keys of rank lo
//            and rank hi, over 12-bit digits of the 64-bit key (52, 40, 28, 16, 4, then 4 bits
//            at 0); the two targets share the passes. The last work-group of a pass to finish
//            picks each target's bucket from the pass's histograms (selectBuckets). Once the keys
//            still in question are few (selectBuckets decides), one full pass copies them (key,
//            body position) into a list and counts, per tile, the keys already known to lie
//            between the splitters; later passes read only that list.
//   counts   window_tile_counts   per tile: keys strictly between the splitters, keys equal to the
//            lo splitter's, keys equal to the hi splitter's (from the list when it was made, else
//            from every key); its last work-group to finish scans the three counts (scanTiles)
//   scatter  window_scatter       each tile's pairs in the window, in body order, to the output
// The select fixes the splitter KEYS and how many keys lie below each (WindowState::below); ties
// with a splitter key are decided by their rank among the equal keys in body order (the stable
// sort's), which the scan of the tile counts gives every key: of the keys equal to the lo splitter
// those from rank (lo - below[0]) on are in, of those equal to the hi splitter those before rank
// (hi - below[1]).
//
// Every key is read by the first pass, by the pass that makes the list and by the scatter (three
// full reads) when the keys near the splitters are few; keys that share long prefixes (a dense
// core, all keys equal) take one full pass per digit until they spread, and a full count.
//
// A pass and the counts each end in one work-group (the last to take a ticket, as the one-pass
// reduction in reduce.cl) rather than in a one-work-group kernel of their own: a launch less each.
//
// Build options: -DWG (work-group of every kernel, 256), -DKPT (keys per work-item per tile:
// a tile is WG * KPT consecutive keys), -DBINS (histogram bins per target: 1 << 12).

#include "common/device_fence.clh"  // DEVICE_FENCE: the passes' and the counts' tickets

#ifndef WG
#define WG 256
#endif
#ifndef KPT
#define KPT 16
#endif
#ifndef BINS
#define BINS 4096
#endif
#define TILE (WG * KPT)
#define NONE 0xffffffffu

// Mirrored by compute/nbody/tree/window_select.cpp (WindowState): keep the two in step.
typedef struct {
    ulong key[2];      // targets lo, hi: the key bits fixed so far; after the last pass the key
    uint below[2];     // keys below key[t]'s bucket (after the last pass: below key[t])
    uint rank[2];      // target's rank among the keys of its bucket (at the end: among equal keys)
    uint active[2];    // rank < n (a target of rank n is past every key: none to select)
    uint mode;         // 0: passes read every key; 1: the next pass also lists; 2: they read it
    uint listCount;    // keys in the list
    uint splitIndex[2];  // the splitters' body indices (index[] of the pair), NONE if none
    uint ticket;         // work-groups of the running pass or count done (0 between launches)
    uint pad;
} WindowState;

// The key bits above the digit at `shift` of `width` bits: those the targets' prefixes fix.
inline ulong fixedMask(int shift, int width) {
    return shift + width >= 64 ? 0UL : ~0UL << (shift + width);
}

// A work-item's KPT consecutive keys from `first` (a multiple of KPT; those at or past n read as
// 0), four at a time: a whole 32-byte sector a load where one key a load left the rest of each
// sector to the cache (neighbouring work-items' keys lie KPT keys apart).
#if KPT % 4
#error "KPT must be a multiple of 4"
#endif
inline void loadRun(__global const ulong* restrict keys, const uint first, const uint n,
                    ulong* x) {
    if (first + KPT <= n) {
        __global const ulong4* run = (__global const ulong4*)(keys + first);
        for (int k = 0; k < KPT; k += 4) {
            const ulong4 v = run[k / 4];
            x[k] = v.x;
            x[k + 1] = v.y;
            x[k + 2] = v.z;
            x[k + 3] = v.w;
        }
    } else {
        for (int k = 0; k < KPT; ++k)
            x[k] = first + k < n ? keys[first + k] : 0;
    }
}

// Exclusive scan of v over the work-group (every work-item calls it); returns the total in *total.
inline ulong scanExclusive(__local ulong* sums, ulong v, ulong* total) {
    const int lid = get_local_id(0);
    sums[lid] = v;
    for (int d = 1; d < WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong add = lid >= d ? sums[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        sums[lid] += add;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = sums[WG - 1];
    const ulong before = sums[lid] - v;
    barrier(CLK_LOCAL_MEM_FENCE);  // sums may be reused at once
    return before;
}

// Every work-item of every work-group calls it once its global writes are done; true in the
// work-group that finishes last, which then sees every other work-group's writes (and resets the
// ticket for the next launch).
inline bool lastToFinish(__global WindowState* st, __local uint* flag) {
    DEVICE_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        const uint before = atomic_inc(&st->ticket);
        *flag = before == get_num_groups(0) - 1;
        if (*flag) st->ticket = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool last = *flag != 0;
    if (last) DEVICE_FENCE();
    return last;
}

// Each active target's bucket (the digit whose keys hold its rank) from the pass's histograms
// (hist, staged through h), by the work-group that finished the pass last; the histograms are
// zeroed for the next pass. Decides whether the next pass makes the list: when the keys left in
// question fit it, and `last` is 0 (a pass follows).
inline void selectBuckets(__global volatile WindowState* st, __global volatile uint* hist,
                          const int shift, const int width, const int last, const uint listCap,
                          __local uint* h, __local ulong* sums, __local uint* found,
                          __local uint* foundBelow, __local uint* foundCount) {
    const int lid = get_local_id(0);
    const bool a0 = st->active[0] != 0, a1 = st->active[1] != 0;
    const ulong p0 = st->key[0], p1 = st->key[1];
    const bool shared = a0 && a1 && p0 == p1;
    const int bins = 1 << width;
    // Both histograms into local memory with coalesced loads (each work-item's run of bins below
    // is consecutive), and zeroed for the next pass.
    for (int b = lid; b < bins; b += WG) {
        h[b] = hist[b];
        h[BINS + b] = hist[BINS + b];
        hist[b] = hist[BINS + b] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int per = (bins + WG - 1) / WG;  // consecutive bins per work-item
    for (int t = 0; t < 2; ++t) {
        if (!(t ? a1 : a0)) continue;  // uniform
        __local const uint* hg = h + (t && !shared ? BINS : 0);
        const uint rank = st->rank[t];
        const int first = lid * per;
        uint mine = 0;
        for (int b = first; b < min(first + per, bins); ++b)
            mine += hg[b];
        ulong total;
        uint before = (uint)scanExclusive(sums, mine, &total);
        if (rank >= before && rank < before + mine) {  // exactly one work-item
            for (int b = first; b < min(first + per, bins); ++b) {
                const uint c = hg[b];
                if (rank < before + c) {
                    found[t] = (uint)b;
                    foundBelow[t] = before;
                    foundCount[t] = c;
                    break;
                }
                before += c;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid != 0) return;
    uint count[2] = {0, 0};
    ulong key[2] = {p0, p1};
    for (int t = 0; t < 2; ++t) {
        if (!(t ? a1 : a0)) continue;
        key[t] |= (ulong)found[t] << shift;
        st->key[t] = key[t];
        st->below[t] += foundBelow[t];
        st->rank[t] -= foundBelow[t];
        count[t] = foundCount[t];
    }
    // Keys still in question: those of the targets' buckets (one bucket when they coincide).
    const uint left = a0 && a1 && key[0] == key[1] ? count[0] : count[0] + count[1];
    if (st->mode == 1) {
        st->mode = 2;
    } else if (st->mode == 0 && !last && left <= listCap) {
        st->mode = 1;
        st->listCount = 0;
    }
}

// One digit of the select: histograms, per target, of the digit at `shift` of the keys whose fixed
// bits match the target's (one histogram when both targets match the same keys), summed into
// hist[t * BINS + digit], then the targets' buckets (selectBuckets, by the last work-group). Mode 0
// reads every key, mode 1 also appends the matching keys and their body positions to the list and
// writes each tile's count of keys between the targets' prefixes (tileB; tileL, tileH zeroed),
// mode 2 reads the list. first: the state comes from lo and hi (the first pass writes it) rather
// than from `st`. last: no pass follows.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void window_pass(
    __global const ulong* restrict keys, const uint n, __global ulong* restrict listKeys,
    __global uint* restrict listPos, const uint listCap, __global WindowState* st,
    __global uint* hist, __global uint* restrict tileB, __global uint* restrict tileL,
    __global uint* restrict tileH, const int shift, const int width, const int first, const uint lo,
    const uint hi, const int last) {
    __local uint h[2 * BINS];
    __local ulong sums[WG];
    __local uint tileCount, listBase, lastFlag, found[2], foundBelow[2], foundCount[2];
    const int lid = get_local_id(0);
    ulong p0, p1;
    bool a0, a1;
    uint mode;
    if (first) {
        p0 = p1 = 0;
        a0 = lo < n;
        a1 = hi < n;
        mode = 0;
        if (get_global_id(0) == 0) {
            st->key[0] = st->key[1] = 0;
            st->below[0] = st->below[1] = 0;
            st->rank[0] = lo;
            st->rank[1] = hi;
            st->active[0] = a0;
            st->active[1] = a1;
            st->mode = 0;
            st->listCount = 0;
            st->splitIndex[0] = st->splitIndex[1] = NONE;
        }
    } else {
        p0 = st->key[0];
        p1 = st->key[1];
        a0 = st->active[0] != 0;
        a1 = st->active[1] != 0;
        mode = st->mode;
    }
    if (!a0 && !a1) return;  // the same in every work-item
    const ulong fixed = fixedMask(shift, width);
    const uint digitMask = (1u << width) - 1;
    const bool shared = a0 && a1 && p0 == p1;
    const ulong f0 = p0 & fixed, f1 = p1 & fixed;
    const int bins = 1 << width;
    for (int b = lid; b < 2 * bins; b += WG)
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Work-item j of a tile (or of a chunk of the list) takes KPT consecutive keys and adds runs of
    // keys that fall in the same bin with one atomic: neighbouring bodies often share their digits
    // (a dense core; all keys equal would otherwise put every key on one local counter).
    const uint off1 = shared ? 0 : (uint)bins;  // target 1's histogram in h
    if (mode == 2) {
        const uint count = st->listCount;
        for (uint first = get_global_id(0) * KPT; first < count;
             first += get_global_size(0) * KPT) {
            uint runBin = NONE, run = 0;
            for (int k = 0; k < KPT && first + k < count; ++k) {
                const ulong x = listKeys[first + k];
                const ulong xf = x & fixed;
                const uint d = (uint)(x >> shift) & digitMask;
                const uint bin = a0 && xf == f0 ? d : a1 && xf == f1 ? off1 + d : NONE;
                if (bin != runBin) {
                    if (run) atomic_add(&h[runBin], run);
                    runBin = bin;
                    run = 0;
                }
                run += bin != NONE;
            }
            if (run) atomic_add(&h[runBin], run);
        }
    } else {
        const uint tiles = (n + TILE - 1) / TILE;
        for (uint tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
            const uint start = tile * TILE + lid * KPT;
            ulong x[KPT];
            loadRun(keys, start, n, x);
            uint candidates = 0, between = 0;  // this work-item's
            uint runBin = NONE, run = 0;
            for (int k = 0; k < KPT && start + k < n; ++k) {
                const ulong xf = x[k] & fixed;
                const uint d = (uint)(x[k] >> shift) & digitMask;
                const uint bin = a0 && xf == f0 ? d : a1 && xf == f1 ? off1 + d : NONE;
                if (bin != runBin) {
                    if (run) atomic_add(&h[runBin], run);
                    runBin = bin;
                    run = 0;
                }
                if (bin != NONE) {
                    ++run;
                    candidates |= 1u << k;
                } else if (a0 && xf > f0 && (!a1 || xf < f1)) {
                    ++between;
                }
            }
            if (run) atomic_add(&h[runBin], run);
            if (mode != 1) continue;  // uniform
            // The tile's candidates to the list (one global reservation per tile; the list's order
            // does not matter) and its count of keys known to be in the window.
            if (lid == 0) tileCount = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint mine = popcount(candidates);
            const uint slot = mine ? atomic_add(&tileCount, mine) : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) listBase = tileCount ? atomic_add(&st->listCount, tileCount) : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            uint at = listBase + slot;
            for (int k = 0; k < KPT; ++k)
                if (candidates >> k & 1u) {
                    if (at < listCap) {  // the select made room for every candidate
                        listKeys[at] = x[k];
                        listPos[at] = start + k;
                    }
                    ++at;
                }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) tileCount = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (between) atomic_add(&tileCount, between);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 0) {
                tileB[tile] = tileCount;
                tileL[tile] = tileH[tile] = 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < 2 * bins; b += WG)
        if (h[b]) atomic_add(&hist[(b < bins ? 0 : BINS - bins) + b], h[b]);
    if (!lastToFinish(st, &lastFlag)) return;
    barrier(CLK_LOCAL_MEM_FENCE);  // h is reused
    selectBuckets(st, hist, shift, width, last, listCap, h, sums, found, foundBelow, foundCount);
}

// Where a key stands against the splitters: 0 out, 1 strictly between, 2 equal to lo's (and to
// hi's when they are equal), 3 equal to hi's (apart from lo's).
inline int classOf(ulong x, ulong klo, ulong khi, bool hiActive) {
    if (x == klo) return 2;
    if (hiActive && x == khi) return 3;
    return x > klo && (!hiActive || x < khi) ? 1 : 0;
}

// The three tile counts scanned (exclusive, in place) by the work-group that finished the counts
// last: chunks of KPT * WG tiles staged in local memory with coalesced loads, each work-item
// summing KPT consecutive counts, one work-group scan a chunk.
inline void scanTiles(__global volatile uint* tileB, __global volatile uint* tileL,
                      __global volatile uint* tileH, const uint tiles, __local uint* stage,
                      __local ulong* sums) {
    const int lid = get_local_id(0);
    for (int a = 0; a < 3; ++a) {
        __global volatile uint* c = a == 0 ? tileB : a == 1 ? tileL : tileH;
        uint carry = 0;
        for (uint base = 0; base < tiles; base += KPT * WG) {
            for (int k = 0; k < KPT; ++k) {
                const uint i = base + k * WG + lid;
                stage[k * WG + lid] = i < tiles ? c[i] : 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            uint mine = 0;
            for (int k = 0; k < KPT; ++k)
                mine += stage[lid * KPT + k];
            ulong total;
            uint run = carry + (uint)scanExclusive(sums, mine, &total);
            for (int k = 0; k < KPT; ++k) {
                const uint v = stage[lid * KPT + k];
                stage[lid * KPT + k] = run;
                run += v;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < KPT; ++k) {
                const uint i = base + k * WG + lid;
                if (i < tiles) c[i] = stage[k * WG + lid];
            }
            carry += (uint)total;
            barrier(CLK_LOCAL_MEM_FENCE);  // stage is reused
        }
    }
}

// A run of list keys of one tile, added to its counts.
inline void addTileRun(__global uint* tileB, __global uint* tileL, __global uint* tileH,
                       const uint tile, const uint b, const uint l, const uint h) {
    if (b) atomic_add(&tileB[tile], b);
    if (l) atomic_add(&tileL[tile], l);
    if (h) atomic_add(&tileH[tile], h);
}

// Per tile: keys strictly between the splitters (tileB), equal to lo's (tileL), equal to hi's apart
// from lo's (tileH), then their exclusive scans (scanTiles, by the last work-group). One work-group
// a tile is launched. From the list when a pass made it (window_pass, mode 1, wrote the tiles' keys
// between the prefixes into tileB): its keys are added with atomics, each work-item KPT
// consecutive entries and one atomic a run of one tile (window_pass lists a tile's keys together;
// one atomic a key put every key of a tile on one counter in turn, slow where a window's end lies
// in a dense run: docs/scaling.md, session 21); else from every key, one work-group per tile.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void window_tile_counts(
    __global const ulong* restrict keys, const uint n, __global const ulong* restrict listKeys,
    __global const uint* restrict listPos, __global WindowState* st, __global uint* tileB,
    __global uint* tileL, __global uint* tileH) {
    __local uint counts[4];
    __local uint lastFlag;
    __local uint stage[KPT * WG];
    __local ulong sums[WG];
    if (!st->active[0]) return;  // lo == n: the window is empty (the same in every work-group)
    const ulong klo = st->key[0], khi = st->key[1];
    const bool hiActive = st->active[1] != 0;
    const int lid = get_local_id(0);
    if (st->mode == 2) {
        const uint count = st->listCount;
        for (uint first = get_global_id(0) * KPT; first < count;
             first += get_global_size(0) * KPT) {
            uint runTile = NONE, b = 0, l = 0, h = 0;
            for (int k = 0; k < KPT && first + k < count; ++k) {
                const uint tile = listPos[first + k] / TILE;
                if (tile != runTile) {
                    if (runTile != NONE) addTileRun(tileB, tileL, tileH, runTile, b, l, h);
                    runTile = tile;
                    b = l = h = 0;
                }
                const int c = classOf(listKeys[first + k], klo, khi, hiActive);
                b += c == 1;
                l += c == 2;
                h += c == 3;
            }
            if (runTile != NONE) addTileRun(tileB, tileL, tileH, runTile, b, l, h);
        }
    } else {
        const uint tile = get_group_id(0), start = tile * TILE;
        if (lid < 4) counts[lid] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint b = 0, l = 0, hh = 0;
        for (int k = 0; k < KPT; ++k) {
            const uint i = start + k * WG + lid;
            if (i >= n) break;
            const int c = classOf(keys[i], klo, khi, hiActive);
            b += c == 1;
            l += c == 2;
            hh += c == 3;
        }
        if (b) atomic_add(&counts[1], b);
        if (l) atomic_add(&counts[2], l);
        if (hh) atomic_add(&counts[3], hh);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            tileB[tile] = counts[1];
            tileL[tile] = counts[2];
            tileH[tile] = counts[3];
        }
    }
    if (!lastToFinish(st, &lastFlag)) return;
    scanTiles(tileB, tileL, tileH, get_num_groups(0), stage, sums);
}

// Each tile's pairs in the window to out (positions from the scanned tile counts), in body order:
// work-item j of a tile takes its keys j * KPT .. j * KPT + KPT - 1. The keys' three counts are
// packed in 21-bit fields (at most TILE = 4096 per tile) for one scan. A tile's pairs go to one run
// of out, staged in local memory so that they leave in whole lines (each work-item's own run,
// KPT apart from its neighbours', wrote partial lines). Tiles without a key at or between the
// splitters end at once. Also records the splitters' body indices (WindowState::splitIndex).
#define STAGE_PAD(j) ((j) + ((j) >> 4))  // spreads KPT-apart slots over local memory banks
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void window_scatter(
    __global const ulong* restrict keys, __global const uint* restrict index, const uint n,
    __global WindowState* restrict st, __global const uint* restrict tileB,
    __global const uint* restrict tileL, __global const uint* restrict tileH,
    __global ulong* restrict outKeys, __global uint* restrict outIndex) {
    __local ulong sums[WG];
    __local ulong stagedKeys[STAGE_PAD(TILE)];
    __local ushort stagedFrom[STAGE_PAD(TILE)];
    if (!st->active[0]) return;
    const uint tile = get_group_id(0), tiles = get_num_groups(0);
    if (tile + 1 < tiles && tileB[tile + 1] == tileB[tile] && tileL[tile + 1] == tileL[tile] &&
        tileH[tile + 1] == tileH[tile])
        return;  // no key of the window or equal to a splitter (the last tile has no next count)
    const ulong klo = st->key[0], khi = st->key[1];
    const bool hiActive = st->active[1] != 0;
    const bool same = hiActive && klo == khi;
    const uint tlo = st->rank[0], thi = hiActive ? st->rank[1] : 0;
    const uint limL = same ? thi : NONE;  // lo's equal keys in: ranks tlo .. limL - 1
    const int lid = get_local_id(0);
    const uint first = tile * TILE + lid * KPT;
    ulong x[KPT];
    loadRun(keys, first, n, x);
    ulong packed = 0;
    for (int k = 0; k < KPT; ++k) {
        const uint i = first + k;
        if (i >= n) continue;
        const int c = classOf(x[k], klo, khi, hiActive);
        if (c) packed += 1UL << (21 * (c - 1));
    }
    ulong total;
    const ulong before = scanExclusive(sums, packed, &total);
    // Pairs in the window before a key: every key between, lo's equal keys of ranks tlo .. limL - 1
    // and hi's of ranks below thi, counted up to there.
    const uint b0 = tileB[tile], l0 = tileL[tile], h0 = tileH[tile];
    const uint runStart = b0 + (clamp(l0, tlo, limL) - tlo) + min(h0, thi);
    const uint runEnd = b0 + (uint)(total & 0x1fffff) +
                        (clamp(l0 + (uint)(total >> 21 & 0x1fffff), tlo, limL) - tlo) +
                        min(h0 + (uint)(total >> 42 & 0x1fffff), thi);
    uint b = b0 + (uint)(before & 0x1fffff);
    uint l = l0 + (uint)(before >> 21 & 0x1fffff);
    uint hh = h0 + (uint)(before >> 42 & 0x1fffff);
    for (int k = 0; k < KPT; ++k) {
        const uint i = first + k;
        if (i >= n) break;
        const int c = classOf(x[k], klo, khi, hiActive);
        if (!c) continue;
        bool in;
        if (c == 1)
            in = true;
        else if (c == 2)
            in = l >= tlo && l < limL;
        else
            in = hh < thi;
        if (c == 2 && l == tlo) st->splitIndex[0] = index[i];
        if (same && c == 2 && l == thi) st->splitIndex[1] = index[i];
        if (c == 3 && hh == thi) st->splitIndex[1] = index[i];
        if (in) {
            const uint at = b + (clamp(l, tlo, limL) - tlo) + min(hh, thi) - runStart;
            stagedKeys[STAGE_PAD(at)] = x[k];
            stagedFrom[STAGE_PAD(at)] = (ushort)(lid * KPT + k);
        }
        b += c == 1;
        l += c == 2;
        hh += c == 3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = lid; j < runEnd - runStart; j += WG) {
        outKeys[runStart + j] = stagedKeys[STAGE_PAD(j)];
        outIndex[runStart + j] = index[tile * TILE + stagedFrom[STAGE_PAD(j)]];
    }
}
