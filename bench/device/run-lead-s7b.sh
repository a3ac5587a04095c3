#!/usr/bin/env bash
# The lead's issue-29 call of session 7 on one GPU (carry $C: clviz-bench, bench-libs.tar.xz,
# gpu-env.sh, cached_ptx.py, sass_hmma_loop.py, sass_loops.py, clblast_tuner_xgemm), from the
# repository root: the gemm suite's tables with today's kernels on whatever card comes, in order:
#   tuner    CLBlast's own tuner on the GPU's platform (a random 1/FRACTION of its second search
#            space, tiles up to 128 x 128, at 2048^3; stopped once that space's JSON is written or
#            after TUNER_S seconds), then imported with --clblast-tuning
#   table    every GEMM variant, CLBlast with its default database, the covariance rows, sizes
#            1024-8192 (a fresh cache: no tuned parameters)
#   tuned    CLBlast with the tuner's parameters (the same sizes), then ours with --tune at
#            4096 and 8192 (gemm-pipelined, gemm-tf32)
#   reduce   the reduce suite at 256 MiB (the read probe beside it)
#   sass     SASS of the TF32 bulk kernel and of gemm-pipelined from the table's program cache
# Everything lands in $OUT/lead-s7b.tgz, rewritten after every step.
set -uo pipefail
C=${C:-.carry-lead7b}
C=$(cd "$C" && pwd)
R=/tmp/lead-s7b
rm -rf "$R" /tmp/xdg-*
mkdir -p "$R"
pack() { tar czf "${OUT:-/tmp}/lead-s7b.tgz.part" -C "$R" . && mv "${OUT:-/tmp}/lead-s7b.tgz.part" "${OUT:-/tmp}/lead-s7b.tgz"; }
stamp() { echo "[$SECONDS s] $*" | tee -a "$R/steps.txt"; pack; }
source "$C/gpu-env.sh" "$C"
print_card "$R/card.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks.csv" 2>&1 &
CLOCKS=$!
trap 'kill $CLOCKS 2>/dev/null; pack' EXIT
sizes=${SIZES:-1024,2048,4096,8192}
bench() {  # bench NAME XDG SECONDS ARGS...
    local name=$1 xdg=$2 limit=$3
    shift 3
    echo "== $name: clviz-bench $*" >>"$R/commands.txt"
    XDG_CACHE_HOME=$xdg timeout "$limit" "$C/clviz-bench" --device-type gpu --wide "$@" \
        --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    stamp "$name rc=$?"
    grep -E "^(gemm|covariance|reduce|probe)" "$R/$name.txt" | cut -c1-150
}
for step in "$@"; do
    case $step in
    tuner)
        NV_PLATFORM=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\):.*NVIDIA.*/\1/p' | head -1)
        stamp "NVIDIA platform index: ${NV_PLATFORM:-not found}"
        [ -n "$NV_PLATFORM" ] || continue
        t0=$SECONDS
        (cd "$R" && exec "$C/clblast_tuner_xgemm" -platform "$NV_PLATFORM" -precision 32 -m 2048 \
            -n 2048 -k 2048 -fraction "${FRACTION:-400}" >"$R/clblast_tuner.txt" 2>&1) &
        tuner=$!
        while kill -0 $tuner 2>/dev/null && [ ! -s "$R/clblast_xgemm_2_32.json" ] &&
            [ $((SECONDS - t0)) -lt "${TUNER_S:-100}" ]; do sleep 1; done
        kill $tuner 2>/dev/null
        wait $tuner 2>/dev/null
        stamp "tuner done after $((SECONDS - t0)) s: $(ls "$R"/clblast_xgemm_*.json 2>/dev/null | tr '\n' ' ')"
        grep -E '"device"|best_parameters|best_time' "$R"/clblast_xgemm_2_32.json 2>/dev/null | cut -c1-300
        ;;
    table)
        bench table /tmp/xdg-def 200 --suite gemm --sizes "$sizes" --variants \
            gemm-naive,gemm-tile,gemm-regblock,gemm-double-buffer,gemm-pipelined,gemm-tf32,clblast,cov-tensor,cov-tiled
        ;;
    tuned)
        if [ -s "$R/clblast_xgemm_2_32.json" ]; then
            bench clblast-tuned /tmp/xdg-tuned 120 --suite gemm --sizes "$sizes" --variants clblast \
                --clblast-tuning "$R/clblast_xgemm_2_32.json"
            cp -r /tmp/xdg-tuned/clviz/clblast "$R/clblast-cache" 2>/dev/null
        fi
        bench ours-tuned /tmp/xdg-def 150 --suite gemm --sizes 4096,8192 --tune \
            --variants gemm-pipelined,gemm-tf32
        ;;
    reduce) bench reduce /tmp/xdg-def 90 --suite reduce --sizes 262144 ;;
    sass)
        cached_sass /tmp/xdg-def "$R/sass-tf32" "cp.async.bulk" gemm_tf32_bulk
        cached_sass /tmp/xdg-def "$R/sass-fp32" ".entry gemm_pipelined" gemm_pipelined
        for s in "$R"/sass-tf32/*.sass; do
            [ -e "$s" ] && python3 "$C/sass_hmma_loop.py" "$s" | tee "$s.counts.txt"
        done
        for s in "$R"/sass-fp32/*.sass; do
            [ -e "$s" ] && python3 "$C/sass_loops.py" --op FFMA "$s" | tee "$s.counts.txt"
        done
        for s in "$R"/sass-*/*.sass; do [ -e "$s" ] && xz -9 "$s"; done
        stamp "sass done"
        ;;
    esac
done
