#!/usr/bin/env bash
# Issue 29's TF32 GEMM, round tf32-pack-29 (both operands packed in one launch through local
# memory), one device call (bench/device/README.md). Adapted from run-tf32-bulk-29.sh. Run from the
# repository root with a carried folder $C holding old/clviz-bench (main before the bulk path),
# main/clviz-bench (main with the bulk path as merged), clviz-bench and compute_linalg_gemm_test
# (this build), bench-libs.tar.xz (pack-bench-libs.sh), gpu-env.sh, and kernels-NAME/ for each
# planted fault of $FAULTS.
# Usage: C=.carry-tf32-pack-29 bench/device/run-tf32-pack-29.sh STEP...
#   ab      gemm-tf32 at $SIZES: old (default), main and new (default and every $TUNINGS row),
#           in turn, $ROUNDS times; new's BULK=1 rows note their packing's time and GB/s
#   tests   the GEMM test binary (PTX paths on): the TF32 tests ($TEST_FILTER)
#   faults  the bulk and packing tests with each kernels-NAME of $FAULTS (each must fail)
# Everything lands in $OUT/tf32pack.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-tf32-pack-29}
R=/tmp/tf32pack
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/tf32pack.tgz" -C "$R" .' EXIT
source "$C/gpu-env.sh" "$C"
print_card "$R/card.txt"
SIZES=${SIZES:-4096,8192}
ROUNDS=${ROUNDS:-2}
TUNINGS=${TUNINGS:-}
summary() {
    python3 - "$1" <<'PY'
import json, re, sys
try:
    rows = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    sys.exit(f"  no JSON: {e}")
for r in rows:
    m = r.get("metrics", {})
    if r["variant"] in ("mma-tf32-probe", "copy-probe"):
        print(f"  {r['variant']} {list(m.values())[0] if m else 0:.0f}")
    elif r["variant"] == "gemm-tf32":
        pack = re.search(r"packing [^;]*", r["note"])
        print(f"  {r['size']:>7} {r.get('median_ms', 0):8.3f} ms {m.get('GFLOP/s', 0) / 1e3:6.1f} TFLOP/s"
              f" err {m.get('rel.err', 0):.1e} {r['config']}" + ("" if "checked" in r["note"] else " !! " + r["note"][:100])
              + (f"\n          {pack.group(0)}" if pack else ""))
PY
}
bench() {  # NAME BINARY ARGS...
    local name=$1 bin=$2
    shift 2
    XDG_CACHE_HOME=/tmp/xdg-${name%[0-9]} timeout ${AB_S:-60} "$bin" --suite gemm \
        --device-type gpu --variants gemm-tf32 --sizes "$SIZES" "$@" --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    echo "$name rc=$?"
    summary "$R/$name.json"
}
for step in "$@"; do
case $step in
ab)
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks-$step.csv" 2>&1 &
    smi=$!
    ta=()
    IFS=';' read -ra tl <<<"$TUNINGS"
    for t in "${tl[@]}"; do ta+=(--gemm-tuning "$t"); done
    for round in $(seq 1 $ROUNDS); do
        bench old$round "$C/old/clviz-bench"
        bench main$round "$C/main/clviz-bench" "${ta[@]}"
        bench new$round "$C/clviz-bench" "${ta[@]}"
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
            timeout ${TEST_S:-120} "$C/compute_linalg_gemm_test" --gtest_filter='*Bulk*:*Pack*'
    done
    ;;
*) echo "unknown step $step" >&2 ;;
esac
tar czf "${OUT:-/tmp}/tf32pack.tgz" -C "$R" .
done
