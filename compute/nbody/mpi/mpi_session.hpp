#pragma once
// One process of an MPI run (Open MPI from Debian): MPI_Init/MPI_Finalize, this rank's place in
// the job and on its host, and the ways a run ends early. Exactly one per process.
#include <string>

#include <mpi.h>

namespace clviz {

class MpiSession {
  public:
    // argc/argv may be null. Throws clviz::Error when MPI cannot start.
    explicit MpiSession(int* argc = nullptr, char*** argv = nullptr);
    // A barrier with the shutdown deadline, then MPI_Finalize: Open MPI's MPI_Finalize waits for
    // every rank, so a rank that hangs after the last collective would hang them all.
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    MPI_Comm comm() const { return MPI_COMM_WORLD; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    int localRank() const { return localRank_; }  // among the ranks of this host
    int localSize() const { return localSize_; }
    const std::string& host() const { return host_; }
    // How long the ranks wait for each other at the end (seconds > 0; default 60).
    void setShutdownTimeout(double seconds) { shutdownTimeout_ = seconds; }

    // Prints "clviz: rank R: <message>" on stderr and ends every rank of the job with `code`
    // (MPI_Abort). For failures one rank sees and the others would wait on forever.
    [[noreturn]] void abort(const std::string& message, int code = 3) const;

  private:
    int rank_ = 0, size_ = 1, localRank_ = 0, localSize_ = 1;
    std::string host_;
    double shutdownTimeout_ = 60;
};

}  // namespace clviz
