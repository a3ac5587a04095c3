#!/usr/bin/env bash
# Installs every clviz dependency from Debian 12 (bookworm) packages. Idempotent: when all
# packages are already present it touches nothing and needs no network.
set -euo pipefail

packages=(
    build-essential cmake pkg-config git
    libglfw3-dev python3-glad libimgui-dev
    ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo
    libstb-dev libgtest-dev
    xvfb xauth libgl1-mesa-dri libgl-dev libegl-dev mesa-utils fonts-dejavu-core
    clang
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

echo "setup: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
echo "setup: done"
