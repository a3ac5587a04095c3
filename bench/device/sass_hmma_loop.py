#!/usr/bin/env python3
"""Instruction counts of a cuobjdump SASS listing: the whole kernel, and the loop that issues the
tensor-core MMAs (the backward branch whose body holds the most HMMA/IMMA: the k-tile loop):
total, HMMA, LDSM, LDS, LDGSTS, BAR, and integer adds (IADD3/IMAD/LOP3: rounding and addressing).
Usage: sass_hmma_loop.py FILE.sass"""
import re
import sys

KINDS = ["HMMA", "IMMA", "LDSM", "LDS", "LDGSTS", "BAR", "IADD3", "IMAD", "LOP3", "STL", "LDL"]


def count(body):
    c = {k: 0 for k in KINDS}
    for t in body:
        op = t.split()[0] if not t.startswith("@") else t.split()[1]
        base = op.split(".")[0]
        if base in c:
            c[base] += 1
    return c


def fmt(c, n):
    return f"{n} instructions, " + ", ".join(f"{k} {v}" for k, v in c.items() if v)


ins = []
for line in open(sys.argv[1]):
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
    if m:
        ins.append((int(m.group(1), 16), m.group(2)))
at = {a: i for i, (a, _) in enumerate(ins)}
best = None
for i, (a, text) in enumerate(ins):
    m = re.search(r"BRA\s+(?:`\()?0x([0-9a-f]+)", text)
    if not m or int(m.group(1), 16) > a or int(m.group(1), 16) not in at:
        continue
    body = [t for _, t in ins[at[int(m.group(1), 16)]:i + 1]]
    c = count(body)
    if c["HMMA"] + c["IMMA"] and (best is None or c["HMMA"] + c["IMMA"] > best[0]["HMMA"] + best[0]["IMMA"]):
        best = (c, len(body))
whole = count([t for _, t in ins])
print("kernel: " + fmt(whole, len(ins)) + " | loop: " + (fmt(*best) if best else "none"))
