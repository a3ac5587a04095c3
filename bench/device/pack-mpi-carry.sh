#!/usr/bin/env bash
# Fills .carry-mpi/ with the Debian 12 .debs of Open MPI's runtime that run-scaling-h200.sh
# unpacks on the device machine (Ubuntu 24.04 has no MPI): mpirun/orted and libmpi, and the
# libraries they load that the host lacks (PMIx, hwloc, libevent, the fabric and verbs stacks
# Open MPI's plugins link). What Ubuntu 24.04 has itself (libc, libstdc++, zlib, libnuma, libudev,
# libssl, ...) stays behind, and so do the -dev packages: the binaries are built here.
# About 6 MB of .debs; `apt-get download` of a fixed list gives the same files again.
# Usage: bench/device/pack-mpi-carry.sh [DEST]   (default /work/main/.carry-mpi; git-excluded)
set -euo pipefail
dest=${1:-/work/main/.carry-mpi}
pkgs=(openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libevent-2.1-7
    libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libibverbs1 librdmacm1 libnl-3-200
    libnl-route-3-200 libmunge2 libpsm-infinipath1 libpsm2-2 libucx0)
mkdir -p "$dest"
rm -f "$dest"/*.deb
(cd "$dest" && apt-get -oAPT::Architecture=amd64 -oAPT::Architectures=amd64 download -qq "${pkgs[@]}")
ls "$dest"
du -sh "$dest"
