#include "app/nbody/engine.hpp"

#include "common/error.hpp"

namespace clviz {

NbodyEngine::NbodyEngine(ComputeContext& drawing, const std::vector<ComputeContext*>& more,
                         const NbodyEnvironment& env, const NbodyMpiLink* mpi) {
    if (mpi) {
        ranks_ = std::make_unique<NbodyMpiLeader>(drawing, *mpi, env);
    } else if (more.empty()) {
        single_ = std::make_unique<NbodySimulation>(drawing, env);
    } else {
        std::vector<ComputeContext*> all{&drawing};
        all.insert(all.end(), more.begin(), more.end());
        split_ = std::make_unique<NbodyMultiDevice>(all, env);
    }
}

NbodySimulation& NbodyEngine::primary() {
    if (ranks_) return ranks_->simulation().local();
    return split_ ? split_->device(0) : *single_;
}

std::size_t NbodyEngine::deviceCount() const {
    if (ranks_) return ranks_->simulation().slices().size();
    return split_ ? split_->deviceCount() : 1;
}

void NbodyEngine::load(const std::vector<Body>& bodies) {
    if (ranks_) return ranks_->load(bodies);
    split_ ? split_->load(bodies) : single_->load(bodies);
}

void NbodyEngine::step(int count) {
    if (ranks_) return ranks_->step(count);
    split_ ? split_->step(count) : single_->step(count);
}

NbodyDiagnostics NbodyEngine::diagnostics() {
    if (ranks_) return ranks_->diagnostics();
    return split_ ? split_->diagnostics() : single_->diagnostics();
}

std::vector<Body> NbodyEngine::readBodies() {
    if (ranks_) return ranks_->gatherBodies();
    return split_ ? split_->readBodies() : single_->readBodies();
}

std::vector<double> NbodyEngine::readAccelerationsDouble() {
    if (ranks_)
        throw Error(
            "the reference check runs in one process; the MPI split is checked against "
            "one device by its tests (compute.nbody.mpi.mpi_simulation_test)");
    if (!split_) return single_->readAccelerationsDouble();
    std::vector<double> out;
    for (const Float4& a : split_->readAccelerations())
        out.insert(out.end(), {a.x, a.y, a.z, a.w});
    return out;
}

void NbodyEngine::setParams(const NbodyParams& p) {
    if (ranks_) return ranks_->setParams(p);
    split_ ? split_->setParams(p) : single_->setParams(p);
}

void NbodyEngine::setIntegrator(NbodyIntegrator i) {
    if (ranks_) return ranks_->setIntegrator(i);
    split_ ? split_->setIntegrator(i) : single_->setIntegrator(i);
}

void NbodyEngine::setPrecision(NbodyPrecision p) {
    if (ranks_) return ranks_->setPrecision(p);
    split_ ? split_->setPrecision(p) : single_->setPrecision(p);
}

void NbodyEngine::setVariant(NbodyVariant v) {
    NbodyKernelConfig c = primary().kernelConfig();
    c.variant = v;
    if (ranks_)
        ranks_->setKernelConfig(c);  // refuses the tree on several ranks
    else if (split_)
        split_->setKernelConfig(c);  // refuses the tree
    else
        single_->setVariant(v);
}

void NbodyEngine::forEachDevice(const std::function<void(NbodySimulation&)>& change) {
    if (ranks_) {
        // This rank's device, then the resulting choice to the others.
        change(primary());
        return ranks_->setKernelConfig(primary().kernelConfig());
    }
    if (!split_) return change(*single_);
    for (std::size_t d = 0; d < split_->deviceCount(); ++d)
        change(split_->device(d));
}

std::optional<NbodyMultiTimings> NbodyEngine::splitTimings() {
    if (ranks_) return ranks_->lastTimings();
    if (!split_) return std::nullopt;
    return split_->lastTimings();
}

}  // namespace clviz
