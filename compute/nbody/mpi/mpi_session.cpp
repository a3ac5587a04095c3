#include "compute/nbody/mpi/mpi_session.hpp"

#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "common/error.hpp"
#include "compute/nbody/mpi/deadline_collectives.hpp"

namespace clviz {

namespace {

// mpirun ends the other ranks with SIGTERM when one exits early or fails; rank 0 says so instead
// of vanishing silently (write() and _exit() are all a signal handler may call).
void onTerminate(int) {
    static const char message[] =
        "clviz: rank 0: mpirun ended the run: another rank exited or failed (its message and "
        "mpirun's are above or below)\n";
    [[maybe_unused]] auto ignored = write(STDERR_FILENO, message, sizeof message - 1);
    _exit(3);
}

}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw Error("MPI_Init failed: run clviz --mpi under mpirun (Debian: openmpi-bin)");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &localRank_);
    MPI_Comm_size(local, &localSize_);
    MPI_Comm_free(&local);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    host_.assign(name, static_cast<std::size_t>(length));
    if (rank_ == 0) std::signal(SIGTERM, onTerminate);
}

MpiSession::~MpiSession() {
    if (shutdownTimeout_ > 0)
        DeadlineCollectives(*this, shutdownTimeout_).barrier("end of the run");
    MPI_Finalize();
}

void MpiSession::abort(const std::string& message, int code) const {
    std::fflush(stdout);  // what this rank printed so far, before MPI_Abort ends it
    std::fprintf(stderr, "clviz: rank %d: %s\n", rank_, message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

}  // namespace clviz
