#!/usr/bin/env bash
# Cold vs warm start of the windowed viewer on the H200: clviz --frames 1 under Xvfb, NVIDIA GLX
# (docs/benchmarks.md). Run from the repository root on the device with clviz carried in $BIN and
# .gl/ made by the Xvfb/Mesa packing described in bench/device/README.md.
set -u
b=${BIN:-.carry}; res=${OUT:-/tmp/out}/viewer-startup-h200.txt
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
x=/opt/x; mkdir -p $x /opt/x2 && tar xJf .gl/xroot.tar.xz -C $x && tar xJf .gl/extra.tar.xz -C /opt/x2
for f in /opt/x2/usr/lib/x86_64-linux-gnu/*.so.* /opt/x2/lib/x86_64-linux-gnu/*.so.*; do
    ldconfig -p | grep -q "^\s*$(basename "$f") " && rm -f "$f"
done
export LD_LIBRARY_PATH=$x/usr/lib/x86_64-linux-gnu:$x/lib/x86_64-linux-gnu:/opt/x2/usr/lib/x86_64-linux-gnu:/opt/x2/lib/x86_64-linux-gnu
ldd $b/clviz | grep "not found"
export LIBGL_DRIVERS_PATH=$x/usr/lib/x86_64-linux-gnu/dri
ln -sf $x/usr/bin/xkbcomp /usr/bin/xkbcomp 2>/dev/null
$x/usr/bin/Xvfb :7 -screen 0 1280x800x24 -xkbdir $x/usr/share/X11/xkb >/tmp/xvfb.txt 2>&1 &
sleep 2
export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=nvidia
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } | tee -a $res
row() { # label demo env...
    local label=$1 demo=$2; shift 2
    local t=$(date +%s%N)
    env "$@" timeout 30 $b/clviz --device-type gpu --demo $demo --frames 1 --vsync off --verbose >/tmp/log 2>&1
    local rc=$? ms=$((($(date +%s%N) - t) / 1000000))
    echo "$label $demo: $ms ms rc=$rc source=$(grep -c 'built from source' /tmp/log) cache=$(grep -c 'loaded from the binary' /tmp/log) $(grep -m1 'OpenGL' /tmp/log)" | tee -a $res
}
for demo in nbody image; do
    for r in 1 2; do rm -rf /tmp/c; row cold $demo CUDA_CACHE_DISABLE=1 CLVIZ_PROGRAM_CACHE=/tmp/c; done
    for r in 1 2; do row clviz-warm $demo CUDA_CACHE_DISABLE=1 CLVIZ_PROGRAM_CACHE=/tmp/c; done
    rm -rf /tmp/nv; row first-start-nv-cache-on $demo CUDA_CACHE_PATH=/tmp/nv CLVIZ_PROGRAM_CACHE=off
    for r in 1 2; do row nv-cache-only $demo CUDA_CACHE_PATH=/tmp/nv CLVIZ_PROGRAM_CACHE=off; done
    for r in 1 2; do row both-warm $demo CUDA_CACHE_PATH=/tmp/nv CLVIZ_PROGRAM_CACHE=/tmp/c; done
done
tail -3 /tmp/log >> $res
