#include "bench/suites.hpp"
#include "compute/error.hpp"

namespace clviz::bench {
void runNbodyBenchmark(ComputeContext&, const BenchOptions&, BenchReport&) {
    throw Error("the N-body benchmark is not built yet");
}
}  // namespace clviz::bench
