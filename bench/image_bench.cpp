#include "bench/suites.hpp"
#include "compute/error.hpp"

namespace clviz::bench {
void runImageBenchmark(ComputeContext&, const BenchOptions&, BenchReport&) {
    throw Error("the image benchmark is not built yet");
}
}  // namespace clviz::bench
