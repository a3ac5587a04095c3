#include "compute/reference_check.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/image/reference.hpp"
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

    // The sampled bodies as a system of their own, one step on the device and on the CPU.
    std::vector<Body> subset;
    for (int k = 0; k < samples; ++k)
        subset.push_back(
            bodies[static_cast<std::size_t>(k) * n / static_cast<std::size_t>(samples)]);
    NbodySimulation small(sim.context(), sim.environment());
    small.setParams(sim.params());
    small.setIntegrator(sim.integrator());
    small.setPrecision(sim.precision());
    NbodyKernelConfig c;
    c.variant = sim.kernelConfig().variant;
    small.setKernelConfig(c);
    small.load(subset);
    small.step(1);
    NbodyReferenceState ref = NbodyReferenceState::from(subset);
    referenceStep(ref, sim.integrator(), sim.params(), 1);
    const double stepRatio = worstStateError(subset, small.readBodies(), ref, dbl ? 1e-6 : 1e-4);

    ReferenceCheck r;
    r.ok = forceError <= forceTolerance && stepRatio <= 1.0;
    r.message = std::string("N-body vs CPU reference: ") + (r.ok ? "OK" : "MISMATCH") + "; " +
                std::to_string(samples) + " of " + std::to_string(n) + " bodies, force error " +
                format("%.2e (tolerance %.0e", forceError, forceTolerance) +
                (r.ok ? ")" : ", worst body " + std::to_string(worstBody) + ")") +
                ", one step of the sample " + format("%.2f of its tolerance", stepRatio) + " (" +
                variantName(c.variant) + ", " + integratorName(sim.integrator()) + ")";
    return r;
}

namespace {

Rgba8Image referenceOf(const FilterStep& s, const Rgba8Image& in) {
    switch (s.kind) {
        case FilterKind::Rotate:
            return reference::rotate(in, s.rotate);
        case FilterKind::Transpose:
            return reference::transpose(in);
        case FilterKind::Mean3:
            return reference::mean3(in);
        case FilterKind::Median3:
            return reference::median3(in);
        case FilterKind::Grayscale:
            return reference::grayscale(in);
        case FilterKind::Equalize:
            return reference::equalize(in, s.equalize.mode);
    }
    return in;
}

// The tolerance of the filter tests (tests/compute/image_*_test.cpp), -1: not comparable here.
int toleranceOf(const FilterStep& s, bool gpu) {
    if (s.kind != FilterKind::Rotate) return 0;
    switch (s.rotate.variant) {
        case RotateVariant::BufferBilinear:
            return 1;
        case RotateVariant::ImageBilinear:
            return gpu ? 3 : 1;
        case RotateVariant::Forward:
            return -1;  // write races: any of the source pixels landing there may win
        default:
            return 0;
    }
}

int maxDifference(const Rgba8Image& a, const Rgba8Image& b) {
    if (a.size() != b.size()) return 256;
    int worst = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i)
        worst = std::max(worst, std::abs(int(a.pixels[i]) - int(b.pixels[i])));
    return worst;
}

}  // namespace

ReferenceCheck checkImageAgainstReference(ComputeContext& cc, const ImagePipeline& live,
                                          int maxSide) {
    if (!live.hasSource()) return {false, "image lab: no image loaded"};
    const ImageSize size = live.sourceSize();
    Rgba8Image img(std::min(size.width, maxSide), std::min(size.height, maxSide));
    const std::size_t x0 = static_cast<std::size_t>(size.width - img.width) / 2;
    const std::size_t y0 = static_cast<std::size_t>(size.height - img.height) / 2;
    const std::size_t pitch = static_cast<std::size_t>(size.width) * 4;
    cc.queue().enqueueReadBufferRect(
        live.sourceBuffer(), CL_TRUE, {x0 * 4, y0, 0}, {0, 0, 0},
        {static_cast<std::size_t>(img.width) * 4, static_cast<std::size_t>(img.height), 1}, pitch,
        0, static_cast<std::size_t>(img.width) * 4, 0, img.pixels.data());

    const std::string crop = std::to_string(img.width) + "x" + std::to_string(img.height);
    const bool gpu = cc.info().kind == DeviceKind::Gpu;
    ImagePipeline one(cc);
    one.histogramSettings().enabled = false;
    std::string checked, skipped, failed;
    for (const FilterStep& s : live.steps()) {
        if (!s.enabled) continue;
        FilterStep alone = s;
        one.steps() = {alone};
        one.setSource(img);
        one.run();
        Rgba8Image got = one.readResult();
        const int tolerance = toleranceOf(s, gpu);
        const std::string name = filterKindInfo(s.kind).id;
        if (tolerance < 0) {
            skipped += (skipped.empty() ? "" : ", ") + name;
        } else {
            const int diff = maxDifference(got, referenceOf(s, img));
            checked += (checked.empty() ? "" : ", ") + name;
            if (diff > tolerance)
                failed += (failed.empty() ? "" : "; ") + name + " differs by up to " +
                          std::to_string(diff) + " levels (tolerance " + std::to_string(tolerance) +
                          ")";
        }
        img = std::move(got);  // the next filter sees what the device made, as in the app
    }
    if (checked.empty() && skipped.empty()) return {true, "image lab: no filter is enabled"};
    ReferenceCheck r;
    r.ok = failed.empty();
    r.message = std::string("image lab vs CPU reference: ") +
                (r.ok ? "OK" : "MISMATCH: " + failed) + "; " + crop + " crop" +
                (checked.empty() ? "" : ", checked " + checked) +
                (skipped.empty() ? "" : ", not checked (write races): " + skipped);
    return r;
}

}  // namespace clviz
