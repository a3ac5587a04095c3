#pragma once
// One N-body system on several OpenCL devices of one process, possibly on different platforms
// (as NVIDIA's nbody sample splits its bodies over GPUs). Each device holds every position and
// owns a contiguous slice of the bodies: it computes their forces against all bodies and moves
// them. After every drift each device's slice goes through pinned host memory to all the others
// (16 bytes per body, 32 in fp64) in chunks, each passed on as soon as it reaches the host
// (SliceGather: the copies out and in overlap), then the forces are computed. Slices start
// proportional to compute units x clock and follow the measured force times (see slice_plan.hpp).
//
// The all-pairs variants: the force of a body does not depend on which device computes it (same
// kernel, same j order), so the answer is one device's. Pairs and the tree: every device computes
// a share of the work for every body (pairs: an even share of the block meetings; tree: the whole
// tree, then the walk of its Morton domain). Pairs: the parts of the accelerations are summed
// through the host (N x 16 bytes from each device per step), within float rounding of one device
// (docs/scaling.md has the bound). Tree: each body's acceleration comes from one device, so each
// device sends only its domain's slice of the sorted accelerations (16 bytes a body of it) and
// receives the others'; the forces of one device exactly, the domain walked in pieces whose slices
// travel while the next piece is walked (setTreeWalkPieces). Then the owners kick their slices,
// or, on identical devices, every device kicks and drifts every body and no position travels
// (setTreeIntegration, tree_integration.hpp).
//
// Each device's commands of a step phase (advance and the force pass, above all the tree's build
// of ~60 launches) are enqueued by a thread of its own, all at once (ThreadTeam), so that every
// device starts its work at the same moment instead of one driver call sequence after another;
// each device's commands keep their order (one thread per phase, phases one after another).
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "common/thread_team.hpp"
#include "compute/nbody/for_each_device.hpp"
#include "compute/nbody/multi/device_timings.hpp"
#include "compute/nbody/multi/slice_plan.hpp"
#include "compute/nbody/multi/step_timeline.hpp"
#include "compute/nbody/multi/tree_integration.hpp"
#include "compute/nbody/simulation.hpp"
#include "compute/nbody/system.hpp"

namespace clviz {

class ComputeContext;
class SliceGather;

class NbodyMultiDevice : public NbodySlicedSystem {
  public:
    // One NbodySimulation per context (at least one; the contexts must outlive this object).
    explicit NbodyMultiDevice(const std::vector<ComputeContext*>& devices,
                              NbodyEnvironment env = {});
    ~NbodyMultiDevice();
    NbodyMultiDevice(const NbodyMultiDevice&) = delete;
    NbodyMultiDevice& operator=(const NbodyMultiDevice&) = delete;

    // Every device gets every body; slices are re-planned from the current weights.
    void load(const std::vector<Body>& bodies) override;
    std::size_t bodyCount() const { return n_; }
    double time() const { return time_; }
    long long stepsTaken() const { return steps_; }

    // Advances `count` steps; each step waits for the slowest device at the exchange. Re-slices
    // afterwards when the measured speeds say it pays (automatic balancing on).
    void step(int count = 1) override;

    // The whole state, each slice read from the device that owns it (blocking).
    std::vector<Body> readBodies() override;
    // Accelerations of the last force pass, each slice from its owner (xyz; w = 0).
    std::vector<Float4> readAccelerations();
    std::vector<double> readAccelerationsDouble() override {
        std::vector<double> out;
        for (const Float4& a : readAccelerations())
            out.insert(out.end(), {a.x, a.y, a.z, a.w});
        return out;
    }
    // Each device sums its own slice; the sums add up to the whole system's figures.
    NbodyDiagnostics diagnostics() override;
    void resetEnergyReference();

    // Settings go to every device.
    void setParams(const NbodyParams& p) override;
    void setIntegrator(NbodyIntegrator i) override;
    void setPrecision(NbodyPrecision p) override;
    void setKernelConfig(const NbodyKernelConfig& c) override;
    const NbodyKernelConfig& kernelConfig() const override { return sims_.front()->kernelConfig(); }

    // Balancing. setWeights fixes the relative shares (e.g. {1, 3}) and turns automatic balancing
    // off; setAutoBalance(true) turns it back on from the current slices.
    void setWeights(const std::vector<double>& weights) override;
    void setAutoBalance(bool on) override;
    bool autoBalance() const { return autoBalance_; }
    const std::vector<BodySlice>& slices() const override { return slices_; }

    // Per-device compute, exchange, wait and share of the last step() call; waits for it.
    NbodyMultiTimings lastTimings() override;
    // The last step() call's kernels and copies on every device, on the host's clock (its last
    // step's where it ran several: the tree's split build copies are kept for one build only).
    NbodyStepTimeline lastTimeline();

    // The tree's domains are walked in this many pieces per device, each piece's accelerations
    // passed on while the next is walked (1: the whole domain, then the exchange). Throws
    // clviz::Error outside 1 .. kMostWalkPieces. Four (halving: 1/2, 1/4, 1/8, 1/8 of the
    // domain) since the replicated devices scatter in two kernels a domain: faster than three
    // and five on four GPUs at 16M bodies, and than three on two (docs/scaling.md, session 14).
    static constexpr int kDefaultWalkPieces = 4;
    static constexpr int kMostWalkPieces = 64;
    void setTreeWalkPieces(int pieces);
    int treeWalkPieces() const { return walkPieces_; }
    // The pieces halving (default) or even (cutIntoPieces): halving leaves a smaller last piece,
    // whose copies the walk cannot hide (docs/scaling.md: 0.5-0.6 ms a step at 16M on 4 GPUs).
    void setTreeWalkHalving(bool on) { walkHalving_ = on; }
    bool treeWalkHalving() const { return walkHalving_; }
    // The tree's split build (compute/nbody/tree/split_build.hpp): each device computes the
    // moments of its own domain's nodes only, and the devices exchange the roots of their
    // subtrees and each other's local essential trees through the host before the walks.
    // The same forces as every device building the whole tree (the default, off).
    void setTreeSplitBuild(bool on) override;
    bool treeSplitBuild() const { return splitBuild_; }

    // Who integrates the split tree (tree_integration.hpp); default auto: replicated where the
    // devices are identical. Replicated throws clviz::Error when they are not (the reason in the
    // message); a later difference (a kernel reloaded on one device) falls back to the owners.
    void setTreeIntegration(NbodyTreeIntegration mode) override;
    NbodyTreeIntegration treeIntegration() const { return integrationMode_; }
    // The choice the last step() call ran with (before any step: what it would be now).
    NbodyTreeIntegrationChoice treeIntegrationChoice();
    // Bodies whose position or velocity differs in any bit between device 0 and another device
    // (blocking; reads every device's whole state). 0 while the integration is replicated.
    std::size_t bodiesDifferingBetweenDevices();

    std::size_t deviceCount() const override { return sims_.size(); }
    // Device i's simulation, for per-device queries (kernel config, notes). Its positions() hold
    // every body's current position after step() (the viewer draws device 0's).
    NbodySimulation& device(std::size_t i) { return *sims_.at(i); }
    NbodySimulation& primary() override { return device(0); }
    void forEachDevice(const std::function<void(NbodySimulation&)>& change) override {
        for (auto& sim : sims_)
            change(*sim);
    }

  private:
    struct Staging;
    // Runs task(d) for every device d at once (device 0 on the calling thread) and returns when
    // all have returned; a clviz::Error a task throws comes back naming its device (the lowest
    // device's when several fail). Each device's host time in it adds to hostEnqueueMs_.
    void onEveryDevice(const std::function<void(std::size_t device)>& task);
    ForEachDevice everyDevice() {  // onEveryDevice for the exchanges that take a ForEachDevice
        return [this](const std::function<void(std::size_t)>& task) { onEveryDevice(task); };
    }
    // Runs work() for device d, naming the device in the clviz::Error it throws.
    void namingDevice(std::size_t d, const std::function<void()>& work);
    void applySlices(const std::vector<BodySlice>& slices);
    NbodyTreeIntegrationChoice decideIntegration();
    void setIntegrationForSteps(bool replicated);
    void shareOwnersVelocities();  // every device gets each owner's velocities
    template <class T>
    std::vector<T> fromOwners(std::vector<T> (NbodySimulation::*read)());
    void exchangePositions(int parity);
    SliceGather& gather();
    void finishTransfers();
    void addWaits(const std::vector<double>& doneMs);
    bool sharedForces() const;  // pairs or the tree over several devices: parts to be summed
    void ensureSummedForces();
    void sumSharedForces();      // pairs: sumForceParts; the tree: exchangeForceSlices
    void sumForceParts();        // every device's part of every body, added on the host
    void exchangeForceSlices();  // each device's Morton domain of the sorted accelerations
    void applyTreeDomains();     // the slices as the split build's domains, or none
    void exchangeEssentialTrees();

    std::vector<ComputeContext*> contexts_;
    std::vector<std::unique_ptr<NbodySimulation>> sims_;
    std::unique_ptr<ThreadTeam> team_;  // one member per device: the per-device enqueues
    std::unique_ptr<Staging> staging_;
    std::unique_ptr<Staging> accStaging_;  // every device's part of the accelerations
    std::unique_ptr<SliceGather> gather_;  // positions and the tree's slices, chunk by chunk
    std::size_t n_ = 0;
    double time_ = 0;
    long long steps_ = 0;
    NbodyEnergyReference energyReference_;

    std::vector<double> weights_;  // relative speeds the first slices follow
    SliceBalancer balancer_;
    std::vector<BodySlice> slices_;
    bool autoBalance_ = true;
    int rebalances_ = 0;
    int walkPieces_ = kDefaultWalkPieces;
    bool walkHalving_ = true;
    bool splitBuild_ = false;
    NbodyTreeIntegration integrationMode_ = NbodyTreeIntegration::Auto;
    NbodyTreeIntegrationChoice integration_;  // what the last step() call ran
    bool statesAlike_ = true;  // every device holds the whole state (after load, replicated steps)

    // Per device over the last step() call: exchange transfers and host-observed waits.
    std::vector<std::vector<cl::Event>> transferEvents_;
    std::vector<double> waitMs_;
    std::vector<double> hostSumMs_;      // adding the parts up on the host (counted as wait)
    std::vector<double> hostEnqueueMs_;  // host time enqueueing each device's commands at once
    std::vector<std::vector<NbodyHostSpan>> hostSpans_;  // exchange phases, pieces, the step
    int lastSteps_ = 0;
    double lastWallMs_ = 0;
};

}  // namespace clviz
