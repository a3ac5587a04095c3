#!/usr/bin/env bash
# Installs every clviz dependency from Debian 12 (bookworm) packages. Idempotent: when all
# packages are already present it touches nothing and needs no network.
#
# Every package whose headers, libraries or tools the build and the tests use is named here,
# because we install with --no-install-recommends: a header that only arrives as some other
# package's recommendation (libglfw3-dev recommends libx11-dev and libxrandr-dev, which
# <GLFW/glfw3native.h> includes) is missing on a fresh machine. cmake/Dependencies.cmake checks
# the same headers at configure time and names the package when one is absent.
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake pkg-config
    # OpenCL: ICD loader + libOpenCL.so, C headers, C++ bindings (CL/opencl.hpp), a CPU device
    ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo
    # window and GL: GLFW, the X11 + XRandR headers glfw3native.h includes, GL/GLX/EGL headers
    libglfw3-dev libx11-dev libxrandr-dev libgl-dev libegl-dev
    # GL loader generator (run offline) and Dear ImGui (its GLFW/OpenGL3 backends ship as sources)
    python3-glad libimgui-dev
    # external-memory interop: Vulkan headers (the loader libvulkan1 is opened at run time), and
    # Mesa's lavapipe so the Vulkan <-> GL half is exercised on machines without a GPU
    libvulkan-dev mesa-vulkan-drivers
    # the N-body run across processes and hosts: Open MPI's headers, libraries and compiler
    # wrappers (FindMPI asks mpicc), and mpirun
    libopenmpi-dev openmpi-bin
    # image loading and saving, and a font for the GUI
    libstb-dev fonts-dejavu-core
    # the spectral lab's eigenproblem (LAPACKE's dsygvd, with OpenBLAS as the LAPACK/BLAS)
    liblapacke-dev libopenblas-dev
    # the linear-algebra lab's library row (CLBlast) and its tuners (clblast_tuner_xgemm, ...)
    libclblast-dev clblast-utils
    # JSON (CLBlast tuner output read by compute/linalg/clblast_row.cpp; the benchmark JSON)
    nlohmann-json3-dev
    # the command lines of clviz and clviz-bench (common/flag_table.cpp)
    libcli11-dev
    # tests: GoogleTest, a virtual X server with Mesa's software GL (xwininfo reads the window
    # title back), the libFuzzer runtime
    libgtest-dev xvfb xauth x11-utils libgl1-mesa-dri mesa-utils clang libclang-rt-14-dev
    # the spectral lab's cross-check against Spectral Python's MNF
    python3-spectral python3-numpy
    # the fresh-machine check (scripts/fresh-check.sh) builds a Debian root with it
    debootstrap
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} Debian packages already installed"
    exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then
        sudo_cmd=(sudo)
    else
        echo "setup: need root to install: ${missing[*]}" >&2
        exit 1
    fi
fi

echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
echo "setup: done"
