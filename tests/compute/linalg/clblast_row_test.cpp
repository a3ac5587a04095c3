// CLBlast as the library row: its SGEMM and SSYRK on our context agree with the double reference,
// and tuner output is imported into the per-device cache file, applied on the next start, and
// refused with a message when it is not tuner output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "common/error.hpp"
#include "compute/linalg/clblast_row.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

TEST(ClblastRow, SgemmMatchesTheReferenceWithTransposes) {
    ClblastRow blas(context());
    for (const GemmShape s :
         {GemmShape{37, 41, 29, false, false}, GemmShape{16, 9, 33, true, true}}) {
        const auto a = randomFloats(std::size_t(s.m) * s.k, 1),
                   b = randomFloats(std::size_t(s.k) * s.n, 2);
        cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(s.m * s.n));
        blas.sgemm(s, 1.0f, da, db, 0.0f, dc).last.wait();
        const auto c = download<float>(dc, std::size_t(s.m) * s.n);
        for (int i = 0; i < s.m; ++i)
            for (int j = 0; j < s.n; ++j) {
                double want = 0;
                for (int k = 0; k < s.k; ++k)
                    want += double(s.transA ? a[k * s.m + i] : a[i * s.k + k]) *
                            (s.transB ? b[j * s.k + k] : b[k * s.n + j]);
                ASSERT_NEAR(c[i * s.n + j], want, 1e-4) << i << "," << j << "; " << seedNote();
            }
    }
}

TEST(ClblastRow, SsyrkFillsTheUpperTriangle) {
    ClblastRow blas(context());
    const int n = 11, k = 70;
    const auto a = randomFloats(n * k, 3);
    cl::Buffer da = upload(a), dc = upload(std::vector<float>(n * n));
    blas.ssyrk(n, k, 0.5f, da, 0.0f, dc).last.wait();
    const auto c = download<float>(dc, n * n);
    for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j) {
            double want = 0;
            for (int q = 0; q < k; ++q)
                want += double(a[i * k + q]) * a[j * k + q];
            EXPECT_NEAR(c[i * n + j], 0.5 * want, 1e-4);
        }
}

TEST(ClblastRow, TunerOutputIsImportedCachedAndApplied) {
    const auto dir = std::filesystem::temp_directory_path() / "clviz-clblast-row-test";
    std::filesystem::remove_all(dir);
    ::setenv("CLVIZ_PROGRAM_CACHE", (dir / "programs").c_str(), 1);
    const auto json = dir / "tuned.json";
    std::filesystem::create_directories(dir);
    // Two results: the faster one wins; PRECISION is the tuner's, not a kernel parameter.
    std::ofstream(json) << R"({"kernel_family": "xgemm_1", "results": [
        {"kernel": "Xgemm", "time": 9.0, "parameters": {"GEMMK": 0, "KREG": 1, "KWG": 16,
         "KWI": 2, "MDIMA": 8, "MDIMC": 8, "MWG": 32, "NDIMB": 8, "NDIMC": 8, "NWG": 32,
         "SA": 0, "SB": 0, "STRM": 0, "STRN": 0, "VWM": 1, "VWN": 1, "PRECISION": 32}},
        {"kernel": "Xgemm", "time": 2.5, "parameters": {"GEMMK": 0, "KREG": 1, "KWG": 16,
         "KWI": 2, "MDIMA": 16, "MDIMC": 16, "MWG": 64, "NDIMB": 16, "NDIMC": 16, "NWG": 64,
         "SA": 1, "SB": 1, "STRM": 0, "STRN": 0, "VWM": 2, "VWN": 2, "PRECISION": 32}}]})";
    const std::string line = ClblastRow::importTunerJson(json, context().info());
    EXPECT_NE(line.find("MWG=64"), std::string::npos) << line;
    EXPECT_EQ(line.find("PRECISION"), std::string::npos) << line;
    const auto file = ClblastRow::tuningFile(context().info());
    ASSERT_TRUE(file && std::filesystem::exists(*file));
    EXPECT_EQ(ClblastRow::readTuningFile(*file).at("Xgemm").at("NWG"), 64u);

    ClblastRow blas(context());
    EXPECT_TRUE(blas.tuned());
    EXPECT_NE(blas.tuningNote().find("Xgemm"), std::string::npos);
    // Still right with the overridden parameters (a size that takes the indirect Xgemm path).
    const GemmShape s{256, 256, 256};
    const auto a = randomFloats(256 * 256, 4), b = randomFloats(256 * 256, 5);
    cl::Buffer da = upload(a), db = upload(b), dc = upload(std::vector<float>(256 * 256));
    blas.sgemm(s, 1.0f, da, db, 0.0f, dc).last.wait();
    const auto c = download<float>(dc, 256 * 256);
    double want = 0;
    for (int k = 0; k < 256; ++k)
        want += double(a[5 * 256 + k]) * b[k * 256 + 7];
    EXPECT_NEAR(c[5 * 256 + 7], want, 1e-3);

    std::ofstream(json) << R"({"not": "tuner output"})";
    EXPECT_THROW(ClblastRow::importTunerJson(json, context().info()), Error);
    std::ofstream(*file) << "Xgemm KWG=sixteen\n";
    EXPECT_THROW(ClblastRow{context()}, Error);
    ::setenv("CLVIZ_PROGRAM_CACHE", "off", 1);
    std::filesystem::remove_all(dir);
}
