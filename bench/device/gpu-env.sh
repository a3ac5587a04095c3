# Sourced by the run-*.sh scripts on the lent NVIDIA machine: puts the carried libraries
# (pack-bench-libs.sh's bench-libs.tar.xz in the carried folder given as $1) on the library path
# and registers NVIDIA's OpenCL driver with the ICD loader (the host has the driver but no ICD
# file). Without nvidia-smi (a dry run on the CPU) the driver is left out. A script copied into a
# carried folder needs this file beside it.
# Usage: source "$(dirname "$0")/gpu-env.sh" "$C"
mkdir -p /tmp/bench-libs
tar xJf "$1/bench-libs.tar.xz" -C /tmp/bench-libs
export LD_LIBRARY_PATH=/tmp/bench-libs
if command -v nvidia-smi >/dev/null; then
    echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi

# The tree rows' clviz-bench options (GPUs, no CPU baseline) and the split rows' timing, for the
# run-lead-*.sh scripts.
TREE_OPTS="--suite nbody --device-type gpu --no-cpu-baseline --variants tree"
SPLIT_TIMING="--warmup 3 --repeats 5 --wide"

# The date and the card (name, driver, clocks, memory) into FILE and on standard output.
print_card() {
    { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv; } |
        tee "$1"
}

# The host's CUDA ptxas and cuobjdump (PATH, else /usr/local/cuda*/bin) as PTXAS and CUOBJDUMP,
# empty where missing; cached_ptx.py (beside this file) writes the PTX they take.
cuda_tools() {
    PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
    CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
}

# SASS of clviz's cached programs (XDG cache folder $1) whose PTX holds the text $3, assembled for
# the card's SM into $2: NAME.sass (cuobjdump -sass, only the function $4 where given) and
# NAME.ptxas.txt per program, the PTX dropped. Calls cuda_tools; without ptxas or cuobjdump the
# PTX stays (NAME.ptx).
cached_sass() {
    local xdg=$1 out=$2 text=$3 fun=${4:-} sm p s
    cuda_tools
    sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
    mkdir -p "$out"
    python3 "$(dirname "${BASH_SOURCE[0]}")/cached_ptx.py" "$out" "$xdg/clviz/programs" \
        --text-any="$text"
    for p in "$out"/*.ptx; do
        [ -e "$p" ] && [ -n "$PTXAS" ] && [ -n "$CUOBJDUMP" ] || continue
        s=${p%.ptx}
        "$PTXAS" -arch=sm_${sm:-90} -v "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 &&
            "$CUOBJDUMP" -sass ${fun:+-fun "$fun"} "$s.cubin" >"$s.sass" 2>/dev/null
        rm -f "$s.cubin" "$p"
    done
}

# The results folder of a run-*.sh script: R=/tmp/NAME, emptied (and the XDG caches of earlier
# runs on a warm machine), packed into $OUT/NAME.tgz when the script exits, and the card printed
# into it. Usage, after sourcing this file: results_dir NAME
results_dir() {
    R=/tmp/$1 RESULTS_NAME=$1
    rm -rf "$R" /tmp/xdg-*
    mkdir -p "$R"
    # shellcheck disable=SC2064  # the archive's name is fixed now
    trap "tar czf '${OUT:-/tmp}/$1.tgz' -C '$R' ." EXIT
    print_card "$R/card.txt"
}

# row NAME COMMAND...: one clviz-bench run (the command gets --json $R/NAME.json) with a cache of
# its own; its table to $R/NAME.txt and the screen, its progress to NAME-progress.txt, the command
# to commands.txt, its seconds to times.txt; $R packed after it (a call cut off keeps the rows
# done). ROW_TIMEOUT seconds at most (default 240). ROW_XDG, where set, is a program cache every
# row shares (each build then compiles its kernels once; the cache keys on the sources). Needs
# results_dir first.
row() {
    local name=$1 t0=$SECONDS
    shift
    echo "== $name: $*" | tee -a "$R/commands.txt"
    XDG_CACHE_HOME=${ROW_XDG:-/tmp/xdg-$name} timeout "${ROW_TIMEOUT:-240}" "$@" --json "$R/$name.json" \
        2>"$R/$name-progress.txt" | tee "$R/$name.txt"
    echo "$name $((SECONDS - t0)) s" >>"$R/times.txt"
    tar czf "${OUT:-/tmp}/$RESULTS_NAME.tgz" -C "$R" .
}

# gtest_run LOG LABEL COMMAND...: one run of a carried test binary (COMMAND, e.g. `timeout 120
# BIN --gtest_filter=...`, with `env VAR=...` in front where it needs settings), its output in LOG
# and one line on the screen: LABEL, the exit status and gtest's summary lines. Returns the status.
gtest_run() {
    local log=$1 label=$2 rc
    shift 2
    "$@" >"$log" 2>&1
    rc=$?
    echo "$label: rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$log" | tr '\n' ' ')"
    return $rc
}

# Every card's SM clock, power, temperature and throttle reasons every 250 ms into $R/clocks.csv
# until stop_clocks (four busy cards may not hold the boost clock one alone does). Needs
# results_dir first.
sample_clocks() {
    nvidia-smi --query-gpu=timestamp,index,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 250 >"$R/clocks.csv" 2>&1 &
    CLOCKS_PID=$!
}
stop_clocks() {
    [ -n "${CLOCKS_PID:-}" ] && kill "$CLOCKS_PID" 2>/dev/null
    CLOCKS_PID=
}

# carried_tests ARCHIVE: every test binary in ARCHIVE (tests.tar.xz of stripped binaries) run on
# the machine's default device, a log each in $R and one line each on the screen (gtest_run).
carried_tests() {
    mkdir -p /tmp/gt && tar xJf "$1" -C /tmp/gt
    for t in /tmp/gt/*; do
        gtest_run "$R/$(basename "$t").txt" "$(basename "$t")" env XDG_CACHE_HOME=/tmp/xdg-tests timeout 240 "$t"
    done
}

# walk_sass XDG: SASS of the tree walk from the program cache under XDG (cached_sass) into
# $R/sass, with each file's unrolled loops counted by sass_loops.py (beside this file).
walk_sass() {
    cached_sass "$1" "$R/sass" '.entry walk(' walk
    for s in "$R"/sass/*.sass; do
        [ -e "$s" ] && python3 "$(dirname "${BASH_SOURCE[0]}")/sass_loops.py" "$s" | tee "$s.counts.txt" && xz -9 "$s"
    done
}

# unpack_mpi DIR: Open MPI's runtime from the .debs in DIR (pack-mpi-carry.sh) into / (the lent
# machines have none), and the shared-memory window's backing files in /tmp where /dev/shm is
# small. MPIRUN: mpirun with one rank per GPU of this host (root, no launcher, shared memory).
unpack_mpi() {
    mkdir -p /opt/mpiroot
    for deb in "$1"/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
    cp -rn /opt/mpiroot/. / && ldconfig
    local shm_kb
    shm_kb=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)
    [ "${shm_kb:-0}" -lt 4194304 ] && export OMPI_MCA_osc_sm_backing_directory=/tmp
}
MPIRUN="mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca btl self,vader"
