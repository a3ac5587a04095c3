#!/usr/bin/env bash
# The lead's occupancy probe of session 8 (issue 31) on one GPU, from the repository root: the
# group walk with an 8th or 9th work-group per multiprocessor (shorter lists and stack, a lower
# register cap), against today's 7, in one tree-phases process per N (carry $C: tree-phases built
# from main as tree_phases.cpp says, bench-libs.tar.xz, gpu-env.sh). Fields of a config:
# group:bpi:leaf:list:theta:tileKeys:digitBits:keysPerItem:countInScatter:regcap:stack:thetaFar:
# farOrder:kickInScatter. Everything lands in $OUT/lead-s8c.tgz.
set -uo pipefail
C=${C:-.carry-lead8}
source "$C/gpu-env.sh" "$C"
results_dir lead-s8c
now=128:1:4:512:0.55:2048:0:0:1:72:768:0.55:3:0     # 7 work-groups of 128 (31,760 bytes)
l384=128:1:4:384:0.55:2048:0:0:1:64:640:0.55:3:0    # 8 (about 26.7 KiB, 64 registers)
l256=128:1:4:256:0.55:2048:0:0:1:64:768:0.55:3:0    # 8 (about 22.5 KiB)
l256r56=128:1:4:256:0.55:2048:0:0:1:56:640:0.55:3:0 # 9 (about 22 KiB, 56 registers)
l384s512=128:1:4:384:0.55:2048:0:0:1:64:512:0.55:3:0
for n in ${SIZES:-16777216 1048576}; do
    TREE_REPS=${REPS:-9} TREE_CONFIGS="$now $l384 $l256 $l256r56 $l384s512 $now" \
        timeout 200 "$C/tree-phases" "$n" 2>&1 | tee "$R/phases-$n.txt" | grep -E "^n=" | \
        sed -E 's/ tilekeys.*regcap=/ regcap=/; s/ thetafar.*total/ total/; s/\| box.*walk.walk/| walk/'
done
