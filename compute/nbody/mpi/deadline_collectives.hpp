#pragma once
// MPI collectives that cannot hang: each is started non-blocking and polled until it completes or
// a deadline passes. A rank that exited or hung never joins, and a blocking MPI_Allgatherv would
// wait for it forever; here the ranks that time out tell each other which collective they wait in
// (point-to-point, for a short grace period), and the lowest of them ends the run with a message
// naming the missing ranks, the collective and the step (late_ranks.hpp).
#include <string>
#include <vector>

#include <mpi.h>

#include "compute/nbody/mpi/mpi_session.hpp"

namespace clviz {

class DeadlineCollectives {
  public:
    // timeoutSeconds > 0: how long one collective may take before the run is ended.
    // pollMicroseconds: the sleep between tests (longer for channels that mostly wait); 0: test
    // back to back (yielding), for ranks whose CPU idles while their GPU computes: a sleep
    // between tests throttles how fast Open MPI moves a large message (issue 32).
    DeadlineCollectives(const MpiSession& session, double timeoutSeconds,
                        int pollMicroseconds = 20);

    // In-place all-gather: rank r contributes counts[r] elements of `type` at displs[r] of data.
    void allgatherv(void* data, const std::vector<int>& counts, const std::vector<int>& displs,
                    MPI_Datatype type, const std::string& what);
    void allgather(const void* mine, void* all, int count, MPI_Datatype type,
                   const std::string& what);
    void allreduce(void* values, int count, MPI_Datatype type, MPI_Op op, const std::string& what);
    // Element-wise op over every rank's `all`; rank r receives counts[r] elements of the result
    // (those after the counts of the ranks before it) in `mine`.
    void reduceScatter(const void* all, void* mine, const std::vector<int>& counts,
                       MPI_Datatype type, MPI_Op op, const std::string& what);
    void broadcast(void* data, int count, MPI_Datatype type, const std::string& what);
    void gatherv(const void* mine, int count, void* all, const std::vector<int>& counts,
                 const std::vector<int>& displs, MPI_Datatype type, const std::string& what);
    void barrier(const std::string& what);

    double timeoutSeconds() const { return timeout_; }
    // Wall time the last collective took (its wait for the slowest rank included).
    double lastMs() const { return lastMs_; }

  private:
    void finish(MPI_Request request, int started, const std::string& what);
    [[noreturn]] void timedOut(const std::string& what, long long sequence);
    const MpiSession& session_;
    double timeout_;
    int pollMicroseconds_;
    double lastMs_ = 0;
};

// The poll interval for a rank's data exchanges: 0 (spin) unless its device computes on the CPU.
int exchangePollMicroseconds(bool deviceIsCpu);

}  // namespace clviz
