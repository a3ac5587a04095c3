// NbodySimulation's diagnostics for a frame loop that must not wait: the tree's potential summed
// in O(N), or the all-pairs O(N^2) sum spread over frames in slices of the j range (each slice
// every i against a run of whole tiles of j: a slice of i alone would still loop over all N j,
// so its time could not be made small on a wide device). The result is read back into pinned
// memory and picked up by polling events; nothing here calls clFinish or a blocking read.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/set_args.hpp"
#include "compute/nbody/simulation_internals.hpp"

namespace clviz {

using namespace nbody_detail;

namespace {

constexpr std::size_t kPartials = 8;  // reals per group (nbody_diagnostics.cl's PARTIALS)
// The first slice's size before any rate is measured: about 4e6 interactions (a few ms on a
// CPU device, far less on a GPU); each later slice at most this many times the last.
constexpr double kFirstSliceInteractions = 4e6;
constexpr double kSliceGrowth = 4;

bool finished(const cl::Event& e, const char* what) {
    return eventComplete(e, std::string("the N-body diagnostics ") + what + " failed");
}

}  // namespace

NbodySimulation::DiagnosticsInFlight::~DiagnosticsInFlight() {
    if (host == nullptr || cc == nullptr) return;
    try {
        // Enqueued behind any read still in flight; the runtime keeps the buffer until then.
        cc->queue().enqueueUnmapMemObject(staging, host);
        cc->queue().flush();
    } catch (const cl::Error&) {
    }
}

void NbodySimulation::beginDiagnostics(double sliceBudgetMs) {
    clBoundary("the N-body diagnostics failed to start", [&] {
        if (!n_ || !ownedCount_ || inFlight_) return;  // one measurement at a time
        auto d = std::make_unique<DiagnosticsInFlight>();
        d->cc = &cc_;
        d->n = n_;
        d->begin = ownedBegin_;
        d->end = ownedBegin_ + ownedCount_;
        d->next = 0;
        d->sliceBudgetMs = std::max(sliceBudgetMs, 0.01);
        // The tree's potential, where the walk left every body's in acc.w (not after an exchange
        // of packed slices: the bodies other devices walked have none here).
        d->fromTree = config_.variant == NbodyVariant::Tree && ownedCount_ == n_ &&
                      precision_ == NbodyPrecision::Float &&
                      !(accCurrent_ && tree_ && tree_->slicesTakenPacked());
        d->dbl = precision_ == NbodyPrecision::Double;
        d->eps2 = static_cast<double>(params_.softening) * params_.softening;
        const int p = d->dbl ? 1 : 0;
        if (d->fromTree) {
            if (!kernels_->energyFromPotential())
                fetchDiagnosticsKernel(cc_, "nbody_energy_from_potential", false,
                                       kernels_->energyFromPotential,
                                       kernels_->energyFromPotentialWg);
            d->kernel = kernels_->energyFromPotential;
            d->wg = kernels_->energyFromPotentialWg;
            d->theta = params_.theta;
            ensureAccelerationsCurrent();  // enqueued: the walk that leaves phi in acc.w
        } else {
            if (!kernels_->energy[p]())
                fetchDiagnosticsKernel(cc_, "nbody_energy", d->dbl, kernels_->energy[p],
                                       kernels_->energyWg[p]);
            d->kernel = kernels_->energy[p];
            d->wg = kernels_->energyWg[p];
        }
        const std::size_t count = d->end - d->begin;
        d->groups = (count + d->wg - 1) / d->wg;
        const std::size_t partialBytes = d->groups * kPartials * realBytes(precision_);
        const std::size_t badBytes = d->groups * sizeof(cl_int);
        const cl::Context& ctx = cc_.context();
        d->partials = cl::Buffer(ctx, CL_MEM_READ_WRITE, partialBytes);
        d->firstBad = cl::Buffer(ctx, CL_MEM_READ_WRITE, badBytes);
        d->staging =
            cl::Buffer(ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, partialBytes + badBytes);
        auto& q = cc_.queue();
        d->host = static_cast<unsigned char*>(q.enqueueMapBuffer(
            d->staging, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, partialBytes + badBytes));
        if (!d->fromTree) {
            // The slices run over frames while the bodies move on: they read this copy.
            const std::size_t bytes = n_ * 4 * realBytes(precision_);
            d->pos = cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes);
            d->vel = cl::Buffer(ctx, CL_MEM_READ_WRITE, bytes);
            q.enqueueCopyBuffer(state().pos, d->pos, 0, 0, bytes);
            q.enqueueCopyBuffer(state().vel, d->vel, 0, 0, bytes);
        }
        d->renumberings = renumberings_;  // the slots its first bad body is found in
        enqueueDiagnosticsSlice(*d);
        inFlight_ = std::move(d);
    });
}

// The next slice: every owned i against the next run of whole tiles of j (all j for the tree),
// flushed so that it starts; after the last one, the partials' read into the pinned staging.
void NbodySimulation::enqueueDiagnosticsSlice(DiagnosticsInFlight& d) {
    auto& q = cc_.queue();
    const std::size_t ni = d.end - d.begin;
    std::size_t nj = d.n - d.next;
    if (!d.fromTree) {
        const double target = d.interactionsPerMs > 0 ? d.sliceBudgetMs * d.interactionsPerMs
                                                      : kFirstSliceInteractions;
        double wanted = target / double(ni);
        if (d.sliceBodies > 0) wanted = std::min(wanted, kSliceGrowth * double(d.sliceBodies));
        const std::size_t tiles = std::max<std::size_t>(1, std::size_t(wanted / double(d.wg)));
        nj = std::min(nj, tiles * d.wg);
    }
    cl::Kernel& k = d.kernel;
    if (d.fromTree) {
        setArgs(k, state().pos, state().vel, state().acc, static_cast<int>(d.n), d.partials,
                d.firstBad);
    } else {
        setArgs(k, d.pos, d.vel, static_cast<int>(d.n), static_cast<int>(d.begin),
                static_cast<int>(ni));
        setRealArg(k, 5, d.eps2, d.dbl ? NbodyPrecision::Double : NbodyPrecision::Float);
        k.setArg(6, d.partials);
        k.setArg(7, d.firstBad);
        k.setArg(8, static_cast<int>(d.next));
        k.setArg(9, static_cast<int>(nj));
    }
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(d.groups * d.wg), cl::NDRange(d.wg),
                           nullptr, &d.kernelDone);
    d.sliceTimed = false;
    d.sliceBodies = nj;
    d.next += nj;
    if (d.next >= d.n) {
        const std::size_t partialBytes = d.groups * kPartials * (d.dbl ? 8 : 4);
        q.enqueueReadBuffer(d.partials, CL_FALSE, 0, partialBytes, d.host);
        q.enqueueReadBuffer(d.firstBad, CL_FALSE, 0, d.groups * sizeof(cl_int),
                            d.host + partialBytes, nullptr, &d.readDone);
    }
    q.flush();
}

std::optional<NbodyDiagnostics> NbodySimulation::pollDiagnostics() {
    return clBoundary("the N-body diagnostics failed", [&]() -> std::optional<NbodyDiagnostics> {
        if (!inFlight_) return std::nullopt;
        DiagnosticsInFlight& d = *inFlight_;
        if (!d.sliceTimed) {
            if (!finished(d.kernelDone, "kernel")) return std::nullopt;
            const double ms = eventMilliseconds(d.kernelDone);
            d.sliceTimed = true;
            d.ms += ms;
            d.maxSliceMs = std::max(d.maxSliceMs, ms);
            ++d.slices;
            if (ms > 0) d.interactionsPerMs = double(d.sliceBodies) * double(d.end - d.begin) / ms;
            if (d.next < d.n) {
                enqueueDiagnosticsSlice(d);
                return std::nullopt;
            }
        }
        if (!finished(d.readDone, "read-back")) return std::nullopt;
        // Every group is in: added in group order in double, as diagnostics() adds them.
        const std::size_t partialBytes = d.groups * kPartials * (d.dbl ? 8 : 4);
        const cl_int* bad = reinterpret_cast<const cl_int*>(d.host + partialBytes);
        NbodyDiagnosticSums s = diagnosticSumsFrom(d.host, d.dbl, bad, d.groups, d.n);
        // A blown-up state's body by its load index (a 4-byte read, only then); unknown when the
        // bodies were renumbered since the measurement began.
        s.firstNonFinite = d.renumberings == renumberings_ ? loadIndexOfSlot(s.firstNonFinite) : -1;
        s.ms = d.ms;
        NbodyDiagnostics result = energyReference_.finish(s);
        result.slices = d.slices;
        result.maxSliceMs = d.maxSliceMs;
        if (d.fromTree) {
            char label[64];
            std::snprintf(label, sizeof label, "from the tree's walk (theta %.2f)", d.theta);
            result.method = label;
        } else {
            result.method = d.slices == 1 ? "all pairs"
                                          : "all pairs in " + std::to_string(d.slices) + " slices";
        }
        inFlight_.reset();
        return result;
    });
}

}  // namespace clviz
