#include "compute/nbody/mpi/deadline_collectives.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "common/error.hpp"
#include "compute/nbody/mpi/late_ranks.hpp"

namespace clviz {

namespace {
// Collectives this process started through any DeadlineCollectives: every rank makes the same
// calls in the same order, so equal numbers on two ranks mean the same collective.
long long collectivesStarted = 0;
}  // namespace

DeadlineCollectives::DeadlineCollectives(const MpiSession& session, double timeoutSeconds,
                                         int pollMicroseconds)
    : session_(session), timeout_(timeoutSeconds), pollMicroseconds_(pollMicroseconds) {
    if (pollMicroseconds < 0)
        throw Error("the MPI poll interval must be 0 or more microseconds (got " +
                    std::to_string(pollMicroseconds) + ")");
    if (!(timeoutSeconds > 0))
        throw Error("the MPI time-out must be above 0 seconds (got " +
                    std::to_string(timeoutSeconds) + ")");
}

// Polls: MPI_Test drives Open MPI's progress engine, which moves a large message a fragment at a
// time, so the time between tests bounds the rate (issue 32). A sleep between tests leaves the CPU
// to the OpenCL driver threads (PoCL computes on the same cores); 0 tests back to back, yielding
// the core to any thread that wants it.
void DeadlineCollectives::finish(MPI_Request request, int started, const std::string& what) {
    const long long sequence = ++collectivesStarted;
    if (started != MPI_SUCCESS) session_.abort("cannot start the " + what + " (MPI error)");
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto deadline = start + std::chrono::duration<double>(timeout_);
    for (int done = 0;;) {
        if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            session_.abort("the " + what +
                           " failed (MPI error): a rank died or the network failed");
        if (done) break;
        if (clock::now() > deadline) timedOut(what, sequence);
        if (pollMicroseconds_ > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(pollMicroseconds_));
        else
            std::this_thread::yield();
    }
    lastMs_ = std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

// Every rank that times out tells all the others which collective it waits in, then listens for a
// grace period: a rank that sends nothing (or names another collective) is the one missing. The
// alive ranks entered this collective within one step's load imbalance of each other (the previous
// collective synchronized them), so they time out together; one that arrives more than the grace
// later is named too, which the message's "takes longer" covers. The lowest alive rank speaks; the
// others end too if its MPI_Abort does not reach them.
void DeadlineCollectives::timedOut(const std::string& what, long long sequence) {
    constexpr int kLateTag = 5283;  // any tag below 32767 (the least MPI_TAG_UB MPI promises)
    const MPI_Comm comm = session_.comm();
    const int me = session_.rank(), size = session_.size();
    static long long report;  // Isend's buffer must outlive this function's frame: we abort
    report = sequence;
    for (int r = 0; r < size; ++r) {
        if (r == me) continue;
        MPI_Request ignored;
        if (MPI_Isend(&report, 1, MPI_LONG_LONG, r, kLateTag, comm, &ignored) == MPI_SUCCESS)
            MPI_Request_free(&ignored);  // a hung rank never takes it: nobody waits for it
    }
    std::vector<long long> reached(static_cast<std::size_t>(size), -1);
    reached[static_cast<std::size_t>(me)] = sequence;
    using clock = std::chrono::steady_clock;
    const double grace = std::clamp(timeout_ / 4, 1.0, 10.0);
    const auto until = clock::now() + std::chrono::duration<double>(grace);
    int heard = 0;
    while (heard < size - 1 && clock::now() < until) {
        int arrived = 0;
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, kLateTag, comm, &arrived, &status) != MPI_SUCCESS) break;
        if (!arrived) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        long long theirs = -1;
        MPI_Recv(&theirs, 1, MPI_LONG_LONG, status.MPI_SOURCE, kLateTag, comm, MPI_STATUS_IGNORE);
        reached[static_cast<std::size_t>(status.MPI_SOURCE)] = theirs;
        ++heard;
    }
    const LateRanksVerdict verdict = judgeLateRanks(me, sequence, reached);
    const std::string message = lateRanksMessage(verdict, what, timeout_);
    if (verdict.speaker != me)  // the speaker's MPI_Abort normally ends this rank meanwhile
        std::this_thread::sleep_for(std::chrono::duration<double>(grace));
    session_.abort(message);
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

void DeadlineCollectives::reduceScatter(const void* all, void* mine, const std::vector<int>& counts,
                                        MPI_Datatype type, MPI_Op op, const std::string& what) {
    MPI_Request r;
    const int started =
        MPI_Ireduce_scatter(all, mine, counts.data(), type, op, session_.comm(), &r);
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

// A rank whose device is a GPU has an idle CPU while it waits: spin. A CPU device (PoCL) computes
// on the cores the polling would take.
int exchangePollMicroseconds(bool deviceIsCpu) {
    return deviceIsCpu ? 20 : 0;
}

}  // namespace clviz
