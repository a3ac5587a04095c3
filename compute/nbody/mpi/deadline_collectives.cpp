#include "compute/nbody/mpi/deadline_collectives.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include "common/error.hpp"

namespace clviz {

DeadlineCollectives::DeadlineCollectives(const MpiSession& session, double timeoutSeconds,
                                         int pollMicroseconds)
    : session_(session), timeout_(timeoutSeconds), pollMicroseconds_(pollMicroseconds) {
    if (!(timeoutSeconds > 0))
        throw Error("the MPI time-out must be above 0 seconds (got " +
                    std::to_string(timeoutSeconds) + ")");
}

// Polls: MPI_Test drives Open MPI's progress engine; sleeping 20 us between tests leaves the
// CPU to the OpenCL driver threads (PoCL computes on the same cores).
void DeadlineCollectives::finish(MPI_Request request, int started, const std::string& what) {
    if (started != MPI_SUCCESS) session_.abort("cannot start the " + what + " (MPI error)");
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto deadline = start + std::chrono::duration<double>(timeout_);
    for (int done = 0;;) {
        if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            session_.abort("the " + what +
                           " failed (MPI error): a rank died or the network failed");
        if (done) break;
        if (clock::now() > deadline) {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%g", timeout_);
            session_.abort("the " + what + " did not complete within " + seconds +
                           " s: another rank exited or hung; ending the run");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(pollMicroseconds_));
    }
    lastMs_ = std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

void DeadlineCollectives::allgatherv(void* data, const std::vector<int>& counts,
                                     const std::vector<int>& displs, MPI_Datatype type,
                                     const std::string& what) {
    MPI_Request r;
    const int started = MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts.data(),
                                        displs.data(), type, session_.comm(), &r);
    finish(r, started, what);
}

void DeadlineCollectives::allgather(const void* mine, void* all, int count, MPI_Datatype type,
                                    const std::string& what) {
    MPI_Request r;
    const int started = MPI_Iallgather(mine, count, type, all, count, type, session_.comm(), &r);
    finish(r, started, what);
}

void DeadlineCollectives::allreduce(void* values, int count, MPI_Datatype type, MPI_Op op,
                                    const std::string& what) {
    MPI_Request r;
    const int started = MPI_Iallreduce(MPI_IN_PLACE, values, count, type, op, session_.comm(), &r);
    finish(r, started, what);
}

void DeadlineCollectives::broadcast(void* data, int count, MPI_Datatype type,
                                    const std::string& what) {
    MPI_Request r;
    const int started = MPI_Ibcast(data, count, type, 0, session_.comm(), &r);
    finish(r, started, what);
}

void DeadlineCollectives::gatherv(const void* mine, int count, void* all,
                                  const std::vector<int>& counts, const std::vector<int>& displs,
                                  MPI_Datatype type, const std::string& what) {
    MPI_Request r;
    const int started = MPI_Igatherv(mine, count, type, all, counts.data(), displs.data(), type, 0,
                                     session_.comm(), &r);
    finish(r, started, what);
}

void DeadlineCollectives::barrier(const std::string& what) {
    MPI_Request r;
    const int started = MPI_Ibarrier(session_.comm(), &r);
    finish(r, started, what);
}

}  // namespace clviz
