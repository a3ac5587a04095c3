#!/usr/bin/env bash
# The lead's second call of session 6 (carry $C, from the repository root):
#   moments  tree-phases at 16M, theta 0.55, for each kernels copy kv/NAME (fence2: both device
#            fences every climb step, as committed; fence1: no release fence before the first
#            counter, when the work-item has written nothing; atom: one atom.acq_rel.gpu in place
#            of fence + atomic + fence), then tree-steps (STEPS steps of the 16M sphere) for each
#   gemm     gemm-tf32 at 4096 and 8192 for bin/prev (operands rounded in the loop) and bin/new
#            (rounded by the packing kernel), three rounds in turn; then the GPU's TF32 tests
#   cov      cov-tensor alone (default row) for old, prev and new, two rounds; new with --tune
# Everything lands in $OUT/lead-s6b.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-lead6b}
source "$C/gpu-env.sh" "$C"
results_dir lead-s6b
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 500 >"$R/smi.csv" 2>&1 &
smi=$!
cfg='128:1:4:512:0.55'
for step in "$@"; do
    t0=$SECONDS
    case $step in
    moments)
        for v in ${KV:-fence2 fence1 atom}; do
            CLVIZ_KERNEL_DIR=$C/kv/$v XDG_CACHE_HOME=/tmp/xdg-p-$v TREE_LABEL=$v TREE_KICK=1 \
                TREE_CONFIGS=$cfg timeout 90 "$C/tree-phases" 16777216 2>&1 | grep -v '^$' |
                tee -a "$R/phases.txt"
        done
        for v in ${KV:-fence2 fence1 atom}; do
            echo "== $v" | tee -a "$R/steps.txt"
            CLVIZ_KERNEL_DIR=$C/kv/$v XDG_CACHE_HOME=/tmp/xdg-s-$v timeout 90 "$C/tree-steps" \
                16777216 ${STEPS:-10} 2>&1 | grep -v '^$' | tee -a "$R/steps.txt"
        done
        ;;
    gemm)
        for round in 1 2 3; do
            for b in prev new; do
                XDG_CACHE_HOME=/tmp/xdg-g-$b timeout 120 "$C/bin/$b/clviz-bench" --suite gemm \
                    --device-type gpu --variants gemm-tf32 --sizes 4096,8192 \
                    --json "$R/gemm-$b-$round.json" >"$R/gemm-$b-$round.txt" 2>&1
                echo "$b $round"; grep -E "gemm-tf32" "$R/gemm-$b-$round.txt"
            done
        done
        gtest_run "$R/test-gemm.txt" "gemm tests" env XDG_CACHE_HOME=/tmp/xdg-gt timeout 150 \
            "$C/compute_linalg_gemm_test" --gtest_filter='*Tf32*:*tf32*:*Bulk*:*Pack*:*WholeTiles*'
        ;;
    cov)
        for round in 1 2; do
            for b in old prev new; do
                XDG_CACHE_HOME=/tmp/xdg-c-$b timeout 60 "$C/bin/$b/clviz-bench" --suite gemm \
                    --device-type gpu --variants cov-tensor --sizes 1024 \
                    --json "$R/cov-$b-$round.json" >"$R/cov-$b-$round.txt" 2>&1
                echo "$b $round"; grep -E "cov-tensor" "$R/cov-$b-$round.txt"
            done
        done
        XDG_CACHE_HOME=/tmp/xdg-c-new timeout 120 "$C/bin/new/clviz-bench" --suite gemm \
            --device-type gpu --variants cov-tensor --sizes 1024 --tune \
            --json "$R/cov-new-tune.json" >"$R/cov-new-tune.txt" 2>&1
        grep -E "cov-tensor" "$R/cov-new-tune.txt"
        ;;
    esac
    echo "$step $((SECONDS - t0)) s" | tee -a "$R/times.txt"
    tar czf "${OUT:-/tmp}/lead-s6b.tgz" -C "$R" .
done
kill $smi 2>/dev/null
