#!/usr/bin/env bash
# Issue 31, session 8 (branch far-private): the group walk with each work-item's far-field
# coefficients in private memory instead of local (10 KiB a work-group of 128 freed for longer
# lists at the same occupancy), against main's kernels, in one tree-phases process per N (carry
# $C: tree-phases built from the branch, k-old/ main's kernels, k-new/ the branch's,
# bench-libs.tar.xz, gpu-env.sh). Everything lands in $OUT/far-private.tgz.
set -uo pipefail
C=${C:-.carry-lead8}
source "$C/gpu-env.sh" "$C"
results_dir far-private
cfg() { echo "128:1:4:$1:0.55:2048:0:0:1:$3:$2:0.55:3:0"; }  # list stack regcap
for n in ${SIZES:-16777216 1048576}; do
    TREE_REPS=${REPS:-9} TREE_KERNEL_DIRS="old=$C/k-old new=$C/k-new" \
        TREE_CONFIGS="$(cfg 512 768 72) $(cfg 768 768 72) $(cfg 640 768 72) $(cfg 512 768 80) $(cfg 1024 768 72)" \
        timeout 250 "$C/tree-phases" "$n" 2>&1 | tee "$R/phases-$n.txt" | grep -E "^(old|new) ?n=" | \
        sed -E 's/ bpi.*list=/ list=/; s/ theta=.*regcap=/ regcap=/; s/ thetafar.*total/ total/; s/\| box.*walk.walk/| walk/; s/ \| walk per rep[^|]*//; s/ fallbacks.*err/ err/'
done
