#include "compute/nbody/reference_check.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/simulation.hpp"

namespace clviz {

namespace {

std::string format(const char* fmt, double a, double b = 0) {
    char text[200];
    std::snprintf(text, sizeof text, fmt, a, b);
    return text;
}

// Worst per-body error of the sampled accelerations, relative to the sum of term sizes (what
// float summation error scales with; see NbodyReferenceForces::termSum).
double sampledForceError(const std::vector<Body>& bodies, const std::vector<double>& acc,
                         double softening, int samples, std::size_t& worstBody) {
    const std::size_t n = bodies.size();
    const double eps2 = softening * softening;
    double worst = 0;
    for (int k = 0; k < samples; ++k) {
        const std::size_t i = static_cast<std::size_t>(k) * n / static_cast<std::size_t>(samples);
        const Float4& p = bodies[i].pos;
        double a[3] = {0, 0, 0}, terms = 0;
        for (const Body& b : bodies) {
            const double d[3] = {double(b.pos.x) - p.x, double(b.pos.y) - p.y,
                                 double(b.pos.z) - p.z};
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 == 0) continue;  // as the kernels: a body never pulls on itself
            const double inv = 1.0 / std::pow(r2 + eps2, 1.5);
            for (int c = 0; c < 3; ++c)
                a[c] += b.pos.w * d[c] * inv;
            terms += b.pos.w * std::sqrt(r2) * inv;
        }
        const double* g = &acc[4 * i];
        const double err = std::hypot(g[0] - a[0], g[1] - a[1], g[2] - a[2]);
        const double rel = !std::isfinite(err) ? INFINITY
                           : terms == 0        ? (err == 0 ? 0 : INFINITY)
                                               : err / terms;
        if (rel > worst || (k == 0 && rel == worst)) {
            worst = rel;
            worstBody = i;
        }
    }
    return worst;
}

}  // namespace

ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, int samples) {
    if (sim.bodyCount() == 0) return {false, "N-body: no bodies loaded"};
    return checkNbodyAgainstReference(sim, sim.readBodies(), sim.readAccelerationsDouble(),
                                      samples);
}

ReferenceCheck checkNbodyAgainstReference(NbodySimulation& sim, const std::vector<Body>& bodies,
                                          const std::vector<double>& acc, int samples) {
    const std::size_t n = bodies.size();
    if (n == 0) return {false, "N-body: no bodies loaded"};
    samples = static_cast<int>(std::min<std::size_t>(std::max(samples, 1), n));
    const bool dbl = sim.precision() == NbodyPrecision::Double;
    // Float kernels: 1e-4 in the kernel tests on small N; a little slack for large N's longer
    // sums. fp64 state is read back rounded to float, hence not 1e-9 here.
    const double forceTolerance = dbl ? 1e-5 : 1e-3;

    std::size_t worstBody = 0;
    const double forceError =
        sampledForceError(bodies, acc, sim.params().softening, samples, worstBody);

    // The sampled bodies as a system of their own, one step on the device and on the CPU. The
    // tree at theta > 0 approximates the sums by design: its kernels are checked exactly with
    // theta = 0 on the sample (every cell opened: the direct sum), and the whole system's error
    // against the sums is its approximation, shown but judged only as finite (the Diagnostics
    // panel tracks it against theta).
    NbodyKernelConfig c;
    c.variant = sim.kernelConfig().variant;
    const bool approximates = c.variant == NbodyVariant::Tree && sim.params().theta > 0;
    NbodyParams exact = sim.params();
    if (approximates) exact.theta = exact.thetaFar = 0;
    std::vector<Body> subset;
    for (int k = 0; k < samples; ++k)
        subset.push_back(
            bodies[static_cast<std::size_t>(k) * n / static_cast<std::size_t>(samples)]);
    NbodySimulation small(sim.context(), sim.environment());
    small.setParams(exact);
    small.setIntegrator(sim.integrator());
    small.setPrecision(sim.precision());
    small.setKernelConfig(c);
    small.load(subset);
    std::size_t worstSampled = 0;
    const double sampleForceError = approximates
                                        ? sampledForceError(subset, small.readAccelerationsDouble(),
                                                            exact.softening, samples, worstSampled)
                                        : 0.0;
    small.step(1);
    NbodyReferenceState ref = NbodyReferenceState::from(subset);
    referenceStep(ref, sim.integrator(), exact, 1);
    const double stepRatio = worstStateError(subset, small.readBodies(), ref, dbl ? 1e-6 : 1e-4);

    ReferenceCheck r;
    const std::string run =
        std::string(" (") + variantName(c.variant) + ", " + integratorName(sim.integrator()) + ")";
    if (approximates) {
        r.ok = std::isfinite(forceError) && sampleForceError <= forceTolerance && stepRatio <= 1.0;
        r.message = std::string("N-body vs CPU reference: ") + (r.ok ? "OK" : "MISMATCH") +
                    "; the tree at theta 0 on " + std::to_string(samples) +
                    " sampled bodies: force error " +
                    format("%.2e (tolerance %.0e)", sampleForceError, forceTolerance) +
                    ", one step " + format("%.2f of its tolerance", stepRatio) + "; at theta " +
                    format("%.2g", sim.params().theta) + " on all " + std::to_string(n) +
                    " bodies its approximation error is " + format("%.2e", forceError) +
                    " (not judged)" + run;
        return r;
    }
    r.ok = forceError <= forceTolerance && stepRatio <= 1.0;
    r.message = std::string("N-body vs CPU reference: ") + (r.ok ? "OK" : "MISMATCH") + "; " +
                std::to_string(samples) + " of " + std::to_string(n) + " bodies, force error " +
                format("%.2e (tolerance %.0e", forceError, forceTolerance) +
                (r.ok ? ")" : ", worst body " + std::to_string(worstBody) + ")") +
                ", one step of the sample " + format("%.2f of its tolerance", stepRatio) + run;
    return r;
}

}  // namespace clviz
