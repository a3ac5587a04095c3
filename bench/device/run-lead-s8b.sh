#!/usr/bin/env bash
# The lead's one-GPU call of session 8 (carry $C as run-lead-s8a.sh's, plus sass_loops.py and
# tests.tar.xz holding stripped test binaries), from the repository root:
#   t31    issue 31's tree rows (1M and 16M, theta 0.5, 0.55, 0.6), base and new, twice in turn
#   sass   SASS of the new build's walk from a program cache (SASS_XDG; default the t31 step's)
#   tests  the GPU runs of the carried test binaries
# Everything lands in $OUT/lead-s8b.tgz.
set -uo pipefail
C=${C:-.carry-lead8}
source "$C/gpu-env.sh" "$C"
results_dir lead-s8b
opts="--suite nbody --device-type gpu --no-cpu-baseline --variants tree --sizes 1m,16m --theta 0.5,0.55,0.6"
for step in "$@"; do
    case $step in
    t31) for round in 1 2; do for build in base new; do row "t31-$build-r$round" "$C/$build/clviz-bench" $opts; done; done ;;
    sass) walk_sass "${SASS_XDG:-/tmp/xdg-t31-new-r2}" ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
done
