#!/usr/bin/env bash
# Compiles the N-body, image, linear-algebra (the TF32 GEMMs too), roofline and spectral kernels of two revisions to PTX with clang's NVPTX back end and
# says, for each program and option set, whether the PTX is the same. An offline check that a
# change to kernel text (moving helpers into kernels/common/*.clh, say) left the code alone; the
# GPU's own compiler (SASS) is the final word. Needs clang-15 (Debian package clang-15).
# Usage: scripts/compare-kernel-ptx.sh [OLD_REV [NEW_REV]]   (defaults: HEAD~1 and the work tree)
set -euo pipefail
old=${1:-HEAD~1}
new=${2:-}
clang=${CLANG:-clang-15}
command -v "$clang" >/dev/null || { echo "needs $clang (apt-get install clang-15)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old" "$work/new"
git archive "$old" kernels | tar -x -C "$work/old"
if [[ -n $new ]]; then git archive "$new" kernels | tar -x -C "$work/new"; else cp -r kernels "$work/new/"; fi

fast="-cl-fast-relaxed-math -cl-mad-enable"
# NV_PTX_RSQRT was the force kernel's switch before NV_INLINE_PTX served every kernel: pass both.
nv="-DNV_INLINE_PTX -DNV_PTX_RSQRT"
tree="-DWG=64 -DSTACK=1024 -DLIST=1024 -DCELLS=512 -DLEAF=4 -DSORT_WG=128 -DSCAN_WG=256 -DREDUCE_WG=256 -DKEY_BITS=21"
programs=()
for v in NAIVE TILED UNROLLED ASYNC_COPY SMALL_N; do
    for x in "$nv" "" "$nv -DSELF_GUARD" "-DREAL_DOUBLE"; do
        programs+=("nbody_force.cl|$fast -DVARIANT_$v -DWG=64 -DUNROLL=4 -DBPI=2 -DSPLIT=2 $x")
    done
done
for vw in 4 8; do
    for x in "$nv" "-DREAL_DOUBLE"; do
        programs+=("nbody_force.cl|$fast -DVARIANT_VECTORIZED -DWG=64 -DUNROLL=4 -DBPI=2 -DVW=$vw $x")
    done
done
programs+=("nbody_pairs.cl|-DWG=64 -DIPI=4 -DJPI=2 $nv" "nbody_pairs.cl|-DWG=64 -DIPI=4 -DJPI=2 -DSELF_GUARD $nv")
programs+=("nbody_tree.cl|$tree" "nbody_tree.cl|$tree -DSELF_GUARD")
# The group walk with the far field, as TreeForce builds it on NVIDIA (third and fourth order).
for o in 3 4; do
    programs+=("nbody_tree.cl|$tree -DWALK_REGISTER_CAP -DFAR_FIELD -DFAR_ORDER=$o $nv")
done
programs+=("nbody_integrate.cl|" "nbody_integrate.cl|-DREAL_DOUBLE")
programs+=("nbody_diagnostics.cl|-DWG=64" "nbody_diagnostics.cl|-DWG=64 -DREAL_DOUBLE")
for f in rotate.cl noise_filters.cl; do
    programs+=("$f|$nv" "$f|$nv -DALIGNED_ROWS" "$f|" "$f|-DALIGNED_ROWS")
done
for f in grayscale.cl equalize.cl transpose.cl; do programs+=("$f|"); done
programs+=("histogram.cl|-DGROUP_SIZE=256")
blocks="-DBM=64 -DBN=64 -DBK=16 -DWG_SIZE=256"
for t in "" "-DTRANS_A -DTRANS_B"; do
    programs+=("gemm.cl|$t" "gemm.cl|$t -DTS=16")
    programs+=("gemm.cl|$t $blocks -DTM=4 -DTN=4 -DVEC_A -DVEC_B -DVEC_C" "gemm.cl|$t $blocks -DTM=4 -DTN=4 -DDOUBLE_BUFFER")
    programs+=("gemm.cl|$t -DBM=64 -DBN=64 -DBK=16 -DWG_SIZE=128 -DWM=32 -DWN=32 $nv" "gemm.cl|$t -DBM=64 -DBN=64 -DBK=16 -DWG_SIZE=128 -DWM=32 -DWN=32")
done
tf32="-DBM=128 -DBN=128 -DBK=16 -DWM=64 -DWN=64 -DWG_SIZE=128 -DSTAGES=2"
for x in "$nv" ""; do
    for t in "" "-DTRANS_A" "-DTRANS_B" "-DTRANS_A -DTRANS_B -DFULL_TILES" "-DPACKED -DFULL_TILES"; do
        programs+=("gemm_tf32_staged.cl|$tf32 $t $x")
    done
    programs+=("gemm_tf32_bulk.cl|$tf32 $x" "gemm_tf32_bulk.cl|$tf32 -DFULL_TILES $x")
done
for x in "$nv" ""; do
    programs+=("covariance.cl|-DU8 -DMMA_U8 -DMT=64 -DVEC_X $x" "covariance.cl|-DU8 -DMMA_U8 -DMT=64 $x")
    for op in "-DOP_SUM" "-DOP_MIN -DT_UINT" "-DOP_MAX"; do programs+=("reduce.cl|$op $x"); done
    programs+=("roofline_probes.cl|$x")
done
programs+=("covariance.cl|-DU8 -DTILE=64" "covariance.cl|-DTILE=64" "covariance.cl|-DU8" "covariance.cl|-DHAS_FP64")
for t in uchar float; do
    programs+=("spectral_mnf.cl|-DIN_T=$t -DROWS=8 -DGROUP=256" "spectral_mnf.cl|-DIN_T=$t -DROWS=32 -DGROUP=256 -DMEDIAN" "spectral_view.cl|-DIN_T=$t")
done
programs+=("matrix_view.cl|")

differ=0
for entry in "${programs[@]}"; do
    file=${entry%%|*}
    opts=${entry#*|}
    for side in old new; do
        # OpenCL C has no `asm` keyword in clang; NVIDIA's compiler takes it.
        # shellcheck disable=SC2086
        "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header \
            -O3 -S -Dasm=__asm__ -I "$work/$side/kernels" $opts "$work/$side/kernels/$file" \
            -o "$work/$side.s" 2>"$work/$side.err" || { echo "BUILD FAILED ($side) $file $opts"; cat "$work/$side.err"; differ=1; continue 2; }
    done
    if cmp -s "$work/old.s" "$work/new.s"; then
        echo "same    $file $opts"
    else
        echo "DIFFERS $file $opts ($(diff "$work/old.s" "$work/new.s" | grep -c '^[<>]') lines)"
        differ=1
    fi
done
exit $differ
