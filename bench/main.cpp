// clviz-bench: the headless benchmark (the same code runs behind `clviz --benchmark`).
#include <cstdio>
#include <string>
#include <vector>

#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/flag_table.hpp"
#include "compute/spectral/blas_core.hpp"

int main(int argc, char** argv) {
    clviz::restartWithBetterBlasCore(argv);  // before any BLAS call: the mnf suite's eigen step
    using namespace clviz::bench;
    std::vector<std::string> args(argv + 1, argv + argc);
    BenchOptions options;
    try {
        if (!parseBenchOptions(args, options)) {
            std::fputs(benchUsage("clviz-bench").c_str(), stdout);
            return 0;
        }
    } catch (const clviz::Error& e) {  // a bad command line: status 2, as clviz's
        std::fprintf(stderr, "clviz-bench: error: %s\n", e.what());
        return 2;
    }
    try {
        return runBenchmarks(options);
    } catch (const clviz::UsageError& e) {  // a bad command line, as clviz's
        std::fprintf(stderr, "clviz-bench: error: %s\n", e.what());
        return 2;
    } catch (const clviz::Error& e) {
        std::fprintf(stderr, "clviz-bench: error: %s\n", e.what());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clviz-bench: error: %s\n", e.what());
    }
    return 1;
}
