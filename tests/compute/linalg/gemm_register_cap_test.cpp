// The FP32 GEMM's register cap (GemmTuning::registerCap, -cl-nv-maxrregcount): the option
// string, that it never reaches a compiler other than NVIDIA's, that a capped build still
// multiplies correctly where it does run, and the tuning keys the bench rows print and parse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/linalg/gemm.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

GemmTuning doubleBuffered128x64(int cap) {
    GemmTuning t;
    t.blockM = 128, t.blockN = 64, t.blockK = 16, t.threadM = 8, t.threadN = 8;
    t.registerCap = cap;
    return t;
}

bool anyGemmBuildHasNvidiaOption() {
    const auto options = context().programs().optionsOf("gemm.cl");
    return std::any_of(options.begin(), options.end(),
                       [](const std::string& o) { return o.find("-cl-nv-") != std::string::npos; });
}

}  // namespace

TEST(GemmRegisterCap, OptionStringOnlyForNvidiasCompiler) {
    EXPECT_EQ(registerCapOption(true, 0), "");
    EXPECT_EQ(registerCapOption(false, 0), "");
    EXPECT_EQ(registerCapOption(true, 128), " -DREGISTER_CAP -cl-nv-maxrregcount=128");
    EXPECT_EQ(registerCapOption(true, 168), " -DREGISTER_CAP -cl-nv-maxrregcount=168");
    EXPECT_THROW(registerCapOption(false, 128), Error);
    EXPECT_THROW(registerCapOption(true, 8), Error);    // below what any kernel can run with
    EXPECT_THROW(registerCapOption(true, 256), Error);  // above the 255 a thread can address
}

TEST(GemmRegisterCap, NvidiaIsRecognisedByItsCompilerOptionsExtension) {
    DeviceInfo pocl;
    pocl.vendor = "GenuineIntel";
    pocl.extensions = {"cl_khr_fp64", "cl_khr_global_int32_base_atomics"};
    EXPECT_FALSE(takesNvidiaCompilerOptions(pocl));
    DeviceInfo nvidia;
    nvidia.vendor = "NVIDIA Corporation";
    nvidia.extensions = {"cl_khr_fp64", "cl_nv_compiler_options", "cl_nv_device_attribute_query"};
    EXPECT_TRUE(takesNvidiaCompilerOptions(nvidia));
}

TEST(GemmRegisterCap, NeverReachesAnotherCompilersBuild) {
    if (takesNvidiaCompilerOptions(context().info()))
        GTEST_SKIP() << "NVIDIA's compiler takes the cap (CappedBuildStillMatches covers it)";
    Gemm gemm(context());
    cl::Buffer m = upload(randomFloats(128 * 128, 3)), c = upload(std::vector<float>(128 * 128));
    const GemmShape s{128, 128, 128};
    for (GemmVariant v : {GemmVariant::RegisterBlocked, GemmVariant::DoubleBuffered}) {
        try {
            gemm.enqueue(v, s, 1.0f, m, m, 0.0f, c, doubleBuffered128x64(128));
            ADD_FAILURE() << gemmVariantInfo(v).id << " ran with REGCAP=128 off NVIDIA";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("NVIDIA"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("REGCAP=128"), std::string::npos) << e.what();
        }
    }
    EXPECT_FALSE(anyGemmBuildHasNvidiaOption());
    // The uncapped build of the same tiles runs, and carries no NVIDIA option either.
    gemm.enqueue(GemmVariant::DoubleBuffered, s, 1.0f, m, m, 0.0f, c, doubleBuffered128x64(0));
    context().queue().finish();
    EXPECT_FALSE(anyGemmBuildHasNvidiaOption());
}

TEST(GemmRegisterCap, KernelWithoutItsRequiredGroupSizeStillMatches) {
    // What a capped build compiles (REGISTER_CAP: no reqd_work_group_size, which would make ptxas
    // ignore the cap), here without NVIDIA's option: the source itself on any compiler, at an
    // awkward shape (edges, K and N not multiples of 4 or of the tile).
    const int M = 37, N = 41, K = 29, BM = 32, BN = 32, TM = 4, TN = 4;
    const int tx = BN / TN, ty = BM / TM;
    cl::Kernel kernel = context().programs().kernel(
        "gemm.cl", "gemm_regblock",
        "-DBM=32 -DBN=32 -DBK=8 -DWG_SIZE=64 -DTM=4 -DTN=4 -DDOUBLE_BUFFER -DREGISTER_CAP");
    const auto a = randomFloats(std::size_t(M) * K, 31), b = randomFloats(std::size_t(K) * N, 32);
    cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(M * N));
    setArgs(kernel, M, N, K, 1.0f, da, db, 0.0f, dc);
    context().queue().enqueueNDRangeKernel(
        kernel, cl::NullRange, cl::NDRange((N + BN - 1) / BN * tx, (M + BM - 1) / BM * ty),
        cl::NDRange(tx, ty));
    const auto got = download<float>(dc, std::size_t(M) * N);
    int bad = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double want = 0;
            for (int k = 0; k < K; ++k)
                want += double(a[std::size_t(i) * K + k]) * b[std::size_t(k) * N + j];
            if (!(std::abs(got[std::size_t(i) * N + j] - want) <= 1e-5)) ++bad;
        }
    EXPECT_EQ(bad, 0);
}

TEST(GemmRegisterCap, CappedBuildStillMatches) {
    if (!takesNvidiaCompilerOptions(context().info()))
        GTEST_SKIP() << "the cap is NVIDIA-only (NeverReachesAnotherCompilersBuild covers it)";
    // Awkward shape (edges, K not a multiple of BK) at a cap low enough to spill.
    const GemmShape s{131, 67, 45};
    const auto a = randomFloats(std::size_t(s.m) * s.k, 21),
               b = randomFloats(std::size_t(s.k) * s.n, 22);
    for (int cap : {128, 64}) {
        cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(s.m * s.n));
        Gemm(context()).enqueue(GemmVariant::DoubleBuffered, s, 1.0f, da, db, 0.0f, dc,
                                doubleBuffered128x64(cap));
        const auto got = download<float>(dc, std::size_t(s.m) * s.n);
        int bad = 0;
        for (int i = 0; i < s.m; ++i)
            for (int j = 0; j < s.n; ++j) {
                double want = 0;
                for (int k = 0; k < s.k; ++k)
                    want += double(a[std::size_t(i) * s.k + k]) * b[std::size_t(k) * s.n + j];
                if (!(std::abs(got[std::size_t(i) * s.n + j] - want) <=
                      2e-6 * std::sqrt(45.0) + 1e-6))
                    ++bad;
            }
        EXPECT_EQ(bad, 0) << "REGCAP=" << cap;
    }
}

TEST(GemmTuningKey, RoundTripsThroughTheParser) {
    GemmTuning t = doubleBuffered128x64(128);
    EXPECT_EQ(t.key(), "BM=128 BN=64 BK=16 TM=8 TN=8 REGCAP=128");
    const GemmTuning back = parseGemmTuning(t.key());
    EXPECT_EQ(back.key(), t.key());
    EXPECT_EQ(back.registerCap, 128);
    EXPECT_EQ(back.blockN, 64);
    EXPECT_EQ(doubleBuffered128x64(0).key(), "BM=128 BN=64 BK=16 TM=8 TN=8");  // no cap, no word
    GemmTuning w;
    w.blockM = 128, w.blockN = 128, w.blockK = 16, w.warpM = 64, w.warpN = 32;
    EXPECT_EQ(parseGemmTuning(w.key()).key(), w.key());
    EXPECT_EQ(parseGemmTuning("  TS=16 ").tile, 16);
    EXPECT_EQ(parseGemmTuning("").key(), GemmTuning{}.key());
}

TEST(GemmTuningKey, ParserRefusesBadWords) {
    for (const char* bad :
         {"BM", "BM=", "BM=x", "BM=12x", "BM=0", "BM=-8", "XX=4", "bm=128", "REGCAP=99999999999"}) {
        try {
            parseGemmTuning(std::string("BN=64 ") + bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
}

TEST(GemmTuningKey, OnlyTheRegisterBlockedVariantsKeepTheCap) {
    // The tensor-core variant has no register-cap tunable: resolved() drops it, so its rows never
    // claim a cap that did not run.
    GemmTuning t;
    t.registerCap = 128;
    EXPECT_EQ(Gemm(context()).resolved(GemmVariant::TensorTf32, t).registerCap, 0);
    EXPECT_EQ(Gemm(context()).resolved(GemmVariant::LocalTile, t).registerCap, 0);
    EXPECT_EQ(Gemm(context()).resolved(GemmVariant::DoubleBuffered, t).registerCap, 128);
}
