#!/usr/bin/env bash
# The N-body split across the GPUs of one device machine (issues 16 and 17), from the repository
# root. Usage: bench/device/run-scaling-h200.sh [inprocess] [mpi] ...
#   inprocess  clviz-bench --devices gpu: every GPU against the first alone
#   mpi        mpirun with 1 rank, one rank per GPU, and 2 ranks sharing GPU 0 (the exchange
#              alone); Open MPI from Debian's .debs carried in .carry-mpi (the host has none;
#              bench/device/pack-mpi-carry.sh fills it)
#   issue32    pairs at 1,048,576 and the tree at 16,777,216 (and one 67,108,864 tree step row,
#              in one process) on 1, 2 (and 4) GPUs, in one process and over MPI (one rank per
#              GPU), then a short table of ms per step and speed-ups; about 3-5 minutes on 2 GPUs.
#              Needs .carry-mpi for the MPI rows (as mpi). BIG=0 leaves the 67M row out.
#   mpi32      issue 32's second round, rows in order of priority, none started after STOP_AFTER
#              seconds (default 170): the tree at 16M and pairs at 1M on every GPU in one process
#              (x1 and xP rows), over MPI with one rank per GPU through the shared-memory window
#              (the default on one host) and through the collectives (polled back to back, and
#              with 20 us sleeps as before), OLD's tree row (an earlier build, same card), 2 GPUs,
#              and one 67M tree row. $C holds new/ and old/ clviz-bench, bench-libs.tar.xz
#              (pack-bench-libs.sh) and mpi/*.deb (pack-mpi-carry.sh). MPI rows divide by the
#              one-process x1 row (the same GPU and kernel; one rank was within 0.1 % of it).
#              ONLY="i32-mpi-tree-4 ..." runs just the rows named.
# SIZES (default 64k,256k,1m,4m) and VARIANT (default vectorized, wg 128) pick the rows.
set -uo pipefail
bin=${BIN:-.carry-lead}
final=${OUT:-/tmp/out}
out=/tmp/clviz-scaling
mkdir -p "$out" "$final"
trap 'tar czf "$final/results.tgz" -C "$out" .' EXIT  # $OUT returns at most 8 files
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,power.draw,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$out/gpu.txt"
nvidia-smi topo -m > "$out/topology.txt" 2>&1
sizes=${SIZES:-64k,256k,1m,4m}
variant=${VARIANT:-vectorized}
gpus=$(nvidia-smi -L | wc -l)

unpack_mpi() {
    # Debian's Open MPI unpacked next to the host's files, never over them (cp -n).
    for deb in .carry-mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
    cp -rn /opt/mpiroot/. / && ldconfig
    ldd $bin/clviz-bench | grep "not found" | sed 's/^/missing: /'
}
# One host: the isolated launcher needs no ssh; shared memory between the ranks.
mpirun="mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca btl self,vader"

# issue32 rows: NAME (file stem) then clviz-bench arguments; stdout to $out/NAME.txt.
row32() {
    local name=$1
    shift
    echo "== $name: $*" >&2
    timeout 300 "$@" --warmup 3 --repeats 5 --wide --json "$out/$name.json" \
        2>"$out/$name-progress.txt" | tee "$out/$name.txt"
}
# The table: path, rows as clviz-bench printed them (variant, size, median ms), speed-up against
# the x1 row of the same variant, size and path, and the split's check of its first force pass
# against one GPU (bench/split_check.hpp): ok or WRONG, then the figure it rests on: the tree's
# largest |da|/|a| (|a| floored at the RMS) against one GPU's own rerun, pairs' largest |da| over
# the rounding bound, all-pairs' largest |da|/|a| (0 is bit-equal). In-process x1 rows have none.
table32() {
    echo
    echo "issue 32: ms per step (median, wall clock), speed-up against one GPU of the same path;"
    echo "check: the split's first force pass against one GPU (docs/scaling.md, Checking a split)"
    printf '%-10s %-16s %-12s %12s %9s  %s\n' path variant N "ms/step" speed-up check
    for f in "$out"/i32-*.txt; do
        [ -e "$f" ] || continue
        awk -F '  +' -v path="$(basename "$f" .txt | sed 's/^i32-//; s/-.*//')" '
            function figure(name,   w) {  # the number printed before a metric name
                if (!match($0, "[^ ]+ " name)) return ""
                split(substr($0, RSTART, RLENGTH), w, " ")
                return w[1]
            }
            # The report prints the suite in a column (older builds) or as a "== suite ==" line.
            /^== / { section = ($0 ~ /^== nbody-(multi|mpi) ==/); next }
            {
                off = ($1 ~ /^nbody-(multi|mpi)$/) ? 1 : 0
                if (!off && !section) next
                variant = $(1 + off); size = $(3 + off); ms = $(4 + off)
                # a size as wide as its column leaves one space before the median
                if (split(size, z, " ") == 2) { size = z[1]; ms = z[2] }
            }
            variant ~ / x[0-9]/ {
                split(variant, v, " "); key = path " " v[1] " " size
                if (v[2] == "x1") base[key] = ms
                check = "-"
                if (match($0, /check: (ok|WRONG)/)) {
                    check = substr($0, RSTART + 7, RLENGTH - 7)
                    if (v[1] == "tree")
                        check = check " max " figure("\\|da\\|/\\|a\\| max vs one device") \
                                " (rerun " figure("\\|da\\|/\\|a\\| max one-device rerun") ")"
                    else if (v[1] == "pairs")
                        check = check " " figure("\\|da\\|/rounding bound") " of bound"
                    else
                        check = check " max " figure("\\|da\\|/\\|a\\| max vs one device")
                }
                printf "%s\t%s\t%s\t%s\t%s\t%s\n", path, variant, size, ms, key, check
            }
            END { for (k in base) printf "BASE\t%s\t%s\n", k, base[k] }' "$f"
    done | awk -F '\t' '
        $1 == "BASE" { base[$2] = $3; next }
        { row[++n] = $0 }
        END {
            for (i = 1; i <= n; ++i) {
                split(row[i], c, "\t"); k = c[5]; b = base[k]
                # no x1 row in this path (mpi32 runs no 1-rank MPI row): the one-process x1 row
                if (!(b > 0)) { sub(/^[^ ]+/, "inproc", k); b = base[k] }
                # MPI: the 1-rank run is another file; its base is the same variant and size
                printf "%-10s %-16s %-12s %12s %8s  %s\n", c[1], c[2], c[3], c[4],
                       (b > 0 ? sprintf("%.2fx", b / c[4]) : "-"), c[6]
            }
        }'
}

for what in "$@"; do
case $what in
issue32)
    ib="$bin/clviz-bench --suite nbody"
    row32 i32-inproc-pairs $ib --devices gpu --variants pairs --sizes 1m
    row32 i32-inproc-tree $ib --devices gpu --variants tree --sizes 16m
    if [ "$gpus" -ge 4 ]; then
        row32 i32-inproc-pairs2 $ib -p nvidia --devices 0,1 --variants pairs --sizes 1m
        row32 i32-inproc-tree2 $ib -p nvidia --devices 0,1 --variants tree --sizes 16m
    fi
    [ "${BIG:-1}" = 0 ] || row32 i32-inproc-tree64m $ib --devices gpu --variants tree --sizes 64m
    if ls .carry-mpi/*.deb >/dev/null 2>&1; then
        unpack_mpi
        mb="$ib --mpi --mpi-timeout 120 --device-type gpu"
        # One rank writes the x1 rows the table divides by (same variant and size, same file set).
        for ranks in 1 2 $([ "$gpus" -ge 4 ] && echo 4); do
            row32 "i32-mpi-pairs-$ranks" $mpirun -np "$ranks" $mb --variants pairs --sizes 1m
            row32 "i32-mpi-tree-$ranks" $mpirun -np "$ranks" $mb --variants tree --sizes 16m
        done
    else
        echo "no .carry-mpi/*.deb: the MPI rows were not run (bench/device/pack-mpi-carry.sh)" >&2
    fi
    table32 | tee "$out/issue32-table.txt"
    ;;
mpi32)
    C=${C:?mpi32 needs C, the carried folder}
    mkdir -p /tmp/bench-libs && tar -xJf "$C/bench-libs.tar.xz" -C /tmp/bench-libs
    export LD_LIBRARY_PATH=/tmp/bench-libs
    for deb in "$C"/mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
    cp -rn /opt/mpiroot/. / && ldconfig
    ldd "$C/new/clviz-bench" | grep "not found" | sed 's/^/missing: /'
    df -h /dev/shm /tmp | tee "$out/disk.txt"
    # Open MPI backs shared-memory windows with files in /dev/shm, which containers often keep
    # small (a page beyond it is a SIGBUS): /tmp then (the windows are 1 GiB at 16M bodies).
    shm_kb=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)
    if [ "${shm_kb:-0}" -lt 4194304 ]; then
        export OMPI_MCA_osc_sm_backing_directory=/tmp
        echo "shared-memory windows in /tmp (/dev/shm has ${shm_kb:-no} kB)" | tee -a "$out/disk.txt"
    fi
    began=$SECONDS
    # row NAME ARGS...: one row unless STOP_AFTER seconds have passed; its wall time to times.txt
    # ONLY="NAME ...": just those rows (a re-run).
    row() {
        if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $1 "* ]]; then return; fi
        if [ $((SECONDS - began)) -ge "${STOP_AFTER:-170}" ]; then
            echo "not run (time): $1" | tee -a "$out/times.txt"
            return
        fi
        local t0=$SECONDS
        row32 "$@"
        echo "$1 $((SECONDS - t0)) s" >>"$out/times.txt"
    }
    nb="$C/new/clviz-bench --suite nbody"
    ob="$C/old/clviz-bench --suite nbody"
    mb="$nb --mpi --mpi-timeout 120 --device-type gpu"
    all=$gpus
    row i32-inproc-tree $nb --devices gpu --variants tree --sizes 16m
    row i32-mpi-pairs-$all $mpirun -np "$all" $mb --variants pairs --sizes 1m
    row i32-mpi-tree-$all $mpirun -np "$all" $mb --variants tree --sizes 16m
    row i32-inproc-pairs $nb --devices gpu --variants pairs --sizes 1m
    row i32-mpicoll-pairs-$all $mpirun -np "$all" $mb --mpi-exchange collectives --variants pairs --sizes 1m
    row i32-mpicoll20-pairs-$all $mpirun -np "$all" $mb --mpi-exchange collectives --mpi-poll-us 20 --variants pairs --sizes 1m
    row i32-oldinproc-tree $ob --devices gpu --variants tree --sizes 16m
    if [ "$gpus" -ge 4 ]; then
        row i32-mpi-pairs-2 $mpirun -np 2 $mb --variants pairs --sizes 1m
        row i32-mpi-tree-2 $mpirun -np 2 $mb --variants tree --sizes 16m
        row i32-inproc2-pairs $nb -p nvidia --devices 0,1 --variants pairs --sizes 1m
        row i32-inproc2-tree $nb -p nvidia --devices 0,1 --variants tree --sizes 16m
    fi
    row i32-inproc64m-tree $nb --devices gpu --variants tree --sizes 64m
    row i32-mpicoll-tree-$all $mpirun -np "$all" $mb --mpi-exchange collectives --variants tree --sizes 16m
    table32 | tee "$out/issue32-table.txt"
    ;;
inprocess)
    $bin/clviz-bench --suite nbody --devices gpu --variants "$variant" --wg 128 --sizes "$sizes" \
        --warmup 4 --repeats 7 --json "$out/inprocess.json" 2>"$out/inprocess-progress.txt" |
        tee "$out/inprocess.txt"
    ;;
mpi)
    unpack_mpi
    bench="$bin/clviz-bench --suite nbody --mpi --mpi-timeout 120 --variants $variant --wg 128"
    for ranks in 1 "$gpus"; do
        $mpirun -np "$ranks" $bench --device-type gpu --sizes "$sizes" --warmup 4 --repeats 7 \
            2>"$out/mpi-$ranks-progress.txt" | tee "$out/mpi-$ranks.txt"
    done
    # Two ranks on one GPU: what the exchange costs when there is nothing to gain.
    $mpirun -np 2 $bench -p nvidia -d 0 --sizes "${SHARED_SIZES:-64k,256k,1m}" --warmup 4 --repeats 7 \
        2>"$out/mpi-shared-progress.txt" | tee "$out/mpi-shared-gpu.txt"
    ;;
esac
done
