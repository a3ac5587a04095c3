#pragma once
// Whole-system figures of an N-body state: energy, momentum and the NaN/Inf check. They are summed
// per slice of bodies (NbodyDiagnosticSums), so that the slices of several devices or MPI ranks
// add up to the whole system's figures before the energy reference turns them into a drift.
#include <string>

namespace clviz {

// Additive figures over a range of bodies, each body taken against all bodies.
struct NbodyDiagnosticSums {
    double kinetic = 0;    // sum m v^2 / 2 over the range
    double potential = 0;  // half of each body's pairs with all the others
    double momentum[3] = {0, 0, 0};
    long long nonFiniteBodies = 0;  // bodies of the range holding NaN or Inf
    long long firstNonFinite = -1;  // one such body (load order), -1 if none or unknown
    double ms = 0;                  // device time the sums took (the slowest slice when combined)

    void add(const NbodyDiagnosticSums& other);
};

struct NbodyDiagnostics {
    double kinetic = 0;    // sum m v^2 / 2
    double potential = 0;  // -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), consistent with the force
    double total = 0;
    double momentum[3] = {0, 0, 0};
    double initialEnergy = 0;        // total at the reference point (load/reset)
    double relativeEnergyDrift = 0;  // (total - initialEnergy) / |initialEnergy|
    long long nonFiniteBodies = 0;   // bodies whose position or velocity holds NaN or Inf
    long long firstNonFinite = -1;   // one such body (load order), -1 if none or unknown
    double ms = 0;                   // device time the diagnostics took (all slices)
    // How the potential was summed, for the panel: "from the tree's walk (theta 0.50)", "all
    // pairs", "all pairs in 12 slices".
    std::string method = "all pairs";
    int slices = 1;         // device launches the measurement was spread over (one per frame)
    double maxSliceMs = 0;  // the longest of them
    bool finite() const { return nonFiniteBodies == 0; }
    std::string message() const;  // "" when healthy, else a sentence for the user
};

// The energy the drift is measured against: set by the first healthy figures after a reset.
class NbodyEnergyReference {
  public:
    void reset() { have_ = false; }
    // The whole system's figures from its summed slices, with the drift against the reference
    // (which the first finite call sets).
    NbodyDiagnostics finish(const NbodyDiagnosticSums& sums);

  private:
    bool have_ = false;
    double energy_ = 0;
};

}  // namespace clviz
