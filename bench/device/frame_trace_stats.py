#!/usr/bin/env python3
"""Figures of clviz --frame-trace CSVs (frame,ms[,PART_ms...]): median, p99, max, mean, frames per
second and the frames longer than twice the median (issue 31's "no frame longer than twice the
median"), over the frames after the first (it builds kernels; clviz's own summary skips it too).
Where the trace has the frame's parts (input, gui, step, draw, before_present, present,
frame_end), a second line gives each part's median and, for the long frames, the part that grew
most over its median and by how much.
--drop-last leaves out the last frame too: a run with --screenshot writes the PNG inside it.
Usage: frame_trace_stats.py [--drop-last] FILE.csv...   (one or two lines per file)"""
import csv
import statistics
import sys


def figures(path, skip=1, drop_last=False):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    rows = rows[skip:-1] if drop_last else rows[skip:]
    ms = [float(row["ms"]) for row in rows]
    if not ms:
        return f"{path}: no frames after the first {skip}"
    ordered = sorted(ms)
    median = statistics.median(ordered)
    # Nearest rank: the smallest value with at least 99% of the frames at or below it.
    p99 = ordered[max(0, -(-99 * len(ordered) // 100) - 1)]
    longest = max(ms)
    over = [skip + i for i, v in enumerate(ms) if v > 2 * median]
    return (f"{path}: frames {len(ms)} median {median:.3f} ms p99 {p99:.3f} ms "
            f"max {longest:.3f} ms (frame {skip + ms.index(longest)}) mean {statistics.fmean(ms):.3f} ms "
            f"fps(median) {1e3 / median:.1f} fps(mean) {1e3 / statistics.fmean(ms):.1f} "
            f"max/median {longest / median:.2f} frames>2x median {len(over)}"
            + (f" {over[:10]}" if over else "") + parts(path, rows, [i - skip for i in over]))


def parts(path, rows, long_frames):
    """The frame's parts: each one's median, and where the long frames' extra time went."""
    names = [k[:-3] for k in (rows[0].keys() if rows else []) if k.endswith("_ms")]
    if not names:
        return ""
    medians = {n: statistics.median(float(r[n + "_ms"]) for r in rows) for n in names}
    text = f"\n{path}: part medians " + " ".join(f"{n} {medians[n]:.3f}" for n in names)
    growth = []
    for i in long_frames[:10]:
        extra = {n: float(rows[i][n + "_ms"]) - medians[n] for n in names}
        part = max(extra, key=extra.get)
        growth.append(f"{rows[i]['frame']}:{part}+{extra[part]:.1f}")
    if growth:
        text += "; long frames (frame:part+ms over its median) " + " ".join(growth)
    return text


if __name__ == "__main__":
    args = sys.argv[1:]
    drop_last = "--drop-last" in args
    paths = [a for a in args if a != "--drop-last"]
    if not paths:
        sys.exit(__doc__)
    for p in paths:
        print(figures(p, drop_last=drop_last))
