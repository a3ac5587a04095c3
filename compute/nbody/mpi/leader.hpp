#pragma once
// An MPI N-body run that rank 0 steers interactively (`mpirun ... clviz --mpi --viewer`): rank 0
// draws and takes the user's changes, the other ranks compute their slices. Every call that reads
// or changes the shared state is first broadcast as a command, so all ranks make the same
// collective calls in the same order; the followers wait for commands without a deadline (the
// user may pause for minutes) and end with rank 0.
#include <vector>

#include "compute/nbody/mpi/mpi_simulation.hpp"

namespace clviz {

// What a rank of an interactive MPI run needs: its place in the job, the exchanges' collectives
// (with a deadline), and the command channel (without one).
struct NbodyMpiLink {
    const MpiSession* session = nullptr;
    DeadlineCollectives* exchange = nullptr;
    DeadlineCollectives* commands = nullptr;
};

// Rank 0's side: the same calls as NbodyMpiSimulation, each announced to the followers first.
class NbodyMpiLeader {
  public:
    NbodyMpiLeader(ComputeContext& cc, const NbodyMpiLink& link, NbodyEnvironment env = {});
    ~NbodyMpiLeader();  // the followers drop their state and wait for the next leader

    void load(const std::vector<Body>& bodies);
    void step(int count);
    NbodyDiagnostics diagnostics();
    NbodyMultiTimings lastTimings();
    std::vector<Body> gatherBodies();
    void setParams(const NbodyParams& p);
    void setIntegrator(NbodyIntegrator i);
    void setPrecision(NbodyPrecision p);
    void setKernelConfig(const NbodyKernelConfig& c);  // the tree throws before anything is sent

    NbodyMpiSimulation& simulation() { return sim_; }

  private:
    NbodyMpiLink link_;
    NbodyMpiSimulation sim_;
};

// The other ranks: follow rank 0's commands on this device until it sends Quit. Failures end the
// whole run (MpiSession::abort), as the leader would wait for this rank forever.
void followNbodyLeader(ComputeContext& cc, const NbodyMpiLink& link, NbodyEnvironment env = {});

// Rank 0, when the viewer closes: the followers return from followNbodyLeader.
void releaseNbodyFollowers(const NbodyMpiLink& link);

}  // namespace clviz
