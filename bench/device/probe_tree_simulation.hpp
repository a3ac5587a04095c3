#pragma once
// Shared by the tree probes (tree_phases.cpp, domain_chain.cpp): a simulation of `bodies` with the
// tree and `preset`'s time step, softening and far-field angle, as the bench's rows run it, for
// stepping the bodies into the state those rows' later steps see.
#include <memory>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"

inline std::unique_ptr<clviz::NbodySimulation> probeTreeSimulation(
    clviz::ComputeContext& cc, clviz::NbodyPreset preset, const std::vector<clviz::Body>& bodies) {
    auto sim = std::make_unique<clviz::NbodySimulation>(cc);
    clviz::NbodyParams p;
    p.dt = clviz::presetInfo(preset).dt;
    p.softening = clviz::presetInfo(preset).softening;
    p.thetaFar = clviz::presetInfo(preset).thetaFar;
    sim->setParams(p);
    sim->load(bodies);
    clviz::NbodyKernelConfig c;
    c.variant = clviz::NbodyVariant::Tree;
    sim->setKernelConfig(c);
    return sim;
}
