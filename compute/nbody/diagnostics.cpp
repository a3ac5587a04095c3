// NbodySimulation's whole-system figures: energy, momentum and the NaN/Inf check, reduced on the
// device per work-group and summed on the host in double.
#include <algorithm>
#include <bit>
#include <cmath>

#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/nbody/simulation_internals.hpp"

namespace clviz {

using namespace nbody_detail;

std::string NbodyDiagnostics::message() const {
    if (nonFiniteBodies == 0) return "";
    const std::string which =
        firstNonFinite >= 0 ? " (first: body " + std::to_string(firstNonFinite) + ")" : "";
    return std::to_string(nonFiniteBodies) + " bodies have NaN or Inf positions or velocities" +
           which + ". The simulation blew up: reduce dt, raise the softening, or reset.";
}

void NbodyDiagnosticSums::add(const NbodyDiagnosticSums& o) {
    kinetic += o.kinetic;
    potential += o.potential;
    for (int c = 0; c < 3; ++c)
        momentum[c] += o.momentum[c];
    nonFiniteBodies += o.nonFiniteBodies;
    if (o.firstNonFinite >= 0 && (firstNonFinite < 0 || o.firstNonFinite < firstNonFinite))
        firstNonFinite = o.firstNonFinite;
    ms = std::max(ms, o.ms);
}

NbodyDiagnostics NbodyEnergyReference::finish(const NbodyDiagnosticSums& s) {
    NbodyDiagnostics d;
    d.kinetic = s.kinetic;
    d.potential = s.potential;
    d.total = s.kinetic + s.potential;
    for (int c = 0; c < 3; ++c)
        d.momentum[c] = s.momentum[c];
    d.nonFiniteBodies = s.nonFiniteBodies;
    d.firstNonFinite = s.firstNonFinite;
    d.ms = d.maxSliceMs = s.ms;
    if (d.nonFiniteBodies == 0 && !have_) {
        energy_ = d.total;
        have_ = true;
    }
    d.initialEnergy = energy_;
    d.relativeEnergyDrift = have_ && energy_ != 0 ? (d.total - energy_) / std::abs(energy_) : 0.0;
    return d;
}

namespace {

int floorPow2(std::size_t v) {
    return v == 0 ? 1 : static_cast<int>(std::bit_floor(std::min<std::size_t>(v, 1 << 30)));
}

}  // namespace

void nbody_detail::fetchDiagnosticsKernel(ComputeContext& cc, const char* name, bool dbl,
                                          cl::Kernel& kernel, int& workGroupSize) {
    int wg = floorPow2(std::min<std::size_t>(cc.info().maxWorkGroupSize, 256));
    for (;;) {
        const std::string opts = "-DWG=" + std::to_string(wg) + (dbl ? " -DREAL_DOUBLE" : "");
        cl::Kernel k = cc.programs().kernel("nbody_diagnostics.cl", name, opts);
        const auto kmax = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cc.device());
        if (kmax >= static_cast<std::size_t>(wg) || wg == 1) {
            kernel = k;
            workGroupSize = wg;
            return;
        }
        wg = floorPow2(kmax);
    }
}

namespace {

template <class Real>
void addPartials(const Real* p, std::size_t groups, double sums[8]) {
    for (std::size_t g = 0; g < groups; ++g)
        for (int c = 0; c < 8; ++c)
            sums[c] += p[g * 8 + c];
}

}  // namespace

NbodyDiagnosticSums nbody_detail::diagnosticSumsFrom(const void* partials, bool dbl,
                                                     const cl_int* firstBad, std::size_t groups,
                                                     std::size_t n) {
    double sums[8] = {};
    if (dbl)
        addPartials(static_cast<const double*>(partials), groups, sums);
    else
        addPartials(static_cast<const float*>(partials), groups, sums);
    NbodyDiagnosticSums d;
    d.kinetic = sums[0];
    d.potential = sums[1];
    for (int c = 0; c < 3; ++c)
        d.momentum[c] = sums[2 + c];
    d.nonFiniteBodies = std::llround(sums[5]);
    const long long first = groups ? *std::min_element(firstBad, firstBad + groups) : n;
    d.firstNonFinite = first < static_cast<long long>(n) ? first : -1;
    return d;
}

NbodyDiagnostics NbodySimulation::diagnostics() {
    if (!n_) return {};
    return energyReference_.finish(ownedDiagnosticSums());
}

NbodyDiagnosticSums NbodySimulation::ownedDiagnosticSums() {
    return clBoundary("the N-body diagnostics failed", [&] {
        NbodyDiagnosticSums d;
        if (!ownedCount_) return d;
        const bool dbl = precision_ == NbodyPrecision::Double;
        const int p = dbl ? 1 : 0;
        if (!kernels_->energy[p]())
            fetchDiagnosticsKernel(cc_, "nbody_energy", dbl, kernels_->energy[p],
                                   kernels_->energyWg[p]);
        const std::size_t wg = kernels_->energyWg[p];
        const std::size_t groups = (ownedCount_ + wg - 1) / wg;
        cl::Buffer partials(cc_.context(), CL_MEM_READ_WRITE, groups * 8 * realBytes(precision_));
        cl::Buffer firstBad(cc_.context(), CL_MEM_READ_WRITE, groups * sizeof(cl_int));
        cl::Kernel& k = kernels_->energy[p];
        setArgs(k, state().pos, state().vel, static_cast<int>(n_), static_cast<int>(ownedBegin_),
                static_cast<int>(ownedCount_));
        setRealArg(k, 5, static_cast<double>(params_.softening) * params_.softening, precision_);
        k.setArg(6, partials);
        k.setArg(7, firstBad);
        k.setArg(8, 0);  // every j at once
        k.setArg(9, static_cast<int>(n_));
        cl::Event ev;
        auto& q = cc_.queue();
        q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * wg), cl::NDRange(wg), nullptr,
                               &ev);
        std::vector<unsigned char> h(groups * 8 * realBytes(precision_));
        q.enqueueReadBuffer(partials, CL_TRUE, 0, h.size(), h.data());
        std::vector<cl_int> bad(groups);
        q.enqueueReadBuffer(firstBad, CL_TRUE, 0, groups * sizeof(cl_int), bad.data());
        d = diagnosticSumsFrom(h.data(), dbl, bad.data(), groups, n_);
        d.firstNonFinite = loadIndexOfSlot(d.firstNonFinite);
        d.ms = eventMilliseconds(ev);
        return d;
    });
}

long long NbodySimulation::loadIndexOfSlot(long long slot) {
    if (slot < 0 || !renumbered_) return slot;
    cl_uint body = 0;
    cc_.queue().enqueueReadBuffer(ids_, CL_TRUE, static_cast<std::size_t>(slot) * 4, 4, &body);
    return body;
}

void NbodySimulation::resetEnergyReference() {
    energyReference_.reset();
    diagnostics();
}

}  // namespace clviz
