#!/usr/bin/env bash
# PoCL cold vs warm start to first frame: clviz --frames 1 under Xvfb, wall time of the process.
# Usage: bench/startup/pocl-viewer-startup.sh (CLVIZ=path/to/clviz, WORK=scratch directory)
clviz=$(realpath "${CLVIZ:-build/clviz}")
mkdir -p "${WORK:-/tmp/clviz-startup}" && cd "${WORK:-/tmp/clviz-startup}" || exit 1
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
row() { # label demo env...
  local label=$1 demo=$2; shift 2
  local t=$(date +%s%N)
  env "$@" xvfb-run -a -s "-screen 0 1280x800x24" $clviz --demo $demo --frames 1 --vsync off >/dev/null 2>&1
  echo "$label $demo: $(ms $t) ms"
}
date -u; nproc; uptime
for demo in nbody image; do
  for r in 1 2 3; do rm -rf c; row cold $demo POCL_KERNEL_CACHE=0 CLVIZ_PROGRAM_CACHE=$PWD/c; done
  for r in 1 2 3; do row clviz-warm $demo POCL_KERNEL_CACHE=0 CLVIZ_PROGRAM_CACHE=$PWD/c; done
  rm -rf pc; row prime $demo XDG_CACHE_HOME=$PWD/pc CLVIZ_PROGRAM_CACHE=off >/dev/null
  for r in 1 2 3; do row pocl-cache-only $demo XDG_CACHE_HOME=$PWD/pc CLVIZ_PROGRAM_CACHE=off; done
  for r in 1 2 3; do row both-warm $demo XDG_CACHE_HOME=$PWD/pc CLVIZ_PROGRAM_CACHE=$PWD/c; done
done
for r in 1 2 3; do t=$(date +%s%N); xvfb-run -a -s "-screen 0 1280x800x24" true; echo "xvfb-run alone: $(ms $t) ms"; done
