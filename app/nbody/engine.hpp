#pragma once
// What the N-body demo computes with: one device, or the bodies split over several devices of the
// process (--devices; NbodyMultiDevice). The demo reads kernel choice, notes and buffers from the
// drawing device's simulation (primary()), whose positions hold every body after each step, and
// sends whatever changes the state or the kernels through here so every device gets it.
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "compute/nbody/mpi/leader.hpp"
#include "compute/nbody/multi/multi_device_simulation.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

class NbodyEngine {
  public:
    // `drawing` draws (GL shares its buffers); `more` are the other devices of the split. With
    // `mpi` (rank 0 of clviz --mpi --viewer) the bodies are split over the MPI ranks instead.
    NbodyEngine(ComputeContext& drawing, const std::vector<ComputeContext*>& more,
                const NbodyEnvironment& env, const NbodyMpiLink* mpi = nullptr);

    NbodySimulation& primary();
    std::size_t deviceCount() const;

    void load(const std::vector<Body>& bodies);
    void step(int count);
    NbodyDiagnostics diagnostics();
    std::vector<Body> readBodies();
    // The last force pass's accelerations of every body (4 doubles each), from their owners.
    std::vector<double> readAccelerationsDouble();

    void setParams(const NbodyParams& p);
    void setIntegrator(NbodyIntegrator i);
    void setPrecision(NbodyPrecision p);
    // A kernel setting for every device (setVariant, setWorkGroupSize, ...); the tree variant
    // throws clviz::Error when the bodies are split.
    void setVariant(NbodyVariant v);
    void forEachDevice(const std::function<void(NbodySimulation&)>& change);

    // Per-device compute, exchange, wait and share of the last step; nothing for one device.
    std::optional<NbodyMultiTimings> splitTimings();

  private:
    // Exactly one of them.
    std::unique_ptr<NbodySimulation> single_;
    std::unique_ptr<NbodyMultiDevice> split_;
    std::unique_ptr<NbodyMpiLeader> ranks_;
};

}  // namespace clviz
