#pragma once
// OpenBLAS (Debian 12's 0.3.21, built for every x86 core) picks its kernels from the CPU model when
// it loads and falls back to Prescott's SSE3 kernels on a model it does not know: the lent GPU
// host's virtual "Intel(R) Xeon(R) Processor", which has AVX-512, ran DGEMM several times slower
// (docs/spectral.md, "Eigen step"). The choice can only be made before the library loads
// (OPENBLAS_CORETYPE), so a program that runs the eigen step starts itself again, once, with the
// core its CPU's features allow.
#include <string>

namespace clviz {

// The OpenBLAS core to ask for when `detected` (openblas_get_corename()) is a pre-AVX fallback but
// the CPU has AVX2 and FMA ("Haswell") or AVX-512 F, BW, DQ and VL ("SkylakeX"); "" to keep it.
std::string betterBlasCore(const std::string& detected, bool avx2Fma, bool avx512);

// Where OPENBLAS_CORETYPE is unset and betterBlasCore() names a core: sets it and executes
// /proc/self/exe with `argv` again (returns only if that fails). Call first thing in main().
void restartWithBetterBlasCore(char** argv);

}  // namespace clviz
