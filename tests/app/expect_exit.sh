#!/usr/bin/env bash
# expect_exit.sh CODE REGEX COMMAND...
# Runs COMMAND and passes when it exits with status CODE and its output (stdout and stderr
# together) matches the extended regular expression REGEX.
set -uo pipefail
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
if [ "$got" -ne "$want" ]; then
    echo "expect_exit: FAIL: exit status $got, wanted $want: $*" >&2
    exit 1
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
    echo "expect_exit: FAIL: output does not match /$regex/: $*" >&2
    exit 1
fi
echo "expect_exit: ok (status $got, output matches /$regex/)"
