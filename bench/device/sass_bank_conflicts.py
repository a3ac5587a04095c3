#!/usr/bin/env python3
"""Counts the FFMAs of a cuobjdump -sass listing whose register-file reads collide in a bank.

Model (Volta and later, as measured by Jia et al., "Dissecting the NVIDIA Volta GPU architecture
via microbenchmarking"): two register banks, register Rn in bank n % 2; an operand read from the
reuse cache (the previous instruction marked that register .reuse in the same operand slot) does
not touch the register file. An FFMA whose remaining reads include two in one bank stalls a cycle,
which an FFMA-bound loop pays directly.
Usage: sass_bank_conflicts.py FILE.sass [FUNCTION]   (FUNCTION: only that kernel's listing)
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    if len(sys.argv) > 2:
        parts = [p for p in text.split("Function : ") if p.startswith(sys.argv[2])]
        if not parts:
            sys.exit(f"no function {sys.argv[2]} in {sys.argv[1]}")
        text = parts[0]
    cached = {}  # operand slot -> register the reuse cache holds
    total = conflicts = 0
    for line in text.splitlines():
        m = re.search(r"\*/\s+(@!?P\d\s+)?([A-Z][A-Z0-9_.]*)\s+([^;]*);", line)
        if not m:
            continue
        op, args = m.group(2), [a.strip() for a in m.group(3).split(",")]
        if op != "FFMA" or len(args) != 4:
            cached = {}
            continue
        reads, kept = [], {}
        for slot, arg in enumerate(args[1:]):
            r = re.match(r"(R\d+)(\.reuse)?$", arg)
            if not r:
                continue
            if cached.get(slot) != r.group(1):
                reads.append(int(r.group(1)[1:]) % 2)
            if r.group(2):
                kept[slot] = r.group(1)
        cached = kept
        total += 1
        if reads.count(0) >= 2 or reads.count(1) >= 2:
            conflicts += 1
    share = 100.0 * conflicts / total if total else 0.0
    print(f"FFMA={total} bank-conflicting={conflicts} ({share:.0f}%)")


if __name__ == "__main__":
    main()
