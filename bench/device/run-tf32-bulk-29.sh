#!/usr/bin/env bash
# Issue 29's TF32 GEMM, round tf32-bulk-29 (operands packed, stages filled by Hopper's bulk copies),
# one device call (bench/device/README.md). Adapted from run-tc29b.sh. Run from the repository root
# with a carried folder $C holding old/clviz-bench (main's), bench-libs.tar.xz (pack-bench-libs.sh),
# and as the steps need: clviz-bench and compute_linalg_gemm_test (this build), kernels-NAME/ for
# each name in KV (bulk-timing-kernels.sh: timing-only folders run by main's binary).
# Usage: C=.carry-tf32-bulk-29 [KV="bulk bnomma"] bench/device/run-tf32-bulk-29.sh STEP...
#   timing  gemm-tf32 at $SIZES by main's binary: its own kernels (unless SKIP_OLD=1), then each
#           kernels-NAME through CLVIZ_KERNEL_DIR, with every $TUNINGS row; in turn, $ROUNDS times
#   ab      gemm-tf32 at $SIZES: old (default), new (default and every $NEW_TUNINGS row); in turn,
#           $ROUNDS times
#   tests   the GEMM test binary (PTX paths on): the TF32 tests ($TEST_FILTER)
#   faults  the bulk tests with each kernels-NAME of $FAULTS (planted faults: each must fail)
#   sass    ptxas + cuobjdump of the gemm_tf32 programs the runs built; counts in the k-tile loop
# Everything lands in $OUT/tf32bulk.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-tf32-bulk-29}
R=/tmp/tf32bulk
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/tf32bulk.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"
print_card "$R/card.txt"
SIZES=${SIZES:-4096,8192}
ROUNDS=${ROUNDS:-2}
KV=${KV:-}
TUNINGS=${TUNINGS:-"BM=128 BN=128 BK=8 WM=64 WN=64;BM=128 BN=256 BK=8 WM=64 WN=64;BM=256 BN=128 BK=8 WM=64 WN=64"}
NEW_TUNINGS=${NEW_TUNINGS:-}
targs() {
    local t out=()
    IFS=';' read -ra tl <<<"$1"
    for t in "${tl[@]}"; do out+=(--gemm-tuning "$t"); done
    echo "${out[@]@Q}"
}
summary() {
    python3 - "$1" <<'PY'
import json, sys
try:
    rows = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    sys.exit(f"  no JSON: {e}")
for r in rows:
    m = r.get("metrics", {})
    if r["variant"] == "mma-tf32-probe":
        print(f"  probe {m.get('GFLOP/s', 0) / 1e3:.0f} TFLOP/s")
    elif r["variant"] == "gemm-tf32":
        print(f"  {r['size']:>7} {r.get('median_ms', 0):8.3f} ms {m.get('GFLOP/s', 0) / 1e3:6.1f} TFLOP/s"
              f" err {m.get('rel.err', 0):.1e} {r['config']}" + ("" if "checked" in r["note"] else " !! " + r["note"][:100]))
PY
}
bench() {  # NAME BINARY KERNEL_DIR TUNING_ARGS...
    local name=$1 bin=$2 kdir=$3
    shift 3
    CLVIZ_KERNEL_DIR=$kdir XDG_CACHE_HOME=/tmp/xdg-${name%[0-9]} timeout ${AB_S:-60} "$bin" --suite gemm \
        --device-type gpu --variants gemm-tf32 --sizes "$SIZES" "$@" --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    echo "$name rc=$?"
    summary "$R/$name.json"
}
for step in "$@"; do
case $step in
timing|ab)
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks-$step.csv" 2>&1 &
    smi=$!
    for round in $(seq 1 $ROUNDS); do
        if [ $step = timing ]; then
            eval "ta=($(targs "$TUNINGS"))"
            [ -n "${SKIP_OLD:-}" ] || bench old$round "$C/old/clviz-bench" "" "${ta[@]}"
            for kv in $KV; do bench $kv$round "$C/old/clviz-bench" "$C/kernels-$kv" "${ta[@]}"; done
        else
            bench old$round "$C/old/clviz-bench" ""
            eval "ta=($(targs "$NEW_TUNINGS"))"
            bench new$round "$C/clviz-bench" "" "${ta[@]}"
        fi
    done
    kill $smi
    ;;
tests)
    gtest_run "$R/test_gemm.txt" tests env CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-120} \
        "$C/compute_linalg_gemm_test" --gtest_filter="${TEST_FILTER:-*Tf32*:*tf32*:*Bulk*:*Pack*:*WholeTiles*}"
    grep -E '^\[  FAILED|Failure' "$R/test_gemm.txt" | head -8
    ;;
faults)
    for f in ${FAULTS:-}; do
        gtest_run "$R/fault_$f.txt" "fault $f" env CLVIZ_KERNEL_DIR=$C/kernels-$f CLVIZ_PROGRAM_CACHE=off \
            timeout ${TEST_S:-120} "$C/compute_linalg_gemm_test" --gtest_filter='*Bulk*'
    done
    ;;
sass)
    for x in /tmp/xdg-*; do cached_sass "$x" "$R/sass/$(basename "$x")" gemm_tf32; done
    for s in "$R"/sass/*/*.sass; do
        [ -f "$s" ] || continue
        printf '%s | %s | %s\n' "${s#$R/sass/}" "$(python3 "$(dirname "$0")/sass_hmma_loop.py" "$s")" \
            "$(grep -oE 'Used [0-9]+ registers.*' "${s%.sass}.ptxas.txt" | head -1)"
    done | tee "$R/sass_counts.txt"
    ;;
*) echo "unknown step $step" >&2 ;;
esac
tar czf "${OUT:-/tmp}/tf32bulk.tgz" -C "$R" .
done
