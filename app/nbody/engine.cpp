#include "app/nbody/engine.hpp"

#include "common/error.hpp"

namespace clviz {

NbodyEngine::NbodyEngine(ComputeContext& drawing, const std::vector<ComputeContext*>& more,
                         const NbodyEnvironment& env) {
    if (more.empty()) {
        single_ = std::make_unique<NbodySimulation>(drawing, env);
        return;
    }
    std::vector<ComputeContext*> all{&drawing};
    all.insert(all.end(), more.begin(), more.end());
    split_ = std::make_unique<NbodyMultiDevice>(all, env);
}

void NbodyEngine::load(const std::vector<Body>& bodies) {
    split_ ? split_->load(bodies) : single_->load(bodies);
}

void NbodyEngine::step(int count) {
    split_ ? split_->step(count) : single_->step(count);
}

NbodyDiagnostics NbodyEngine::diagnostics() {
    return split_ ? split_->diagnostics() : single_->diagnostics();
}

std::vector<Body> NbodyEngine::readBodies() {
    return split_ ? split_->readBodies() : single_->readBodies();
}

std::vector<double> NbodyEngine::readAccelerationsDouble() {
    if (!split_) return single_->readAccelerationsDouble();
    std::vector<double> out;
    for (const Float4& a : split_->readAccelerations())
        out.insert(out.end(), {a.x, a.y, a.z, a.w});
    return out;
}

void NbodyEngine::setParams(const NbodyParams& p) {
    split_ ? split_->setParams(p) : single_->setParams(p);
}

void NbodyEngine::setIntegrator(NbodyIntegrator i) {
    split_ ? split_->setIntegrator(i) : single_->setIntegrator(i);
}

void NbodyEngine::setPrecision(NbodyPrecision p) {
    split_ ? split_->setPrecision(p) : single_->setPrecision(p);
}

void NbodyEngine::setVariant(NbodyVariant v) {
    if (split_) {
        NbodyKernelConfig c = split_->device(0).kernelConfig();
        c.variant = v;
        split_->setKernelConfig(c);  // refuses the tree
    } else {
        single_->setVariant(v);
    }
}

void NbodyEngine::forEachDevice(const std::function<void(NbodySimulation&)>& change) {
    if (!split_) return change(*single_);
    for (std::size_t d = 0; d < split_->deviceCount(); ++d)
        change(split_->device(d));
}

std::optional<NbodyMultiTimings> NbodyEngine::splitTimings() {
    if (!split_) return std::nullopt;
    return split_->lastTimings();
}

}  // namespace clviz
