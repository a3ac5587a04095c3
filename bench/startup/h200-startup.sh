#!/usr/bin/env bash
# Cold vs warm start on the H200: clviz-first-step, 3 runs per row (docs/benchmarks.md).
# Run from the repository root on the device with the binary carried in $BIN (default .carry).
set -u
b=${BIN:-.carry}
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
for demo in nbody image; do
  for rep in 1 2 3; do
    rm -rf /tmp/cold; echo "cold $demo: $(CUDA_CACHE_DISABLE=1 CLVIZ_PROGRAM_CACHE=/tmp/cold $b/clviz-first-step --device-type gpu --demo $demo)"
  done
  for rep in 1 2 3; do
    echo "warm $demo: $(CUDA_CACHE_DISABLE=1 CLVIZ_PROGRAM_CACHE=/tmp/cold $b/clviz-first-step --device-type gpu --demo $demo)"
  done
  rm -rf /tmp/nv; CUDA_CACHE_PATH=/tmp/nv CLVIZ_PROGRAM_CACHE=off $b/clviz-first-step --device-type gpu --demo $demo >/dev/null
  for rep in 1 2 3; do
    echo "nvcache-only $demo: $(CUDA_CACHE_PATH=/tmp/nv CLVIZ_PROGRAM_CACHE=off $b/clviz-first-step --device-type gpu --demo $demo)"
  done
done
echo "verbose warm image:"; CUDA_CACHE_DISABLE=1 CLVIZ_PROGRAM_CACHE=/tmp/cold $b/clviz-first-step --device-type gpu --demo image --verbose 2>&1
ls -la /tmp/cold | head -20
