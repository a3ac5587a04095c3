#!/usr/bin/env bash
# The fresh-machine check: runs the README's two commands, exactly as the README writes them, in a
# brand-new Debian 12 (bookworm) root made with `debootstrap --variant=minbase`, as root, with no
# display and an empty environment. A machine where everything is already installed (a developer's,
# CI's) cannot show a missing install step; this can.
#
#   scripts/fresh-check.sh            make the root, run both commands, report, clean up
#   scripts/fresh-check.sh --keep     leave the root folder behind for a look (path printed)
#
# Needs root, debootstrap (scripts/setup.sh installs it) and the network to Debian's archive.
# It never installs or removes anything on the host: the root lives in a temporary folder, its
# mounts (proc, sys, pts, shm) live in a private mount and PID namespace that vanishes with every
# process started inside, and the folder is removed at the end. Logs and the demo's screenshot are
# kept in $CLVIZ_FRESH_REPORT (default build/fresh-check/).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
report=${CLVIZ_FRESH_REPORT:-$repo/build/fresh-check}
mirror=${CLVIZ_FRESH_MIRROR:-http://deb.debian.org/debian}
keep=0
case ${1:-} in
--keep) keep=1 ;;
"") ;;
-h | --help)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
*)
    echo "fresh-check: unknown argument '$1' (try --help)" >&2
    exit 2
    ;;
esac

die() {
    echo "fresh-check: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root (it runs debootstrap and chroot)"
command -v debootstrap >/dev/null || die "debootstrap is missing: run scripts/setup.sh (or apt-get install debootstrap)"
command -v unshare >/dev/null || die "unshare (util-linux) is missing"

# The README's two commands: the lines of its first ```sh block, comments stripped.
mapfile -t commands < <(awk '/^```sh$/ { inside = 1; next } inside && /^```/ { exit }
    inside { sub(/[ \t]*#.*$/, ""); if (length($0)) print }' "$repo/README.md")
[ ${#commands[@]} -eq 2 ] || die "expected two commands in README.md's first sh block, found ${#commands[@]}"

work=$(mktemp -d /var/tmp/clviz-fresh.XXXXXX)
root=$work/root
cleanup() {
    # Everything started inside ran in its own PID namespace and is gone with its first process;
    # the mounts lived in that namespace only, so the folder holds plain files now.
    if [ "$keep" -eq 1 ]; then
        echo "fresh-check: root kept in $root"
    else
        rm -rf --one-file-system "$work"
    fi
}
trap cleanup EXIT
mkdir -p "$report"
rm -f "$report"/*.log "$report"/screenshot.png

seconds_since() { echo $(($(date +%s) - $1)); }

echo "fresh-check: debootstrap --variant=minbase bookworm into $root"
start=$(date +%s)
ok=0
for attempt in 1 2; do  # the archive can drop a connection; one retry
    if debootstrap --variant=minbase bookworm "$root" "$mirror" >"$report/debootstrap.log" 2>&1; then
        ok=1
        break
    fi
    echo "fresh-check: debootstrap attempt $attempt failed (tail of $report/debootstrap.log):" >&2
    tail -n 5 "$report/debootstrap.log" >&2
    rm -rf --one-file-system "$root"
done
[ "$ok" -eq 1 ] || die "could not create the Debian root"
echo "fresh-check: root ready in $(seconds_since "$start") s"

# What a fresh Debian 12 install has: the release, its updates and security suites.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

# The project: tracked files plus untracked ones git does not ignore (so local edits are checked).
mkdir -p "$root/root/clviz"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
        xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
        tar --null -T - -cf -) | tar -xf - -C "$root/root/clviz"
else
    tar -C "$repo" --exclude='./build*' -cf - . | tar -xf - -C "$root/root/clviz"
fi

# run_inside LOG COMMAND: the command in the root, from the project folder, with the environment
# of a root login on a console-only machine.
run_inside() {
    local log=$1 cmd=$2
    unshare --mount --propagation private --pid --fork -- bash -c '
        set -e
        root=$1
        mount -t proc proc "$root/proc"
        mount -t sysfs sys "$root/sys"
        mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
        mount -t tmpfs shm "$root/dev/shm"
        exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            bash -c "cd /root/clviz && $2"' bash "$root" "$cmd" >"$log" 2>&1
}

status=0
summary=()
for i in 0 1; do
    cmd=${commands[$i]}
    log=$report/command-$((i + 1)).log
    echo "fresh-check: running '$cmd' (log: $log)"
    start=$(date +%s)
    result=ok
    run_inside "$log" "$cmd" || result="FAILED (exit $?)"
    took=$(seconds_since "$start")
    line="'$cmd': $result in $((took / 60)) min $((took % 60)) s"
    if [ "$result" != ok ]; then
        status=1
        echo "fresh-check: $line; the log ends:" >&2
        tail -n 30 "$log" >&2
    fi
    # What each command reports at its end: the demo's screenshot, the test summary.
    tests=$(grep -E "tests passed|tests failed" "$log" | tail -n 1 || true)
    [ -n "$tests" ] && line+="; $tests"
    summary+=("$line")
done
if [ -f "$root/root/clviz/clviz-screenshot.png" ]; then
    cp "$root/root/clviz/clviz-screenshot.png" "$report/screenshot.png"
    summary+=("demo screenshot: $report/screenshot.png")
else
    summary+=("demo screenshot: missing")
    status=1
fi

echo
echo "fresh-check summary (Debian 12 minbase, $(nproc) cores):"
printf '  %s\n' "${summary[@]}"
[ "$status" -eq 0 ] && echo "fresh-check: PASS" || echo "fresh-check: FAIL"
exit "$status"
