#!/usr/bin/env python3
"""Loops of a cuobjdump SASS listing that call MUFU.RSQ (the walk's list sums): for each backward
branch, the instructions from its target to it, and how many are MUFU.RSQ, LDS and FP32
(FFMA/FMUL/FADD). Instructions per list entry = instructions / entries per trip (a trip of the
body loop handles as many entries as it has MUFU.RSQ; so does the cell loop).
With --op OPCODE (e.g. --op FFMA, a GEMM's k-tile loop): the loops holding that opcode instead,
with their FFMA, LDS (LDS.128), STS, LDG and BAR counts.
Usage: sass_loops.py [--op OPCODE] FILE.sass..."""
import re
import sys

args = sys.argv[1:]
op = None
if args[:1] == ["--op"]:
    op, args = args[1], args[2:]

for path in args:
    ins = []
    for line in open(path):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2)))
    at = {a: i for i, (a, _) in enumerate(ins)}
    print(path)
    for i, (a, text) in enumerate(ins):
        m = re.search(r"BRA\s+(?:`\()?0x([0-9a-f]+)", text)
        if not m or int(m.group(1), 16) > a or int(m.group(1), 16) not in at:
            continue
        body = [t for _, t in ins[at[int(m.group(1), 16)]:i + 1]]
        if op:
            n = sum(re.search(r"\b" + re.escape(op) + r"\b", t) is not None for t in body)
            if not n:
                continue
            lds, lds128, sts, ldg, bar = (
                sum(re.search(pat, t) is not None for t in body)
                for pat in (r"\bLDS", r"\bLDS\.128", r"\bSTS", r"\bLDG", r"\bBAR"))
            print(f"  loop {int(m.group(1), 16):#06x}..{a:#06x}: {len(body)} instructions, {n} {op} "
                  f"({100 * n / len(body):.0f}%), {lds} LDS ({lds128} LDS.128), {sts} STS, "
                  f"{ldg} LDG, {bar} BAR")
            continue
        rsq = sum("MUFU.RSQ" in t for t in body)
        if not rsq:
            continue
        lds = sum(re.search(r"\bLDS", t) is not None for t in body)
        fp = sum(re.search(r"\b(FFMA|FMUL|FADD)\b", t) is not None for t in body)
        print(f"  loop {int(m.group(1), 16):#06x}..{a:#06x}: {len(body)} instructions, {rsq} MUFU.RSQ, "
              f"{lds} LDS, {fp} FP32: {len(body) / rsq:.2f} per entry")
