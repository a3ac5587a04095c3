#pragma once
// memcpy on several threads for large blocks: one core's copy is slower than the PCIe link a GPU
// fills from the same memory, so a copy between two host areas would otherwise set the pace of an
// exchange (MPI ranks passing slices through shared memory; figures in docs/scaling.md).
#include <cstddef>

namespace clviz {

// Copies `bytes` from `src` to `dst` (not overlapping); threads for blocks above a few MiB.
void parallelCopy(void* dst, const void* src, std::size_t bytes);

}  // namespace clviz
