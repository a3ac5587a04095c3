#!/usr/bin/env python3
"""Figures of clviz --frame-trace CSVs (frame,ms): median, p99, max, mean, frames per second and
the frames longer than twice the median (issue 31's "no frame longer than twice the median"),
over the frames after the first (it builds kernels; clviz's own summary skips it too).
--drop-last leaves out the last frame too: a run with --screenshot writes the PNG inside it.
Usage: frame_trace_stats.py [--drop-last] FILE.csv...   (one line per file)"""
import csv
import statistics
import sys


def figures(path, skip=1, drop_last=False):
    with open(path, newline="") as f:
        ms = [float(row["ms"]) for row in csv.DictReader(f)]
    ms = ms[skip:-1] if drop_last else ms[skip:]
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
            + (f" {over[:10]}" if over else ""))


if __name__ == "__main__":
    args = sys.argv[1:]
    drop_last = "--drop-last" in args
    paths = [a for a in args if a != "--drop-last"]
    if not paths:
        sys.exit(__doc__)
    for p in paths:
        print(figures(p, drop_last=drop_last))
