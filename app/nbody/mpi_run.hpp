#pragma once
// `mpirun -np K clviz --mpi ...`: the N-body system split over the ranks of an MPI job, headless.
// Each rank drives one OpenCL device (its local rank picks it); rank 0 prints progress, the
// energy diagnostics and every rank's timings, and writes the snapshot (--save).
#include "app/cli.hpp"
#include "app/demo_flag.hpp"

namespace clviz {

// Returns the exit status (0 ok, 2 bad settings); failures on any rank end every rank.
int runMpiNbody(const AppOptions& options, const DemoRunServices& shell);

}  // namespace clviz
