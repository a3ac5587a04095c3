#include <cstdio>
#include <iostream>
#include <memory>

#include "bench/suites.hpp"
#include "common/error.hpp"

namespace clviz::bench {

namespace {

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
        names += (names.empty() ? "" : ", ") + std::to_string(c.platform) + "." +
                 std::to_string(c.device) + " " + owned.back()->info().name;
    }
    BenchReport report;
    report.setDevice(std::to_string(devices.size()) + " devices: " + names + " (driver " +
                     devices[0]->info().driverVersion + ")");
    std::fprintf(stderr, "clviz-bench on %zu devices: %s\n", devices.size(), names.c_str());
    runMultiDeviceBenchmark(devices, options, report);
    std::cout << report.table() << std::flush;
    if (!options.jsonPath.empty()) report.writeJson(options.jsonPath);
    if (!options.csvPath.empty()) report.writeCsv(options.csvPath);
    return 0;
}

}  // namespace

int runBenchmarks(const BenchOptions& options) {
    if (options.mpi) return runMpiBenchmark(options);
    if (!options.devices.empty()) return runDeviceSet(options);
    auto cc = ComputeContext::create(options.device);
    const auto& info = cc->info();
    BenchReport report;
    report.setDevice(info.name + " (" + info.version + ", driver " + info.driverVersion + ", " +
                     std::to_string(info.computeUnits) + " CUs)");
    std::fprintf(stderr, "clviz-bench on %s, chosen because %s\n", info.name.c_str(),
                 cc->choice().reason.c_str());
    if (options.suite == "nbody" || options.suite == "all") runNbodyBenchmark(*cc, options, report);
    if (options.suite == "image" || options.suite == "all") runImageBenchmark(*cc, options, report);
    if (options.suite == "gemm" || options.suite == "all") runGemmBenchmark(*cc, options, report);
    if (options.suite == "reduce" || options.suite == "all")
        runReduceBenchmark(*cc, options, report);
    std::cout << report.table() << std::flush;
    if (!options.jsonPath.empty()) report.writeJson(options.jsonPath);
    if (!options.csvPath.empty()) report.writeCsv(options.csvPath);
    return 0;
}

}  // namespace clviz::bench
