#pragma once
// Memory that every rank of a job on one host maps (an MPI-3 shared-memory window): each rank
// writes its slice into it and reads the others' straight from it, instead of an MPI collective
// copying every slice through Open MPI's shared-memory transport (docs/scaling.md, issue 32).
// Only for jobs whose ranks all share one host (MpiSession::localSize() == size()); across hosts
// the collectives stay. synchronize() is the one collective: a barrier with a deadline between
// memory fences, so every write before it is seen by every read after it.
#include <cstddef>
#include <string>

#include <mpi.h>

namespace clviz {

class DeadlineCollectives;
class MpiSession;

class HostWindow {
  public:
    // Collective. `bytes` of memory, allocated once on the host and mapped by every rank.
    HostWindow(const MpiSession& session, DeadlineCollectives& collectives, std::size_t bytes);
    // Collective (MPI_Win_free): every rank drops its window together.
    ~HostWindow();
    HostWindow(const HostWindow&) = delete;
    HostWindow& operator=(const HostWindow&) = delete;

    // Whether this job can use one: all its ranks on this host.
    static bool possible(const MpiSession& session);

    char* data() const { return base_; }
    std::size_t bytes() const { return bytes_; }
    // Collective: every rank's writes to the window before the call are visible to every rank
    // after it. Ends the run with a message when a rank does not arrive in time.
    void synchronize(const std::string& what);
    // Wall time the last synchronize() took (the wait for the slowest rank included).
    double lastMs() const;

  private:
    DeadlineCollectives& mpi_;
    MPI_Win window_ = MPI_WIN_NULL;
    char* base_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace clviz
