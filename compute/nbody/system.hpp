#pragma once
// One N-body system, whatever computes it: one device (NbodySimulation), several devices of this
// process (NbodyMultiDevice), the ranks of an MPI job (NbodyMpiSimulation on every rank;
// NbodyMpiLeader steering them from rank 0). The viewer and the tools hold an NbodySystem and
// never ask which one it is.
#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "compute/nbody/body.hpp"
#include "compute/nbody/diagnostics.hpp"
#include "compute/nbody/multi/device_timings.hpp"
#include "compute/nbody/multi/slice_plan.hpp"
#include "compute/nbody/multi/tree_integration.hpp"
#include "compute/nbody/variants.hpp"

namespace clviz {

struct NbodyParams;
class NbodySimulation;

class NbodySystem {
  public:
    virtual ~NbodySystem() = default;

    // Every body (the sliced systems spread them over their devices or ranks).
    virtual void load(const std::vector<Body>& bodies) = 0;
    virtual void step(int count = 1) = 0;
    // The whole state, blocking (for the MPI run: on rank 0; empty on the other ranks).
    virtual std::vector<Body> readBodies() = 0;
    // The last force pass's accelerations, 4 doubles per body; a system that cannot gather them
    // in one process throws clviz::Error saying so.
    virtual std::vector<double> readAccelerationsDouble() = 0;
    virtual NbodyDiagnostics diagnostics() = 0;
    // Diagnostics for a frame loop that must not wait: beginDiagnostics() takes the current state,
    // pollDiagnostics() (once a frame) moves the measurement on and returns the figures once they
    // are in. A system that can measure without waiting (NbodySimulation: the tree's potential in
    // O(N), or the all-pairs sum in slices of about sliceBudgetMs of device time, one per poll)
    // overrides both; this default is the blocking diagnostics() (the sliced systems: their
    // per-device sums still wait).
    virtual void beginDiagnostics(double /*sliceBudgetMs*/) {
        blockingResult_ = diagnostics();
        blockingResult_->method = "all pairs, waiting for every device";
    }
    virtual std::optional<NbodyDiagnostics> pollDiagnostics() {
        return std::exchange(blockingResult_, std::nullopt);
    }
    virtual bool diagnosticsInFlight() const { return blockingResult_.has_value(); }
    // Per-device (or per-rank) compute, exchange, wait and share of the last step; nothing for
    // one device.
    virtual std::optional<NbodyMultiTimings> sliceTimings() = 0;

    // Settings reach every device or rank. A sliced system refuses what runs on one device only
    // (the tree, pairs) with clviz::Error.
    virtual void setParams(const NbodyParams& p) = 0;
    virtual void setIntegrator(NbodyIntegrator i) = 0;
    virtual void setPrecision(NbodyPrecision p) = 0;
    virtual void setKernelConfig(const NbodyKernelConfig& c) = 0;
    virtual const NbodyKernelConfig& kernelConfig() const = 0;  // as requested
    // Who integrates the split tree (tree_integration.hpp): the devices of one process and the
    // ranks of an MPI run choose; one device moves every body anyway, and the MPI leader (the
    // viewer under --mpi) does not pass it on (its ranks keep auto), so they accept any mode.
    virtual void setTreeIntegration(NbodyTreeIntegration /*mode*/) {}
    // Whether the devices of one process split the tree's build (NbodyMultiDevice): one device
    // and MPI ranks build the whole tree, so they accept either.
    virtual void setTreeSplitBuild(bool /*on*/) {}
    void setVariant(NbodyVariant v) {
        NbodyKernelConfig c = kernelConfig();
        c.variant = v;
        setKernelConfig(c);
    }

    // The drawing device's simulation: its positions hold every body after each step; kernel
    // choice and notes are read there.
    virtual NbodySimulation& primary() = 0;
    virtual std::size_t deviceCount() const = 0;
    // A change of one device's kernel settings made on each device (or on this rank's, then
    // sent to the others).
    virtual void forEachDevice(const std::function<void(NbodySimulation&)>& change) = 0;

  private:
    std::optional<NbodyDiagnostics> blockingResult_;
};

// The systems that slice the bodies over several devices or ranks: the slices and their balance.
class NbodySlicedSystem : public NbodySystem {
  public:
    virtual const std::vector<BodySlice>& slices() const = 0;
    // Fixed relative shares (e.g. {1, 3}); turns automatic balancing off.
    virtual void setWeights(const std::vector<double>& weights) = 0;
    virtual void setAutoBalance(bool on) = 0;
    virtual NbodyMultiTimings lastTimings() = 0;
    std::optional<NbodyMultiTimings> sliceTimings() override { return lastTimings(); }
    std::size_t deviceCount() const override { return slices().size(); }
};

}  // namespace clviz
