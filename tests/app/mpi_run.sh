#!/usr/bin/env bash
# `clviz --mpi` and `clviz-bench --mpi` under mpirun with two ranks on this machine: a run that
# saves a snapshot, a rank that exits early, a rank that hangs (rank 1, rank 0, rank 1 at the end),
# a device that does not exist (on both ranks, then on one), a setting the run does not take, and
# the benchmark's one-device check. None may hang: every case has a wall-clock limit far above the MPI
# time-out it sets.
#   mpi_run.sh CLVIZ CLVIZ_BENCH MPIRUN WORKDIR [XVFB_RUN]
set -uo pipefail
clviz=$1 bench=$2 mpirun=$3 work=$4 xvfb=${5:-}
mkdir -p "$work"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
# run LIMIT_SECONDS ARGS...: mpirun with two ranks; sets $out and $status.
run() {
    local limit=$1
    shift
    out=$(timeout "$limit" "$mpirun" --oversubscribe -np 2 "$@" 2>&1)
    status=$?
    printf '%s\n---\n' "$out"
    [ "$status" -ne 124 ] || fail "hung: mpirun $* did not end within $limit s"
}

# A normal run: energy drift reported, both ranks' timings, the snapshot written by rank 0.
rm -f "$work/mpi.clviz"
run 120 "$clviz" --mpi --n 1031 --frames 40 --save "$work/mpi.clviz"
[ "$status" -eq 0 ] || fail "normal run exited $status"
grep -Eq "relative drift" <<<"$out" || fail "no energy drift line"
# covers N: the slices of the timing lines add up to 1031 (the balancer may have moved them)
covers() {
    local total
    total=$(sed -nE "s/.*$1.*bodies [0-9]+ \+ ([0-9]+).*/\1/p" <<<"$out" | awk '{s += $1} END {print s}')
    [ "$total" = "$2" ] || fail "the slices of the '$1' lines cover $total bodies, not $2"
}
grep -Eq "rank 0 .*bodies 0 \+ [0-9]+" <<<"$out" || fail "no timing line for rank 0"
grep -Eq "rank 1 .*bodies [0-9]+ \+ [0-9]+" <<<"$out" || fail "no timing line for rank 1"
covers "rank [01] \(" 1031
[ -s "$work/mpi.clviz" ] || fail "rank 0 wrote no snapshot"
grep -q "saved 1031 bodies" <<<"$out" || fail "no save line"

# Pairs and the tree over the ranks (pairs: each adds its share's part to every acceleration, the
# parts summed by MPI_Ireduce_scatter; the tree: each rank's domain slice all-gathered): normal
# runs, then a rank that exits and one that hangs while the forces are exchanged end the run with
# rank 0's message.
for v in pairs tree; do
    run 120 "$clviz" --mpi --n 1031 --frames 20 --set variant=$v
    [ "$status" -eq 0 ] || fail "$v over two ranks exited $status"
    covers "rank [01] \(" 1031
done
run 120 -x CLVIZ_MPI_TEST_EXIT=1:5 "$clviz" --mpi --n 1031 --frames 40 --mpi-timeout 5 --set variant=tree
[ "$status" -ne 0 ] || fail "a rank exited early with the tree and the run still exited 0"
grep -Eq "rank 0: (mpirun ended the run: another rank exited|rank 1 did not reach the .*step [0-9]+ within 5 s)" <<<"$out" ||
    fail "tree: rank 0 did not say that another rank ended"
run 120 -x CLVIZ_MPI_TEST_HANG=1:5 "$clviz" --mpi --n 1031 --frames 40 --mpi-timeout 3 --set variant=pairs
[ "$status" -ne 0 ] || fail "a rank hung with pairs and the run still exited 0"
grep -Eq "rank 0: rank 1 did not reach the .*step [0-9]+ within 3 s \(it exited, hung" <<<"$out" ||
    fail "pairs: no time-out message from rank 0 naming rank 1"

# A rank that exits early: the run ends, non-zero, and rank 0 says why.
run 120 -x CLVIZ_MPI_TEST_EXIT=1:5 "$clviz" --mpi --n 1031 --frames 40 --mpi-timeout 5
[ "$status" -ne 0 ] || fail "a rank exited early and the run still exited 0"
grep -Eq "rank 0: (mpirun ended the run: another rank exited|rank 1 did not reach the .*step [0-9]+ within 5 s)" <<<"$out" ||
    fail "rank 0 did not say that another rank ended"

# A rank that hangs: rank 0's exchange times out, and rank 0 names rank 1 and ends the run.
run 120 -x CLVIZ_MPI_TEST_HANG=1:5 "$clviz" --mpi --n 1031 --frames 40 --mpi-timeout 3
[ "$status" -ne 0 ] || fail "a rank hung and the run still exited 0"
grep -Eq "rank 0: rank 1 did not reach the .*step [0-9]+ within 3 s \(it exited, hung" <<<"$out" ||
    fail "no time-out message from rank 0 naming rank 1"

# Rank 0 hangs: rank 1 is the lowest rank left, so it names rank 0.
run 120 -x CLVIZ_MPI_TEST_HANG=0:5 "$clviz" --mpi --n 1031 --frames 40 --mpi-timeout 3
[ "$status" -ne 0 ] || fail "rank 0 hung and the run still exited 0"
grep -Eq "rank 1: rank 0 did not reach the .*step [0-9]+ within 3 s" <<<"$out" ||
    fail "no time-out message from rank 1 naming rank 0"

# Rank 1 hangs after its last collective: Open MPI's MPI_Finalize would wait for it forever; the
# closing barrier's deadline ends the run instead, after rank 0 printed its results.
run 120 -x CLVIZ_MPI_TEST_HANG_AT_END=1 "$clviz" --mpi --n 64 --frames 4 --mpi-timeout 3
[ "$status" -ne 0 ] || fail "a rank hung at the end and the run still exited 0"
grep -q "relative drift" <<<"$out" || fail "rank 0's results were lost"
grep -Eq "rank 0: rank 1 did not reach the end of the run within 3 s" <<<"$out" ||
    fail "no message naming rank 1 at the end of the run"

# A device that does not exist: a clear message, no hang.
run 120 "$clviz" --mpi --n 64 --frames 2 -p 0 -d 9
[ "$status" -eq 2 ] || fail "a missing device exited $status, not 2 (a bad command line)"
grep -Eq "out of range" <<<"$out" || fail "no message about the device"

# The same on one rank only (mpirun's MPMD form): that rank says so and ends the others.
out=$(timeout 120 "$mpirun" --oversubscribe -np 1 "$clviz" --mpi --n 64 --frames 2 --mpi-timeout 30 \
    : -np 1 "$clviz" --mpi --n 64 --frames 2 --mpi-timeout 30 -p 0 -d 9 2>&1)
status=$?
printf '%s\n---\n' "$out"
[ "$status" -ne 124 ] || fail "hung: a missing device on rank 1 did not end the run within 120 s"
[ "$status" -ne 0 ] || fail "a missing device on rank 1 exited 0"
grep -Eq "rank 1: .*out of range" <<<"$out" || fail "rank 1 did not name its device problem"

# A viewer setting the headless run does not take.
run 60 "$clviz" --mpi --n 64 --set app.vsync=off
[ "$status" -eq 2 ] || fail "an unknown setting exited $status, not 2"
grep -q "is a viewer setting" <<<"$out" || fail "no message about the setting"

# The benchmark: rows for both ranks, and the split matches one device.
run 300 "$bench" --suite nbody --mpi --quick --repeats 3 --wide
[ "$status" -eq 0 ] || fail "clviz-bench --mpi exited $status"
grep -Eq "x2 ranks .*vs one device .*check: ok" <<<"$out" || fail "no split row with a passed check"
grep -Eq "rank 1 \(" <<<"$out" || fail "no row for rank 1"
grep -q "WRONG" <<<"$out" && fail "the split differs from one device"
# --viewer: rank 0 draws and steers (variant, dt and steps per frame changed mid-run reach rank 1),
# both ranks' timings at exit, a screenshot with particles.
if [ -n "$xvfb" ]; then
    rm -f "$work/viewer.png"
    out=$(timeout 180 "$xvfb" -a -s "-screen 0 1280x800x24" "$mpirun" --oversubscribe -np 2 \
        "$clviz" --mpi --viewer --n 2053 --frames 40 --screenshot "$work/viewer.png" \
        --set-at 10:variant=tiled --set-at 15:dt=0.002 --set-at 20:steps=2 2>&1)
    status=$?
    printf '%s\n---\n' "$out"
    [ "$status" -eq 0 ] || fail "the MPI viewer run exited $status"
    grep -q "rank 1 of 2 .* follows rank 0's viewer" <<<"$out" || fail "rank 1 did not follow"
    [ "$(grep -c '^split: rank' <<<"$out")" -eq 2 ] || fail "not two rank lines at exit"
    covers "split: rank" 2053
    [ -s "$work/viewer.png" ] || fail "no screenshot"
    run 30 "$clviz" --viewer --frames 1
    [ "$status" -eq 2 ] || fail "--viewer without --mpi exited $status, not 2"
fi
echo "mpi_run: ok"
