#!/usr/bin/env bash
# Issue 29's tensor-core kernels on the lent GPU, one device call (bench/device/README.md): run
# from the repository root with a carried folder $C holding clviz-bench (this build), old/clviz-bench
# (today's main), compute_linalg_{gemm,covariance}_test and bench-libs.tar.xz (pack-bench-libs.sh).
# Usage: C=.carry-tc-29 bench/device/run-tc29.sh STEP...
#   tests  the GEMM and covariance test binaries (PTX paths on)
#   new    the new build alone, once
#   ab     gemm-tf32 and cov-tensor at 4096, 8192 (--tune), old and new binaries interleaved, twice
#          (EXTRA="name ..." adds the new binary reading $C/kernels-name for each)
#   sass   ptxas/cuobjdump instruction counts of the kernels this run built
# Everything lands in $OUT/tc29.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-tc-29}
R=/tmp/tc29
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/tc29.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
VARIANTS=${VARIANTS:-gemm-tf32,cov-tensor}
SIZES=${SIZES:-4096,8192}
for step in "$@"; do
case $step in
tests)
    for t in gemm covariance; do
        [ -x "$C/compute_linalg_${t}_test" ] || continue
        CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-120} "$C/compute_linalg_${t}_test" >"$R/test_$t.txt" 2>&1
        echo "test $t: rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_$t.txt" | tr '\n' ' ')"
        grep -E '^\[  FAILED|Failure' "$R/test_$t.txt" | head -5
    done
    ;;
new)  # the new build alone, once (a first look)
    XDG_CACHE_HOME=/tmp/xdg-new timeout ${AB_S:-90} "$C/clviz-bench" --suite gemm --device-type gpu \
        --variants "$VARIANTS" --sizes "$SIZES" --tune --json "$R/new0.json" >"$R/new0.txt" 2>"$R/new0.err"
    echo "new rc=$?"; grep -E "tf32|cov-tensor|probe" "$R/new0.txt" | cut -c1-160; tail -3 "$R/new0.err"
    ;;
ab)
    # The SM clock and power while the rows run (a throttled clock would show here).
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks.csv" 2>&1 &
    smi=$!
    for round in 1 2; do
        for which in old new ${EXTRA:-}; do
            bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
            # EXTRA=name: the new binary with the kernels in $C/kernels-name (CLVIZ_KERNEL_DIR).
            kdir=""; [ $which != old ] && [ $which != new ] && kdir=$C/kernels-$which
            # Each build's program cache in its own folder (the sass step reads the new ones).
            CLVIZ_KERNEL_DIR=$kdir XDG_CACHE_HOME=/tmp/xdg-$which timeout ${AB_S:-90} "$bin" --suite gemm --device-type gpu \
                --variants "$VARIANTS" --sizes "$SIZES" --tune --json "$R/$which$round.json" \
                >"$R/$which$round.txt" 2>"$R/$which$round.err"
            echo "$which round $round rc=$?"
            grep -E "tf32|cov-tensor|probe" "$R/$which$round.txt" | cut -c1-150
        done
    done
    kill $smi
    ;;
sass)
    cuda_tools
    mkdir -p "$R/sass"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/sass" /tmp/xdg-*/clviz/programs --text-any=gemm_tf32_staged --text-any=cov_gram_u8
    SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
    for p in "$R"/sass/*.ptx; do
        [ -f "$p" ] || continue
        s=${p%.ptx}
        "$PTXAS" -arch=sm_${SM:-90} -v "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 && "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
        rm -f "$s.cubin"
        printf '%s total=%s HMMA=%s IMMA=%s LDGSTS=%s LDS=%s LDG=%s BAR=%s BRA=%s STL=%s | %s | %s\n' "$(basename "$s")" \
            "$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' "$s.sass")" "$(grep -c HMMA "$s.sass")" "$(grep -c IMMA "$s.sass")" \
            "$(grep -c LDGSTS "$s.sass")" "$(grep -c 'LDS' "$s.sass")" "$(grep -c 'LDG' "$s.sass")" \
            "$(grep -c 'BAR' "$s.sass")" "$(grep -c 'BRA' "$s.sass")" "$(grep -c 'STL' "$s.sass")" \
            "$(grep -oE 'Used [0-9]+ registers.*' "$s.ptxas.txt" | head -1)" "$(grep -oE '\-D[A-Z_]+(=[0-9]+)?' "$s.key" | tr '\n' ' ')"
    done | tee "$R/sass_counts.txt"
    ;;
*) echo "unknown step $step" >&2 ;;
esac
tar czf "${OUT:-/tmp}/tc29.tgz" -C "$R" .
done
