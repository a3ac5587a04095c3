// clviz-bench's table, failures and exit status (issue 27: 305-388 columns, failed rows printed
// as "0 0" ms and repeated per row, exit status 0, --wg 3 and 4096 accepted).
#include "bench/bench_report.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "bench/suites.hpp"

namespace clviz::bench {
namespace {

BenchRow measured(const std::string& variant, double ms, int samples = 15) {
    BenchRow r;
    r.suite = "nbody";
    r.variant = variant;
    r.config = "wg=256 tile=256 unroll=4 bodies/item=8 local-memory";
    r.size = "N=1048576";
    r.medianMs = r.minMs = r.maxMs = ms;
    r.samples = samples;
    r.metrics = {{"interactions/s", 1.95e12},
                 {"GFLOP/s", 39000},
                 {"force ms", ms},
                 {"all-pairs-equiv. interactions/s", 3.7e15}};
    r.note = "x123 vs CPU; tuned for 6 s over 96 candidates with a long explanation of why";
    return r;
}

BenchRow failedRow(const std::string& variant, const std::string& wg, const std::string& why) {
    BenchRow r;
    r.suite = "nbody";
    r.variant = variant;
    r.config = "wg=" + wg;
    r.size = "N=2048";
    r.note = "failed: " + why;
    return r;
}

std::size_t widestLine(const std::string& text) {
    std::istringstream in(text);
    std::size_t widest = 0;
    for (std::string line; std::getline(in, line);)
        widest = std::max(widest, line.size());
    return widest;
}

TEST(BenchReport, TheDefaultTableFitsOneHundredColumns) {
    BenchReport report;
    report.setDevice("NVIDIA H200 (OpenCL 3.0 CUDA, driver 570.86.15, 132 CUs) and more words");
    report.add(measured("vectorized (tuned)", 12.5));
    report.add(failedRow("pairs", "1024", "CL_INVALID_WORK_GROUP_SIZE in clEnqueueNDRangeKernel"));
    const std::string table = report.table();
    EXPECT_LE(widestLine(table), BenchReport::kCompactColumns) << table;
    EXPECT_NE(table.find("1.95 T interactions/s"), std::string::npos) << table;
    EXPECT_EQ(table.find("GFLOP/s"), std::string::npos) << "one figure per row: " << table;
}

TEST(BenchReport, WideShowsEveryMetric) {
    BenchReport report;
    report.setStyle(TableStyle::Wide);
    report.add(measured("tiled", 12.5));
    const std::string table = report.table();
    EXPECT_NE(table.find("GFLOP/s"), std::string::npos) << table;
    EXPECT_NE(table.find("all-pairs-equiv. interactions/s"), std::string::npos) << table;
    EXPECT_NE(table.find("long explanation of why"), std::string::npos) << table;
}

TEST(BenchReport, FailedRowsSayFailAndEachFailureIsListedOnce) {
    BenchReport report;
    report.add(measured("tiled", 3));
    const std::string why = "CL_INVALID_WORK_GROUP_SIZE in clEnqueueNDRangeKernel";
    report.add(failedRow("pairs", "512", why));
    report.add(failedRow("pairs", "512", why));  // 4 and 8 bodies per item: the same failure
    report.add(failedRow("pairs", "1024", why));
    report.add(failedRow("naive", "64", "out of resources"));
    const std::string table = report.table();
    std::istringstream in(table);
    int failRows = 0, zeroRows = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.find(" FAIL ") != std::string::npos) ++failRows;
        if (line.find(" 0 ") != std::string::npos && line.rfind("nbody", 0) == 0) ++zeroRows;
    }
    EXPECT_EQ(failRows, 4) << table;
    EXPECT_EQ(zeroRows, 0) << "a failed row has no time: " << table;
    // One line per distinct failure.
    const std::string footer = report.footer();
    EXPECT_EQ(footer.find(why), footer.rfind(why)) << footer;
    EXPECT_NE(footer.find("[1] failed: " + why + " (3 rows"), std::string::npos) << footer;
    EXPECT_NE(footer.find("[2] failed: out of resources (1 row"), std::string::npos) << footer;
    EXPECT_EQ(report.failedRows(), 4);
    EXPECT_EQ(exitStatusFor(report), 1);
}

TEST(BenchReport, AWrongResultStaysVisibleAndFailsTheRun) {
    BenchReport report;
    BenchRow r = measured("rotate-buffer", 2);
    r.note = "12% of copy; x3.4 vs CPU; WRONG: max difference 3 from the CPU reference";
    report.add(r);
    const std::string table = report.table();
    EXPECT_LE(widestLine(table), BenchReport::kCompactColumns) << table;
    EXPECT_NE(table.find(" WRONG"), std::string::npos) << table;
    EXPECT_NE(report.footer().find("WRONG: max difference 3"), std::string::npos);
    EXPECT_EQ(exitStatusFor(report), 1);
}

TEST(BenchReport, ASuccessfulRunExitsZero) {
    BenchReport report;
    report.add(measured("tiled", 3));
    EXPECT_EQ(exitStatusFor(report), 0);
    EXPECT_EQ(report.footer(), "");
}

TEST(BenchReport, OneSampleIsMarkedAsNotAMedian) {
    BenchReport report;
    report.add(measured("tiled", 3, 1));
    const std::string table = report.table();
    EXPECT_NE(table.find("3*"), std::string::npos) << table;
    EXPECT_NE(table.find("one sample"), std::string::npos) << table;
}

TEST(BenchReport, RowsAreStreamedAsTheyAreAdded) {
    std::ostringstream out;
    BenchReport report;
    report.streamTo(&out);
    report.add(measured("naive", 7));
    const std::string afterOne = out.str();
    EXPECT_NE(afterOne.find("naive"), std::string::npos) << afterOne;
    EXPECT_NE(afterOne.find("median ms"), std::string::npos) << "header first: " << afterOne;
    report.add(measured("tiled", 3));
    EXPECT_EQ(out.str().find("median ms"), out.str().rfind("median ms")) << "one header";
    EXPECT_NE(out.str().find("tiled"), std::string::npos);
}

TEST(BenchReport, FailedRowsHaveNoTimesInTheFiles) {
    BenchReport report;
    report.add(failedRow("pairs", "512", "boom"));
    const std::string base = ::testing::TempDir() + "bench_report_test";
    report.writeCsv(base + ".csv");
    report.writeJson(base + ".json");
    auto slurp = [](const std::string& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string csv = slurp(base + ".csv"), json = slurp(base + ".json");
    EXPECT_EQ(csv.find("0,0,0,0"), std::string::npos) << csv;
    EXPECT_NE(json.find("\"median_ms\": null"), std::string::npos) << json;
    EXPECT_NE(json.find("\"failed\": true"), std::string::npos) << json;
}

TEST(BenchOptionsCheck, WorkGroupsTheDeviceCannotRunAreRefusedBeforeTheRun) {
    DeviceInfo device;
    device.name = "Test device";
    device.maxWorkGroupSize = 1024;
    BenchOptions o;
    o.workGroups = {64, 256, 1024};
    EXPECT_EQ(benchOptionsProblem(o, device), "");
    o.workGroups = {3};
    EXPECT_NE(benchOptionsProblem(o, device).find("--wg 3 is not a power of two"),
              std::string::npos);
    o.workGroups = {256, 4096};
    EXPECT_NE(benchOptionsProblem(o, device).find("--wg 4096 is larger than Test device"),
              std::string::npos);
    device.maxWorkGroupSize = 4096;  // PoCL: the device takes it, the N-body kernels do not
    EXPECT_NE(benchOptionsProblem(o, device).find("N-body kernels take (1024)"), std::string::npos);
    o.suite = "image";
    EXPECT_EQ(benchOptionsProblem(o, device), "");
}

}  // namespace
}  // namespace clviz::bench
