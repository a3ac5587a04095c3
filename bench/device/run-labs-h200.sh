#!/usr/bin/env bash
# One device call for a session's GPU figures (bench/device/README.md): run from the repository
# root on the lent NVIDIA machine with a carried folder $C holding clviz-bench, bench-libs.tar.xz
# (pack-bench-libs.sh) and, for `ab`, old/clviz-bench (an earlier commit's build).
# Usage: C=.carry-final bench/device/run-labs-h200.sh STEP...
#   ab      N-body and image rows, the old build and this one interleaved (two rounds each)
#   linalg  --suite gemm --tune and --suite reduce
#   mnf     with old/clviz-bench: old and new in turn at 614x1087x224, two rounds; then --suite mnf
#           (the three issue sizes), then clviz-mnf-eigen-probe if $C has it
#   tests   every GPU-capable test binary found in $C (ctest names with dots as underscores)
# Everything lands in $OUT/labs.tgz, rewritten after each step; each step's table is printed as it
# finishes. Order the steps by importance: a call cut off keeps only the finished ones.
set -uo pipefail
C=${C:-.carry-final}
R=/tmp/labs
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/labs.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
read -r -a gpu <<<"${DEVICE_ARGS:---device-type gpu}"  # DEVICE_ARGS="--device-type cpu": a dry run
NBODY_SIZES=${NBODY_SIZES:-256k,1m}
IMAGE_SIZES=${IMAGE_SIZES:-4096,8192}
GEMM_SIZES=${GEMM_SIZES:-1024,2048,4096,8192}    # square edges; the covariance rows always run
REDUCE_KIB=${REDUCE_KIB:-1024,262144,1048576}    # 1 MiB, 256 MiB, 1 GiB
for step in "$@"; do
case $step in
ab)
    for round in 1 2; do
        for which in old new; do
            bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
            timeout 300 "$bin" --suite nbody "${gpu[@]}" --no-cpu-baseline \
                --variants vectorized,small-n,pairs,tree --sizes "$NBODY_SIZES" --wg 128 --warmup 2 --repeats 5 \
                --csv "$R/nbody-$which-$round.csv" >"$R/nbody-$which-$round.txt" 2>&1
            echo "nbody $which round $round rc=$?"
            timeout 200 "$bin" --suite image "${gpu[@]}" --no-cpu-baseline --sizes "$IMAGE_SIZES" \
                --csv "$R/image-$which-$round.csv" >"$R/image-$which-$round.txt" 2>&1
            echo "image $which round $round rc=$?"
        done
    done
    ;;
linalg)
    timeout 300 "$C/clviz-bench" --suite gemm "${gpu[@]}" --tune --sizes "$GEMM_SIZES" --json "$R/gemm.json" \
        --csv "$R/gemm.csv" >"$R/gemm.txt" 2>"$R/gemm.err"
    echo "gemm rc=$?"; cat "$R/gemm.txt"
    timeout 120 "$C/clviz-bench" --suite reduce "${gpu[@]}" --sizes "$REDUCE_KIB" --json "$R/reduce.json" \
        --csv "$R/reduce.csv" >"$R/reduce.txt" 2>"$R/reduce.err"
    echo "reduce rc=$?"; cat "$R/reduce.txt"
    ;;
mnf)
    # With an old build carried: both in turn on the issue's largest cube first, two rounds.
    if [ -x "$C/old/clviz-bench" ]; then
        for round in 1 2; do
            for which in old new; do
                bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
                timeout 120 "$bin" --suite mnf "${gpu[@]}" --sizes 614x1087x224 --warmup 3 \
                    --repeats 30 >"$R/mnf-$which-$round.txt" 2>&1
                echo "mnf $which round $round rc=$?"
                grep -E "eigen|whole|device steps|host: 1,2,4" "$R/mnf-$which-$round.txt" | head -24
            done
        done
    fi
    timeout 300 "$C/clviz-bench" --suite mnf "${gpu[@]}" --json "$R/mnf.json" --csv "$R/mnf.csv" \
        >"$R/mnf.txt" 2>"$R/mnf.err"
    echo "mnf rc=$?"; cat "$R/mnf.txt"
    # The host's share: the eigen step's LAPACK routines one by one (where the probe was carried).
    if [ -x "$C/clviz-mnf-eigen-probe" ]; then
        timeout 60 "$C/clviz-mnf-eigen-probe" >"$R/mnf-eigen-probe.txt" 2>&1
        echo "mnf eigen probe rc=$?"; cat "$R/mnf-eigen-probe.txt"
    fi
    ;;
tests)
    for t in "$C"/*_test; do
        [ -x "$t" ] || continue
        timeout 240 "$t" >"$R/$(basename "$t").txt" 2>&1
        echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/$(basename "$t").txt" | tr '\n' ' ')"
    done
    ;;
*) echo "unknown step $step" >&2 ;;
esac
# After every step, not only at exit: a call cut off by its time limit (or the session's device
# time) still returns what the finished steps measured.
tar czf "${OUT:-/tmp}/labs.tgz" -C "$R" .
done
