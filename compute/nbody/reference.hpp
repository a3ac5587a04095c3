#pragma once
// The double-precision CPU reference every kernel variant is checked against. Single-threaded and
// written for clarity, not speed (the timed C++ baseline is compute/nbody/cpu_baseline.hpp).
#include <array>
#include <vector>

#include "compute/nbody/body.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

using Vec4d = std::array<double, 4>;  // xyz and mass (positions) or 0 (velocities)

struct NbodyReferenceState {
    std::vector<Vec4d> pos, vel;
    static NbodyReferenceState from(const std::vector<Body>& bodies);
};

struct NbodyReferenceForces {
    std::vector<std::array<double, 3>> acc;
    // Per body: sum_j |m_j r_ij| / (|r_ij|^2 + eps^2)^(3/2), the size of the terms that cancel
    // in acc. Float32 summation error scales with it, so it is the honest denominator for a
    // per-body relative error.
    std::vector<double> termSum;
};

// Same physics as the kernels: softened, G = 1, r^2 == 0 contributes nothing.
NbodyReferenceForces referenceForces(const std::vector<Vec4d>& pos, double softening);

// Advances `steps` steps exactly as NbodySimulation does (same integrator, damping placement).
void referenceStep(NbodyReferenceState& state, NbodyIntegrator integrator,
                   const NbodyParams& params, int steps = 1);

struct NbodyReferenceEnergy {
    double kinetic = 0, potential = 0;
    std::array<double, 3> momentum{};
    double total() const { return kinetic + potential; }
};
NbodyReferenceEnergy referenceEnergy(const NbodyReferenceState& state, double softening);

// Each body's potential, -sum_{j != i} m_j / sqrt(r^2 + eps^2) (r^2 == 0 contributes nothing), as
// the tree leaves it in acc.w; the potential energy is half of sum_i m_i phi_i.
std::vector<double> referencePotentials(const std::vector<Vec4d>& pos, double softening);

// How far a state split over devices (or MPI ranks) is from the one-device state of the same
// bodies: the worst |a - b| / (|b| + 1e-3) over every position and velocity coordinate (the floor
// keeps coordinates near 0 from dominating); infinity when either holds NaN or Inf.
double worstSplitDifference(const std::vector<Body>& a, const std::vector<Body>& b);

// State after stepping against the reference: per body, the error of the position must be within
// `rel` of how far the body moved plus a few float ulps of where it is (the rounding any float
// state has); the same for velocities. Returns the worst ratio error / tolerance (<= 1 passes).
double worstStateError(const std::vector<Body>& start, const std::vector<Body>& got,
                       const NbodyReferenceState& ref, double rel);

}  // namespace clviz
