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
class NbodyMpiLeader : public NbodySystem {
  public:
    NbodyMpiLeader(ComputeContext& cc, const NbodyMpiLink& link, NbodyEnvironment env = {});
    ~NbodyMpiLeader() override;  // the followers drop their state and wait for the next leader

    void load(const std::vector<Body>& bodies) override;
    void step(int count = 1) override;
    NbodyDiagnostics diagnostics() override;
    NbodyMultiTimings lastTimings();
    std::optional<NbodyMultiTimings> sliceTimings() override { return lastTimings(); }
    std::vector<Body> readBodies() override;
    std::vector<double> readAccelerationsDouble() override {
        return sim_.readAccelerationsDouble();  // throws: the ranks' forces are not gathered
    }
    void setParams(const NbodyParams& p) override;
    void setIntegrator(NbodyIntegrator i) override;
    void setPrecision(NbodyPrecision p) override;
    // The tree throws before anything is sent.
    void setKernelConfig(const NbodyKernelConfig& c) override;
    const NbodyKernelConfig& kernelConfig() const override { return sim_.kernelConfig(); }
    NbodySimulation& primary() override { return sim_.local(); }
    std::size_t deviceCount() const override { return sim_.slices().size(); }
    // This rank's device first, then the resulting choice to the others.
    void forEachDevice(const std::function<void(NbodySimulation&)>& change) override {
        change(sim_.local());
        setKernelConfig(sim_.local().kernelConfig());
    }

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
