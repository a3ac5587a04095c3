// InlinePtxBuilds: where the compiler refuses the NVIDIA-only build (PoCL here: its compiler does
// not know PTX), the kernel still comes back, built portably, and later builds skip the attempt.
// The NVIDIA side runs on the lent GPU (docs/benchmarks.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "compute/core/kernel_source.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/inline_ptx.hpp"
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

TEST(InlinePtxBuilds, ABrokenSourceIsAnErrorAndLeavesThePtxBuildsOn) {
    // Both builds fail on a source that does not compile (a bad live edit): that says nothing
    // about the PTX, so the error reaches the caller and later builds still try it.
    const auto dir = std::filesystem::temp_directory_path() / "clviz-inline-ptx-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "noise_filters.cl") << "__kernel void median3( { this is not C }\n";
    setKernelDirectory(dir.string());
    InlinePtxBuilds builds(context(), /*tryInlinePtx=*/true);
    EXPECT_THROW(builds.kernel("noise_filters.cl", "median3", "-DBROKEN_SOURCE_TEST"), Error);
    setKernelDirectory("");
    std::filesystem::remove_all(dir);
    EXPECT_TRUE(builds.active());
}
