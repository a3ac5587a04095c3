#pragma once
// The benchmark suites. Each appends rows to the report and prints progress on stderr.
#include "bench/bench_options.hpp"
#include "bench/bench_report.hpp"
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"

namespace clviz::bench {

void runNbodyBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
void runImageBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
// The linear-algebra lab: GEMM variants, CLBlast and the covariance; reductions.
void runGemmBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
void runReduceBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
// The spectral lab's MNF, step by step, on generated u8 cubes.
void runMnfBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report);
// --devices: the N-body split over `devices` against the first of them alone.
void runMultiDeviceBenchmark(const std::vector<ComputeContext*>& devices,
                             const BenchOptions& options, BenchReport& report);

// --mpi: the N-body system across the ranks of an mpirun job (MPI_Init here). Returns an exit code.
int runMpiBenchmark(const BenchOptions& options);

// What in the options the device cannot run ("--wg 3 is not a power of two ..."), or "": checked
// before the first row, so a bad command line fails at once rather than on every row.
std::string benchOptionsProblem(const BenchOptions& options, const DeviceInfo& device);

// Runs the suites options.suite names, prints the table and writes JSON/CSV. Returns an exit code.
int runBenchmarks(const BenchOptions& options);

}  // namespace clviz::bench
