#!/usr/bin/env bash
# Issue 29's FP32 register caps in one short device call (run-simt29.sh trimmed: no CLBlast
# tuner): this build's fixed rows per cap (--gemm-tuning, -cl-nv-maxrregcount) against main's
# default rows, ptxas -v of the double-buffered programs (registers, spills), and with TUNE=1 the
# tuned rows (candidates with caps). Run from the repository root on the lent machine with a carried
# folder $C holding clviz-bench (this build), old/clviz-bench (main), bench-libs.tar.xz
# (pack-bench-libs.sh), clblast-cache/*.txt (CLBlast's tuned parameters from an earlier call) and
# optionally compute_linalg_gemm_register_cap_test.
# Usage: C=.carry-regcap-29 bench/device/run-regcap29.sh
# Steps run in order of importance; a step starts only while SECONDS < LIMIT_S (default 45).
# Everything lands in $OUT/regcap29.tgz, rewritten after every step.
set -uo pipefail
C=${C:-.carry-regcap-29}
C=$(cd "$C" && pwd)
R=/tmp/regcap29
LIMIT_S=${LIMIT_S:-45}
mkdir -p "$R" /tmp/bench-libs /tmp/xdg/clviz/clblast
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv; } \
    >"$R/card.txt" 2>&1
cat "$R/card.txt"
read -r -a gpu <<<"${DEVICE_ARGS:---device-type gpu}"  # DEVICE_ARGS="--device-type cpu": a dry run
SIZES=${SIZES:-4096,8192}
V=gemm-regblock,gemm-double-buffer,clblast
left() { [ "$SECONDS" -lt "$LIMIT_S" ]; }
pack() { tar czf "${OUT:-/tmp}/regcap29.tgz.part" -C "$R" . && mv "${OUT:-/tmp}/regcap29.tgz.part" "${OUT:-/tmp}/regcap29.tgz"; }
stamp() { echo "[$SECONDS s] $*" | tee -a "$R/steps.txt"; pack; }
# One cache for both builds: gemm.cl is the same source, so main's build finds the programs this
# build compiled (compile time is not what is compared) and CLBlast's carried parameters.
cp "$C"/clblast-cache/*.txt /tmp/xdg/clviz/clblast/ 2>/dev/null
bench() {  # bench NAME BINARY XDG ARGS...
    local name=$1 bin=$2 xdg=$3
    shift 3
    XDG_CACHE_HOME=$xdg timeout "${BENCH_S:-60}" "$bin" --suite gemm "${gpu[@]}" --wide ${EXTRA_ARGS:-} "$@" \
        --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    stamp "$name rc=$?"
}

# 1. This build: one fixed row per cap (no tuner: on 2026-11-26 the 22-candidate tuner at 4096 and
# 8192 took more than 45 s on an H100), beside the default row (main's kernel, same options).
bench after "$C/clviz-bench" /tmp/xdg --variants ${FIXED_VARIANTS:-gemm-double-buffer,clblast} --sizes "$SIZES" \
    --gemm-tuning "BM=128 BN=64 BK=16 TM=8 TN=8 REGCAP=128" \
    --gemm-tuning "BM=128 BN=128 BK=16 TM=8 TN=8" \
    --gemm-tuning "BM=128 BN=128 BK=16 TM=8 TN=8 REGCAP=128" \
    --gemm-tuning "BM=128 BN=128 BK=8 TM=8 TN=8" \
    --gemm-tuning "BM=128 BN=128 BK=32 TM=8 TN=8" \
    --gemm-tuning "BM=128 BN=128 BK=32 TM=8 TN=8 REGCAP=128"
# 2. ptxas -v of this build's double-buffered 128-row programs: registers and spill bytes per cap
# (the cache holds PTX; its key names the options). The PTX comes back too, for ptxas here.
cuda_tools
if [ -n "$PTXAS" ]; then
    mkdir -p "$R/ptxas"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/ptxas" /tmp/xdg/clviz/programs --key-all=-DDOUBLE_BUFFER --key-all=-DBM=128
    for p in "$R/ptxas"/*.ptx; do
        [ -e "$p" ] || continue
        s=${p%.ptx}
        # The cached PTX may not carry the cap (.maxnreg): the driver applies the build option
        # when it assembles, so ptxas gets it as -maxrregcount here.
        cap=$(grep -o 'cl-nv-maxrregcount=[0-9]*' "$s.key" | head -1 | cut -d= -f2)
        timeout 10 "$PTXAS" -arch=sm_90 -v ${cap:+-maxrregcount $cap} "$p" -o /dev/null >"$s.ptxas.txt" 2>&1
        printf '%s | %s | maxnreg %s | %s\n' "$(basename "$s")" \
            "$(grep -o -- '-DBM=[^ ]* -DBN=[^ ]* -DBK=[^ ]*\|-cl-nv-maxrregcount=[0-9]*\|-DONE_LOCAL' "$s.key" | tr '\n' ' ')" \
            "$(grep -o 'maxnreg [0-9]*' "$p" | head -1 | cut -d' ' -f2)" \
            "$(grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores, [0-9]* bytes spill loads\|[0-9]* bytes stack frame' "$s.ptxas.txt" | tr '\n' ' ')"
    done | tee "$R/ptxas_summary.txt"
    stamp "ptxas done"
fi
# 3. Main's build, default rows only (its candidates have no caps), then this build tuned (the
# brief's command: --tune) while time is left.
if left; then
    bench before "$C/old/clviz-bench" /tmp/xdg --variants gemm-double-buffer,clblast --sizes "$SIZES"
fi
if left && [ -n "${TUNE:-}" ]; then
    bench after-tuned "$C/clviz-bench" /tmp/xdg --variants gemm-regblock,gemm-double-buffer,clblast --sizes "$SIZES" --tune
fi
# 4. The register-cap test on the GPU (the capped build against the double reference).
if left && [ -x "$C/compute_linalg_gemm_register_cap_test" ]; then
    XDG_CACHE_HOME=/tmp/xdg timeout 20 "$C/compute_linalg_gemm_register_cap_test" >"$R/test_register_cap.txt" 2>&1
    stamp "test rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_register_cap.txt" | tr '\n' ' ')"
fi
stamp "done"
for f in before after after-tuned; do
    [ -f "$R/$f.txt" ] && { echo "== $f"; grep -E 'gemm-|clblast' "$R/$f.txt" | cut -c1-150; }
done
