#!/usr/bin/env bash
# Issue 29's u8 covariance options (cov-u8) on the lent GPU, one device call: run from the
# repository root with a carried folder $C holding clviz-bench (this build), old/clviz-bench (main),
# compute_linalg_covariance_test and bench-libs.tar.xz (pack-bench-libs.sh).
# Usage: C=.carry-cov-u8 bench/device/run-covu8.sh STEP...
#   tests  the covariance test binary (PTX paths on)
#   ab     cov-tensor 224 x 667,418 u8: old and new binaries interleaved, ROUNDS times; the new one
#          with --tune adds a row per staged-kernel option (StagedU8Options)
#   regs   ptxas -v register and local-memory counts of the staged kernels this run built
# Everything lands in $OUT/covu8.tgz, rewritten at exit.
set -uo pipefail
C=${C:-.carry-cov-u8}
R=/tmp/covu8
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/covu8.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
DEV=${DEV:-gpu}
command -v nvidia-smi >/dev/null && print_card "$R/card.txt"
for step in "$@"; do
case $step in
tests)
    CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-60} "$C/compute_linalg_covariance_test" >"$R/test_covariance.txt" 2>&1
    echo "test covariance: rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_covariance.txt" | tr '\n' ' ')"
    grep -E '^\[  FAILED|Failure' "$R/test_covariance.txt" | head -5
    ;;
ab)
    for round in $(seq 1 ${ROUNDS:-2}); do
        for which in old new; do
            bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
            XDG_CACHE_HOME=/tmp/xdg-$which timeout ${AB_S:-40} "$bin" --suite gemm --device-type $DEV \
                --variants cov-tensor --sizes 1024 --tune ${QUICK:-} --json "$R/$which$round.json" \
                >"$R/$which$round.txt" 2>"$R/$which$round.err"
            echo "$which round $round rc=$?"
            python3 - "$R/$which$round.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["variant"] == "cov-tensor":
        check = [n for n in r["note"].split("; ") if "exact" in n or "WRONG" in n or "failed" in n]
        print(f'{r["median_ms"]:.4f} ms (min {r["min_ms"]:.4f}, n {r["samples"]}) {r["config"]} | {"; ".join(check)}')
PY
        done
    done
    ;;
regs)
    cuda_tools
    [ -n "$PTXAS" ] || { echo "no ptxas"; continue; }
    mkdir -p "$R/ptx"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/ptx" /tmp/xdg-new/clviz/programs --text-any=cov_gram_u8_staged
    for p in "$R"/ptx/*.ptx; do
        [ -f "$p" ] || continue
        "$PTXAS" -arch=sm_90 -v "$p" -o /dev/null >"${p%.ptx}.ptxas.txt" 2>&1
        echo "$(grep -o 'DSPLIT=[0-9]*[^ ]*\|DADD_IN_PLACE' "${p%.ptx}.key" | tr '\n' ' ') $(grep -o 'Used [0-9]* registers' "${p%.ptx}.ptxas.txt")"
    done
    ;;
esac
done
