#include <cstdio>
#include <iostream>
#include <memory>

#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/flag_table.hpp"
#include "common/output_target.hpp"
#include "common/quoted_path.hpp"

namespace clviz::bench {

std::string benchOptionsProblem(const BenchOptions& o, const DeviceInfo& device) {
    for (int wg : o.workGroups) {
        // The N-body tiles and the image reductions halve their work-group: a size that is not a
        // power of two failed every row (issue 27), as did one above the device's limit.
        if (wg <= 0 || (wg & (wg - 1)) != 0)
            return "--wg " + std::to_string(wg) + " is not a power of two (1, 2, 4, ... " +
                   std::to_string(device.maxWorkGroupSize) + ")";
        if (device.maxWorkGroupSize && static_cast<std::size_t>(wg) > device.maxWorkGroupSize)
            return "--wg " + std::to_string(wg) + " is larger than " + device.name +
                   " allows (at most " + std::to_string(device.maxWorkGroupSize) + ")";
        // The N-body kernels take at most 1024 (NbodySimulation::workGroupSizeChoices).
        if (o.suite != "image" && wg > 1024)
            return "--wg " + std::to_string(wg) + " is larger than the N-body kernels take (1024)";
    }
    return "";
}

namespace {

// The table streams row by row on stdout; the footer (one line per distinct failure) follows,
// then the files. Returns the exit status: 1 when a row failed.
void startReport(BenchReport& report, const BenchOptions& o) {
    report.setStyle(o.wide ? TableStyle::Wide : TableStyle::Compact);
    report.streamTo(&std::cout);
}

int finishReport(const BenchReport& report, const BenchOptions& o) {
    std::cout << report.footer() << std::flush;
    if (!o.jsonPath.empty()) report.writeJson(o.jsonPath);
    if (!o.csvPath.empty()) report.writeCsv(o.csvPath);
    if (report.failedRows() > 0)
        std::fprintf(stderr, "clviz-bench: %d of %zu rows failed\n", report.failedRows(),
                     report.rows().size());
    return exitStatusFor(report);
}

// --devices: one context per device of the set, then the split's rows.
int runDeviceSet(const BenchOptions& options) {
    if (options.suite != "nbody" && options.suite != "all")
        throw Error("--devices splits the N-body suite; the " + options.suite +
                    " suite runs on one device");
    const auto platforms = queryPlatforms();
    std::vector<std::unique_ptr<ComputeContext>> owned;
    std::vector<ComputeContext*> devices;
    std::string names;
    for (const DeviceChoice& c :
         chooseDevices(platforms, options.devices, options.device.platform)) {
        owned.push_back(std::make_unique<ComputeContext>(platforms, c));
        devices.push_back(owned.back().get());
        if (const std::string why = benchOptionsProblem(options, owned.back()->info());
            !why.empty())
            throw UsageError(why);
        names += (names.empty() ? "" : ", ") + std::to_string(c.platform) + "." +
                 std::to_string(c.device) + " " + owned.back()->info().name;
    }
    BenchReport report;
    report.setDevice(std::to_string(devices.size()) + " devices: " + names + " (driver " +
                     devices[0]->info().driverVersion + ")");
    std::fprintf(stderr, "clviz-bench on %zu devices: %s\n", devices.size(), names.c_str());
    startReport(report, options);
    runMultiDeviceBenchmark(devices, options, report);
    return finishReport(report, options);
}

}  // namespace

int runBenchmarks(const BenchOptions& options) {
    if (!options.timelinePath.empty()) {
        if (options.devices.empty() || options.mpi)
            throw UsageError("--timeline records the split over --devices (not --mpi)");
        if (const auto why = unwritableFileReason(options.timelinePath))
            throw UsageError("--timeline " + quotedPath(options.timelinePath) + ": " + *why);
    }
    if (options.mpi) return runMpiBenchmark(options);
    if (!options.devices.empty()) return runDeviceSet(options);
    auto cc = ComputeContext::create(options.device);
    const auto& info = cc->info();
    BenchReport report;
    report.setDevice(info.name + " (" + info.version + ", driver " + info.driverVersion + ", " +
                     std::to_string(info.computeUnits) + " CUs)");
    std::fprintf(stderr, "clviz-bench on %s, chosen because %s\n", info.name.c_str(),
                 cc->choice().reason.c_str());
    if (const std::string why = benchOptionsProblem(options, info); !why.empty())
        throw UsageError(why);
    startReport(report, options);
    if (options.suite == "nbody" || options.suite == "all") runNbodyBenchmark(*cc, options, report);
    if (options.suite == "image" || options.suite == "all") runImageBenchmark(*cc, options, report);
    if (options.suite == "gemm" || options.suite == "all") runGemmBenchmark(*cc, options, report);
    if (options.suite == "reduce" || options.suite == "all")
        runReduceBenchmark(*cc, options, report);
    if (options.suite == "mnf" || options.suite == "all") runMnfBenchmark(*cc, options, report);
    return finishReport(report, options);
}

}  // namespace clviz::bench
