#!/usr/bin/env bash
# Issue 29's FP32 SIMT rows, round sgemm-29, in one device call (bench/device/README.md): this
# build (with gemm-pipelined) against an older one, interleaved, both with CLBlast's carried tuned
# parameters, gemm-pipelined's tuning candidates, its tests on the GPU and the SASS of its
# programs. Run from the repository root on the lent machine with a carried folder $C holding
# clviz-bench (this build), old/clviz-bench, bench-libs.tar.xz (pack-bench-libs.sh),
# clblast-cache/*.txt (clviz's CLBlast parameter file), gpu-env.sh, sass_loops.py,
# sass_bank_conflicts.py and,
# optionally, compute_linalg_*_test binaries.
# Usage: C=.carry-sgemm-29 bash .carry-sgemm-29/run-sgemm29.sh
# Steps are ordered by importance and skipped once the call has run LIMIT_S seconds (default 170);
# everything lands in $OUT/sgemm29.tgz, rewritten after every step.
set -uo pipefail
C=${C:-.carry-sgemm-29}
C=$(cd "$C" && pwd)
R=/tmp/sgemm29
LIMIT_S=${LIMIT_S:-170}
mkdir -p "$R" /tmp/xdg-new/clviz/clblast /tmp/xdg-old/clviz/clblast
trap 'kill $CLOCKS 2>/dev/null' EXIT
source "$C/gpu-env.sh" "$C"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } | tee "$R/card.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 >"$R/clocks.csv" 2>&1 &
CLOCKS=$!
read -r -a gpu <<<"${DEVICE_ARGS:---device-type gpu}"  # DEVICE_ARGS="--device-type cpu": a dry run
SIZES=${SIZES:-1024,2048,4096,8192}
OLD_V=gemm-regblock,gemm-double-buffer,clblast
NEW_V=gemm-regblock,gemm-double-buffer,gemm-pipelined,clblast
left() { [ "$SECONDS" -lt "$LIMIT_S" ]; }
pack() { tar czf "${OUT:-/tmp}/sgemm29.tgz.part" -C "$R" . && mv "${OUT:-/tmp}/sgemm29.tgz.part" "${OUT:-/tmp}/sgemm29.tgz"; }
stamp() { echo "[$SECONDS s] $*" | tee -a "$R/steps.txt"; pack; }
bench() {  # bench NAME BINARY XDG ARGS...
    local name=$1 bin=$2 xdg=$3
    shift 3
    XDG_CACHE_HOME=$xdg timeout "${BENCH_S:-60}" "$bin" --suite gemm "${gpu[@]}" --wide ${EXTRA_ARGS:-} "$@" \
        --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    stamp "$name rc=$?"
}

# CLBlast tuned on the H100 (simt-29: 201 configurations of its tuner's second space), so every
# CLBlast row of this call is the tuned library.
cp "$C"/clblast-cache/*.txt /tmp/xdg-new/clviz/clblast/ && cp "$C"/clblast-cache/*.txt /tmp/xdg-old/clviz/clblast/
stamp "carried CLBlast parameters: $(tail -1 "$C"/clblast-cache/*.txt)"

# KV="v0 v2 ...": instead of the steps below, kernel-source variants of gemm-pipelined, each
# $C/kv/NAME/ a copy of kernels/ read through CLVIZ_KERNEL_DIR (v0: the build's own), in turn
# with their own program caches, each beside the double-buffered row and CLBlast, then the SASS
# of each variant's default program and its bank-conflicting FFMAs.
if [ -n "${KV:-}" ]; then
    for v in $KV; do
        left || break
        kdir=""
        [ "$v" = v0 ] || kdir="$C/kv/$v"
        mkdir -p "/tmp/xdg-$v/clviz/clblast" && cp "$C"/clblast-cache/*.txt "/tmp/xdg-$v/clviz/clblast/"
        CLVIZ_KERNEL_DIR=$kdir bench "kv-$v" "$C/clviz-bench" "/tmp/xdg-$v" \
            --variants ${KV_VARIANTS:-gemm-double-buffer,gemm-pipelined,clblast} --sizes "${KV_SIZES:-4096,8192}" \
            ${KV_TUNING:+--gemm-tuning "$KV_TUNING"}
    done
    cuda_tools
    for v in $KV; do
        python3 "$(dirname "$0")/cached_ptx.py" "$R/sass-$v" /tmp/xdg-$v/clviz/programs \
            --glob 'gemm_pipelined-*.clbin'
        for p in "$R/sass-$v"/*.ptx; do
            [ -e "$p" ] || continue
            s=${p%.ptx}
            cap=$(grep -o 'maxrregcount=[0-9]*' "$s.key" | cut -d= -f2)
            "$PTXAS" -arch=sm_90 -v ${cap:+-maxrregcount $cap} "$s.ptx" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 &&
                "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
            rm -f "$s.cubin" "$s.ptx"
            echo "== $v $(grep -o 'options=.*' "$s.key")"
            grep -o 'Used [0-9]* registers\|[0-9]* bytes spill [a-z]*' "$s.ptxas.txt" | tr '\n' ' '
            python3 "$C/sass_bank_conflicts.py" "$s.sass" gemm_pipelined 2>&1 | tail -1
            python3 "$C/sass_loops.py" --op FFMA "$s.sass" | sed 1d
        done
    done | tee "$R/kv_sass.txt"
    stamp "kv done"
    for v in $KV; do echo "== kv-$v"; grep -E 'gemm-|clblast-sgemm' "$R/kv-$v.txt" | cut -c1-140; done
    exit 0
fi

# 1. Old and new build in turn, every square size, default tilings.
bench before1 "$C/old/clviz-bench" /tmp/xdg-old --variants $OLD_V --sizes "$SIZES"
bench after1 "$C/clviz-bench" /tmp/xdg-new --variants $NEW_V --sizes "$SIZES"
# 2. gemm-pipelined's tuning candidates (register caps, 16-deep tiles, 128 work-items).
left && bench tune1 "$C/clviz-bench" /tmp/xdg-new --variants gemm-pipelined --sizes "${TUNE_SIZES:-4096,8192}" --tune
# 3. Its tests (and the other GEMM variants') with NVIDIA's compiler.
for t in gemm_pipelined gemm; do
    if [ -x "$C/compute_linalg_${t}_test" ] && left; then
        XDG_CACHE_HOME=/tmp/xdg-new timeout "${TEST_S:-40}" "$C/compute_linalg_${t}_test" >"$R/test_$t.txt" 2>&1
        stamp "test $t rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_$t.txt" | tr '\n' ' ')"
    fi
done
# 4. SASS of this build's FP32 GEMM programs: the cached binaries are PTX; ptxas assembles them
# (with the program's register cap), cuobjdump lists them, sass_loops.py counts the k-tile loop.
cuda_tools
mkdir -p "$R/sass"
python3 "$(dirname "$0")/cached_ptx.py" "$R/sass" /tmp/xdg-new/clviz/programs --glob 'gemm*.clbin' --key-all=-DTM= --key-all=-DFULL_TILES
for p in "$R"/sass/*.ptx; do
    [ -e "$p" ] || continue
    [ "$SECONDS" -lt "$((LIMIT_S + 20))" ] || { rm -f "$p"; continue; }
    s=${p%.ptx}
    cap=$(grep -o 'maxrregcount=[0-9]*' "$s.key" | cut -d= -f2)
    "$PTXAS" -arch=sm_90 -v ${cap:+-maxrregcount $cap} "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 &&
        "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
    rm -f "$s.cubin"
    gzip -9 "$p"
done
for s in "$R"/sass/*.sass; do
    [ -s "$s" ] || continue
    echo "== $(basename "${s%.sass}"): $(grep -o 'options=.*' "${s%.sass}.key")"
    grep -o 'Used [0-9]* registers[^,]*\|[0-9]* bytes spill [a-z]*' "${s%.sass}.ptxas.txt" | tr '\n' ' '
    echo
    python3 "$C/sass_loops.py" --op FFMA "$s" | sed 1d
done | tee "$R/sass_counts.txt"
stamp "SASS counted"
# 5. A second old/new pair, if time is left.
left && bench before2 "$C/old/clviz-bench" /tmp/xdg-old --variants $OLD_V --sizes "$SIZES"
left && bench after2 "$C/clviz-bench" /tmp/xdg-new --variants $NEW_V --sizes "$SIZES"
stamp "done"
for f in before1 after1 tune1 before2 after2; do
    [ -f "$R/$f.txt" ] && { echo "== $f"; grep -E 'probe|gemm-|clblast' "$R/$f.txt" | cut -c1-150; }
done
