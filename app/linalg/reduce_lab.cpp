#include "app/linalg/reduce_lab.hpp"

#include <cmath>
#include <random>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"

namespace clviz {

RooflinePoint ReducePoint::point(ReduceVariant variant) const {
    RooflinePoint p;
    p.name = std::string(reduceVariantInfo(variant).id) + " " + formatBytes(bytes);
    p.flops = double(bytes / 4);  // one add per float
    p.bytes = double(bytes);
    p.seconds = ms * 1e-3;
    p.note = "flops: one add per element; bytes: each element read once";
    return p;
}

ReduceLab::ReduceLab(ComputeContext& cc) : cc_(cc), reduction_(std::make_unique<Reduction>(cc)) {
    const DeviceInfo& d = cc.info();
    maxBytes_ = d.kind == DeviceKind::Gpu ? std::size_t(256) << 20 : std::size_t(16) << 20;
    if (d.maxAllocBytes)
        while (maxBytes_ > d.maxAllocBytes)
            maxBytes_ /= 4;
    for (std::size_t b = 1024; b <= maxBytes_; b *= 4) {
        ReducePoint p;
        p.bytes = b;
        points_.push_back(p);
    }
    host_.resize(maxBytes_ / 4);
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    for (float& x : host_)
        x = dist(rng);
    reference_.assign(points_.size(), std::nan(""));
    data_ = clBoundary("cannot set up the reduction data", [&] {
        cl::Buffer b(cc.context(), CL_MEM_READ_ONLY, maxBytes_);
        cc.queue().enqueueWriteBuffer(b, CL_TRUE, 0, maxBytes_, host_.data());
        return b;
    });
}

ReduceLab::~ReduceLab() = default;

void ReduceLab::setVariant(ReduceVariant v) {
    if (v == variant_) return;
    variant_ = v;
    for (auto& p : points_) {
        ReducePoint fresh;
        fresh.bytes = p.bytes;
        p = fresh;
    }
    next_ = 0;
}

void ReduceLab::step() {
    if (points_.empty()) return;
    const std::size_t i = next_;
    next_ = (next_ + 1) % points_.size();
    ReducePoint& p = points_[i];
    const std::size_t count = p.bytes / 4;
    if (std::isnan(reference_[i]))
        reference_[i] = referenceReduce(ReduceOp::Sum, host_.data(), count);
    const ReduceResult r =
        reduction_->reduce(variant_, ReduceOp::Sum, ReduceType::Float, data_, count);
    p.ms = r.ms;
    // FP32 trees against a double sum: rounding of about log2(n) additions, far below 1e-4.
    const double relative = std::abs(r.value - reference_[i]) / std::abs(reference_[i]);
    p.checked = relative <= 1e-4;
    p.problem =
        p.checked ? ""
                  : "sum " + std::to_string(r.value) + ", the CPU " + std::to_string(reference_[i]);
}

}  // namespace clviz
