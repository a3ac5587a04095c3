#pragma once
// One N-body system over the ranks of an MPI job, one OpenCL device per rank: the in-process
// split (compute/nbody/multi/) across processes and hosts. Every rank holds every position and owns
// a slice of the bodies; after each drift the slices are all-gathered with MPI_Iallgatherv
// through pinned host memory (16 bytes per body, 32 in fp64), then each rank computes the forces
// of its slice. Slices follow the measured force times, decided identically on every rank from
// all-gathered times (SliceBalancer). Every collective has a deadline (DeadlineCollectives).
// Pairs and the tree: each rank computes its share of every body's acceleration (NbodyMultiDevice
// says how). Pairs: MPI_Ireduce_scatter sums the parts into each rank's slice. Tree: each body's
// acceleration comes from one rank, so MPI_Iallgatherv of the Morton domains' slices of the
// sorted accelerations (16 bytes a body, each rank sending its own domain) gives every rank all.
//
// On one host (every rank on it) the slices travel through memory all ranks map instead
// (HostWindow): each rank puts its slice into the shared area, and after a barrier each rank
// uploads the others' slices from it; pairs' parts are added on the host from it, each rank its
// own slice (in rank order, as in one process). Both ways go through the rank's pinned memory (a
// device copies pageable memory, such as the window, several times slower), with threads copying
// between the two. Open MPI's shared-memory collectives moved these far slower (docs/scaling.md,
// issue 32).
//
// Every public call is collective: all ranks make the same calls in the same order.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "common/error.hpp"
#include "compute/nbody/mpi/deadline_collectives.hpp"
#include "compute/nbody/multi/device_timings.hpp"
#include "compute/nbody/multi/slice_plan.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/system.hpp"

namespace clviz {

class ComputeContext;
class HostWindow;

// How the slices travel between ranks. Auto: HostWindow when every rank is on one host, else the
// collectives.
enum class MpiExchange { Auto, Collectives, HostWindow };
const char* mpiExchangeName(MpiExchange e);
// "auto", "collectives" or "window"; throws clviz::Error naming the choices otherwise.
MpiExchange parseMpiExchange(const std::string& text);

class NbodyMpiSimulation : public NbodySlicedSystem {
  public:
    NbodyMpiSimulation(ComputeContext& cc, const MpiSession& session,
                       DeadlineCollectives& collectives, NbodyEnvironment env = {});
    ~NbodyMpiSimulation();
    NbodyMpiSimulation(const NbodyMpiSimulation&) = delete;
    NbodyMpiSimulation& operator=(const NbodyMpiSimulation&) = delete;

    // Rank 0's bodies go to every rank (what the others pass is ignored).
    void load(const std::vector<Body>& bodiesOnRank0) override;
    std::size_t bodyCount() const { return n_; }
    double time() const { return time_; }
    long long stepsTaken() const { return steps_; }

    void step(int count = 1) override;

    // The whole state on rank 0 (each slice from its owner); empty on the other ranks.
    std::vector<Body> readBodies() override;
    std::vector<double> readAccelerationsDouble() override {
        throw Error(
            "the reference check runs in one process; the MPI split is checked against one "
            "device by its tests (compute.nbody.mpi.mpi_simulation_test)");
    }
    // Every body's acceleration of the last force pass (the first one if nothing stepped yet) on
    // rank 0, each slice from its owner; empty on the other ranks.
    std::vector<Float4> gatherAccelerations();
    // The same figures on every rank: each rank's slice sums, reduced.
    NbodyDiagnostics diagnostics() override;
    // Every rank's compute, exchange, wait and share in the last step() call, on every rank.
    // exchange = this rank's device transfers + the fastest rank's all-gather time; wait = the
    // rest of its all-gather time, spent waiting for slower ranks.
    NbodyMultiTimings lastTimings() override;

    // Settings: call with the same values on every rank.
    void setParams(const NbodyParams& p) override { local_.setParams(p); }
    void setIntegrator(NbodyIntegrator i) override { local_.setIntegrator(i); }
    void setKernelConfig(const NbodyKernelConfig& c) override;
    const NbodyKernelConfig& kernelConfig() const override { return local_.kernelConfig(); }
    void setPrecision(NbodyPrecision p) override;
    void setAutoBalance(bool on) override { autoBalance_ = on; }
    // Fixed relative shares per rank (e.g. {1, 3}); turns automatic balancing off.
    void setWeights(const std::vector<double>& weights) override;
    // Same value on every rank. HostWindow on ranks of several hosts throws clviz::Error.
    void setExchange(MpiExchange e);
    // What the slices travel through now (Auto resolved).
    MpiExchange exchange() const;
    // Who integrates the split tree (tree_integration.hpp), the same value on every rank. The
    // ranks all-gather their devices' identities at every step() call and replicate only where
    // all are identical (replicated on ranks that differ falls back to the owners, the reason in
    // lastTimings().integration): the all-gather of the tree's slices already brings every
    // acceleration to every rank, so the position exchange then leaves the step.
    void setTreeIntegration(NbodyTreeIntegration mode) override { integrationMode_ = mode; }
    // The choice the last step() call ran with.
    const NbodyTreeIntegrationChoice& treeIntegrationChoice() const { return integration_; }

    const std::vector<BodySlice>& slices() const override { return slices_; }
    NbodySimulation& local() { return local_; }
    // This rank's device: it holds every position after each step.
    NbodySimulation& primary() override { return local_; }
    // This rank's device; the others make the same change (every call is collective).
    void forEachDevice(const std::function<void(NbodySimulation&)>& change) override {
        change(local_);
        setKernelConfig(local_.kernelConfig());
    }

  private:
    void ensureStaging();
    void exchangePositions();
    bool sharedForces() const;  // pairs or the tree over several ranks: parts to be summed
    void checkSameBlocks();
    void ensureSummedForces();
    void sumSharedForces();  // pairs: sumForceParts; the tree: exchangeForceSlices
    void sumForceParts();
    void exchangeForceSlices();
    void ensureAccStaging();
    bool windowed() const { return exchange() == MpiExchange::HostWindow && session_.size() > 1; }
    HostWindow& ensureWindow(std::unique_ptr<HostWindow>& window, std::size_t bytes);
    void exchangePositionsInWindow();
    void sumForcePartsInWindow();
    void exchangeForceSlicesInWindow();
    void timedCopy(void* dst, const void* src, std::size_t bytes);  // parallelCopy, timed
    void applySlices(const std::vector<BodySlice>& slices);
    NbodyTreeIntegrationChoice decideIntegration();  // collective
    void shareOwnersVelocities();                    // collective
    void rebalanceIfWorthIt();
    std::vector<int> counts() const;
    std::vector<int> displacements() const;

    ComputeContext& cc_;
    const MpiSession& session_;
    DeadlineCollectives& mpi_;
    NbodySimulation local_;
    std::size_t n_ = 0;
    double time_ = 0;
    long long steps_ = 0;
    NbodyEnergyReference energyReference_;
    std::vector<BodySlice> slices_;
    SliceBalancer balancer_;
    bool autoBalance_ = true;
    int rebalances_ = 0;
    NbodyTreeIntegration integrationMode_ = NbodyTreeIntegration::Auto;
    NbodyTreeIntegrationChoice integration_;  // what the last step() call ran
    bool statesAlike_ = true;  // every rank holds the whole state (after load, replicated steps)

    // Pinned host memory for every body's working position, and the MPI type of one body in it.
    cl::Buffer staging_;
    char* host_ = nullptr;
    std::size_t stagingBytes_ = 0;
    MPI_Datatype bodyType_ = MPI_DATATYPE_NULL;
    std::size_t bodyTypeBytes_ = 0;
    // Pinned host memory for this rank's part of every acceleration (pairs) or every sorted
    // acceleration (tree), its slice's sums (pairs), and the MPI type of one acceleration.
    MPI_Datatype accType_ = MPI_DATATYPE_NULL;
    cl::Buffer accStaging_;
    char* accHost_ = nullptr;
    std::size_t accStagingBytes_ = 0;
    std::vector<float> accMine_;
    // MpiExchange::HostWindow: two halves each, used on alternate exchanges, so that a rank that
    // runs ahead never writes what a slower one still reads (every exchange has a barrier, and a
    // rank reaches the next one only after its reads of this one).
    MpiExchange exchange_ = MpiExchange::Auto;
    std::unique_ptr<HostWindow> positionWindow_;  // 2 x N working positions
    std::unique_ptr<HostWindow> accWindow_;       // 2 x N (tree) or 2 x ranks x N accelerations
    long long positionRounds_ = 0, accRounds_ = 0;

    // The last step() call: transfers (device time), all-gather wall time, wall time.
    std::vector<cl::Event> transfers_;
    double gatherMs_ = 0;
    double hostCopyMs_ = 0;  // the window's copies between shared and pinned memory
    double hostSumMs_ = 0;   // the window's sum of pairs' parts
    double wallMs_ = 0;
    int lastSteps_ = 0;
};

}  // namespace clviz
