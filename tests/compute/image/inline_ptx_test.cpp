// InlinePtxBuilds: where the compiler refuses the NVIDIA-only build (PoCL here: its compiler does
// not know PTX), the kernel still comes back, built portably, and later builds skip the attempt.
// The NVIDIA side runs on the lent GPU (docs/benchmarks.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "compute/core/program_cache.hpp"
#include "compute/image/inline_ptx.hpp"
#include "tests/compute/image/test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

bool builtWithPtx(const std::string& file) {
    const auto options = context().programs().optionsOf(file);
    return std::any_of(options.begin(), options.end(), [](const std::string& o) {
        return o.find("NV_INLINE_PTX") != std::string::npos;
    });
}

}  // namespace

TEST(InlinePtxBuilds, OffWhereTheDeviceIsNotNvidias) {
    if (context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "an NVIDIA device: the PTX builds are tried there";
    EXPECT_FALSE(InlinePtxBuilds(context()).active());
}

TEST(InlinePtxBuilds, ARefusedPtxBuildFallsBackToThePortableOne) {
    if (context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "NVIDIA's compiler takes the PTX";
    InlinePtxBuilds builds(context(), /*tryInlinePtx=*/true);
    const cl::Kernel median = builds.kernel("noise_filters.cl", "median3", "-DALIGNED_ROWS");
    EXPECT_NE(median(), nullptr);
    EXPECT_FALSE(builds.active()) << "the refusal must switch the PTX attempts off";
    EXPECT_FALSE(builtWithPtx("noise_filters.cl"));
    // Later kernels come straight from the portable build.
    const cl::Kernel rotate = builds.kernel("rotate.cl", "rotate_buffer_bilinear", "");
    EXPECT_NE(rotate(), nullptr);
    EXPECT_FALSE(builtWithPtx("rotate.cl"));
}
