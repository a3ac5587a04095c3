#include "compute/nbody/mpi/host_window.hpp"

#include "common/error.hpp"
#include "common/format_bytes.hpp"
#include "compute/nbody/mpi/deadline_collectives.hpp"
#include "compute/nbody/mpi/mpi_session.hpp"

namespace clviz {

bool HostWindow::possible(const MpiSession& session) {
    return session.localSize() == session.size();
}

HostWindow::HostWindow(const MpiSession& session, DeadlineCollectives& collectives,
                       std::size_t bytes)
    : mpi_(collectives), bytes_(bytes) {
    if (!possible(session))
        throw Error("a shared-memory window needs every rank on one host (" +
                    std::to_string(session.localSize()) + " of " + std::to_string(session.size()) +
                    " ranks are on " + session.host() + ")");
    // Rank 0 holds the whole area (one contiguous mapping); the others map it.
    const MPI_Aint mine = session.rank() == 0 ? static_cast<MPI_Aint>(bytes) : 0;
    void* base = nullptr;
    if (MPI_Win_allocate_shared(mine, 1, MPI_INFO_NULL, session.comm(), &base, &window_) !=
        MPI_SUCCESS)
        session.abort("cannot allocate " + formatBytes(bytes) +
                      " of host memory shared by the ranks (MPI_Win_allocate_shared)");
    MPI_Aint size = 0;
    int unit = 0;
    if (MPI_Win_shared_query(window_, 0, &size, &unit, &base) != MPI_SUCCESS ||
        static_cast<std::size_t>(size) < bytes)
        session.abort("cannot map the ranks' shared host memory (MPI_Win_shared_query)");
    base_ = static_cast<char*>(base);
    // A passive-target epoch for the window's life: loads and stores are ordered by
    // MPI_Win_sync around the barriers (MPI-3's unified model for shared memory).
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
}

HostWindow::~HostWindow() {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
}

void HostWindow::synchronize(const std::string& what) {
    MPI_Win_sync(window_);
    mpi_.barrier(what);
    MPI_Win_sync(window_);
}

double HostWindow::lastMs() const {
    return mpi_.lastMs();
}

}  // namespace clviz
