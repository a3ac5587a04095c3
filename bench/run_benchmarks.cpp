#include <cstdio>
#include <iostream>

#include "bench/suites.hpp"
#include "common/error.hpp"

namespace clviz::bench {

int runBenchmarks(const BenchOptions& options) {
    auto cc = ComputeContext::create(options.device);
    const auto& info = cc->info();
    BenchReport report;
    report.setDevice(info.name + " (" + info.version + ", driver " + info.driverVersion + ", " +
                     std::to_string(info.computeUnits) + " CUs)");
    std::fprintf(stderr, "clviz-bench on %s, chosen because %s\n", info.name.c_str(),
                 cc->choice().reason.c_str());
    if (options.suite == "nbody" || options.suite == "all") runNbodyBenchmark(*cc, options, report);
    if (options.suite == "image" || options.suite == "all") runImageBenchmark(*cc, options, report);
    std::cout << report.table() << std::flush;
    if (!options.jsonPath.empty()) report.writeJson(options.jsonPath);
    if (!options.csvPath.empty()) report.writeCsv(options.csvPath);
    return 0;
}

}  // namespace clviz::bench
