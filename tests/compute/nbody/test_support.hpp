#pragma once
// Shared by the N-body tests: one OpenCL context per test executable, and the comparisons against
// the double-precision reference.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/reference.hpp"
#include "tests/support/device_context.hpp"

namespace clviz::test {

// Accelerations against the reference, per body, relative to the sum of the magnitudes of the
// terms that were added (termSum): float32 summation error grows with that sum, not with |a|,
// which can be ~0 through cancellation (a body at the centre of a symmetric cloud). Returns the
// worst ratio; a body with termSum == 0 (N = 1, or only zero masses) must come out exactly 0.
// `got` holds 4 values per body (xyz, w ignored), as NbodySimulation::readAccelerationsDouble.
inline double worstForceError(const std::vector<double>& got, const NbodyReferenceForces& ref,
                              std::string* where = nullptr) {
    double worst = 0;
    for (std::size_t i = 0; i < ref.acc.size(); ++i) {
        const double* g = &got[4 * i];
        const double d[3] = {g[0] - ref.acc[i][0], g[1] - ref.acc[i][1], g[2] - ref.acc[i][2]};
        const double err = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double rel;
        if (!std::isfinite(err))
            rel = INFINITY;
        else if (ref.termSum[i] == 0)
            rel = err == 0 ? 0 : INFINITY;
        else
            rel = err / ref.termSum[i];
        if (rel > worst) {
            worst = rel;
            if (where)
                *where = "body " + std::to_string(i) + ": got (" + std::to_string(g[0]) + ", " +
                         std::to_string(g[1]) + ", " + std::to_string(g[2]) + ") want (" +
                         std::to_string(ref.acc[i][0]) + ", " + std::to_string(ref.acc[i][1]) +
                         ", " + std::to_string(ref.acc[i][2]) + ")";
        }
    }
    return worst;
}

// Normwise relative error of all accelerations: ||a - a_ref||_2 / ||a_ref||_2.
inline double normwiseForceError(const std::vector<double>& got, const NbodyReferenceForces& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < ref.acc.size(); ++i) {
        const double* g = &got[4 * i];
        for (int c = 0; c < 3; ++c) {
            num += (g[c] - ref.acc[i][c]) * (g[c] - ref.acc[i][c]);
            den += ref.acc[i][c] * ref.acc[i][c];
        }
    }
    return den == 0 ? (num == 0 ? 0 : INFINITY) : std::sqrt(num / den);
}

}  // namespace clviz::test
