#pragma once
// The benchmark suites. Each appends rows to the report and prints progress on stderr.
#include "bench/bench_options.hpp"
#include "bench/bench_report.hpp"
#include "compute/core/compute_context.hpp"

namespace clviz::bench {

void runNbodyBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
void runImageBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
// The linear-algebra lab: GEMM variants, CLBlast and the covariance; reductions.
void runGemmBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
void runReduceBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
// --devices: the N-body split over `devices` against the first of them alone.
void runMultiDeviceBenchmark(const std::vector<ComputeContext*>& devices,
                             const BenchOptions& options, BenchReport& report);

// --mpi: the N-body system across the ranks of an mpirun job (MPI_Init here). Returns an exit code.
int runMpiBenchmark(const BenchOptions& options);

// Runs the suites options.suite names, prints the table and writes JSON/CSV. Returns an exit code.
int runBenchmarks(const BenchOptions& options);

}  // namespace clviz::bench
