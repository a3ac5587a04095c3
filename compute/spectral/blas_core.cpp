#include "compute/spectral/blas_core.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>

extern "C" char* openblas_get_corename(void);

namespace clviz {

std::string betterBlasCore(const std::string& detected, bool avx2Fma, bool avx512) {
    // OpenBLAS's x86-64 cores without AVX kernels, the fallbacks of an unknown model.
    static const std::array<const char*, 10> kPreAvx = {
        "prescott", "core2",   "penryn",    "dunnington",   "nehalem",
        "atom",     "opteron", "barcelona", "opteron_sse3", "nano"};
    std::string lower = detected;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (std::find(kPreAvx.begin(), kPreAvx.end(), lower) == kPreAvx.end()) return "";
    if (avx512) return "SkylakeX";
    if (avx2Fma) return "Haswell";
    return "";
}

void restartWithBetterBlasCore(char** argv) {
    if (std::getenv("OPENBLAS_CORETYPE")) return;  // the user's choice, or the restart's
    const char* detected = openblas_get_corename();
    __builtin_cpu_init();
    const std::string core = betterBlasCore(
        detected ? detected : "", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"));
    if (core.empty()) return;
    setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
    execv("/proc/self/exe", argv);
    std::fprintf(stderr, "clviz: could not restart with OPENBLAS_CORETYPE=%s; OpenBLAS keeps %s\n",
                 core.c_str(), detected);
}

}  // namespace clviz
