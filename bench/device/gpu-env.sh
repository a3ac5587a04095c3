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
