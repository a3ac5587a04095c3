# Sourced by the pocl-*-gaps.sh scripts: a scratch folder $work (removed at exit) holding
# $work/swap_gaps.so, the LD_PRELOAD shim built from swap_gaps.c that prints the longest gap
# between a run's buffer swaps; machine_state prints the date, the cores and the load.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -shared -fPIC -O2 -o "$work/swap_gaps.so" "$(dirname "${BASH_SOURCE[0]}")/swap_gaps.c" -ldl || exit 1
machine_state() {
    date -u
    nproc
    uptime
}
