#include "app/linalg/gemm_lab.hpp"

#include <chrono>
#include <random>

#include "app/linalg/settings.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/profiling.hpp"

namespace clviz {

namespace {

std::size_t rowsA(const GemmShape& s) {
    return std::size_t(s.m) * std::size_t(s.k);
}
std::size_t rowsB(const GemmShape& s) {
    return std::size_t(s.k) * std::size_t(s.n);
}
std::size_t rowsC(const GemmShape& s) {
    return std::size_t(s.m) * std::size_t(s.n);
}

bool sameShape(const GemmShape& x, const GemmShape& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.transA == y.transA && x.transB == y.transB;
}

std::vector<float> uniform(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v)
        x = dist(rng);
    return v;
}

cl::Buffer deviceBuffer(ComputeContext& cc, std::size_t floats, const char* what) {
    const std::size_t bytes = floats * sizeof(float);
    if (cc.info().maxAllocBytes && bytes > cc.info().maxAllocBytes)
        throw Error(std::string("the matrix ") + what + " needs " + formatBytes(bytes) +
                    ", more than " + cc.info().name + " allows in one allocation");
    return cl::Buffer(cc.context(), CL_MEM_READ_WRITE, bytes);
}

}  // namespace

RooflinePoint GemmRun::point() const {
    RooflinePoint p;
    p.name = gemmVariantInfo(variant).id;
    p.flops = shape.flops();
    p.bytes = shape.leastBytes();
    p.seconds = ms * 1e-3;
    p.note = "flops 2MNK; bytes: A, B read and C written once in float (the least a GEMM moves)";
    return p;
}

GemmLab::GemmLab(ComputeContext& cc) : cc_(cc), gemm_(std::make_unique<Gemm>(cc)) {}

GemmLab::~GemmLab() {
    stopReference();
}

void GemmLab::stopReference() {
    if (cancel_) cancel_->store(true);
    if (pending_.valid()) pending_.wait();
    pending_ = {};
    cancel_.reset();
}

void GemmLab::prepare(const GemmShape& shape) {
    if (prepared_ && sameShape(shape, shape_)) return;
    stopReference();
    clBoundary("cannot make the lab's matrices", [&] {
        // Seeds from the shape: the same shape always shows the same A and B.
        const std::uint32_t seed =
            std::uint32_t(shape.m * 73856093u ^ shape.n * 19349663u ^ shape.k * 83492791u ^
                          (shape.transA ? 1 : 0) ^ (shape.transB ? 2 : 0));
        std::vector<float> a = uniform(rowsA(shape), seed);
        std::vector<float> b = uniform(rowsB(shape), seed + 1);
        cl::Buffer da = deviceBuffer(cc_, a.size(), "A");
        cl::Buffer db = deviceBuffer(cc_, b.size(), "B");
        cl::Buffer dc = deviceBuffer(cc_, rowsC(shape), "C");
        cc_.queue().enqueueWriteBuffer(da, CL_FALSE, 0, a.size() * 4, a.data());
        cc_.queue().enqueueWriteBuffer(db, CL_FALSE, 0, b.size() * 4, b.data());
        cc_.queue().enqueueFillBuffer(dc, 0.0f, 0, rowsC(shape) * 4);
        cc_.queue().finish();
        hostA_ = std::move(a);
        hostB_ = std::move(b);
        a_ = da;
        b_ = db;
        c_ = dc;
    });
    shape_ = shape;
    prepared_ = true;
    comparedKey_.clear();
    error_.reset();
    compared_ = true;
    ref_.clear();
    refDevice_ = cl::Buffer();
    const double macs = double(shape.m) * shape.n * shape.k;
    if (macs > kMaxReferenceMacs) {
        refState_ = Reference::TooLarge;
        return;
    }
    refState_ = Reference::Computing;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    // The worker has its own copies: prepare() may replace the lab's while it runs.
    pending_ = std::async(std::launch::async, [shape, a = hostA_, b = hostB_, cancel = cancel_] {
        return referenceGemm(shape, a, b, cancel.get());
    });
}

GemmLab::Reference GemmLab::reference() {
    if (refState_ == Reference::Computing && pending_.valid() &&
        pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        ref_ = pending_.get();
        cancel_.reset();
        clBoundary("cannot upload the CPU reference", [&] {
            refDevice_ = deviceBuffer(cc_, ref_.size(), "reference C");
            cc_.queue().enqueueWriteBuffer(refDevice_, CL_TRUE, 0, ref_.size() * 4, ref_.data());
        });
        refState_ = Reference::Ready;
    }
    return refState_;
}

GemmLab::Reference GemmLab::waitForReference() {
    if (refState_ == Reference::Computing && pending_.valid()) pending_.wait();
    return reference();
}

void GemmLab::compareIfReady() {
    if (compared_ || reference() != Reference::Ready) return;
    std::vector<float> c(rowsC(shape_));
    clBoundary("cannot read C back",
               [&] { cc_.queue().enqueueReadBuffer(c_, CL_TRUE, 0, c.size() * 4, c.data()); });
    error_ = compareGemm(c, ref_);
    compared_ = true;
}

GemmRun GemmLab::run(GemmVariant variant, const GemmTuning& tuning) {
    if (!prepared_) throw Error("the lab's matrices are not made yet");
    GemmRun r;
    r.variant = variant;
    r.shape = shape_;
    r.tensorPath = gemm_->usesInlinePtx(variant);
    r.ms = clBoundary("the GEMM failed", [&] {
        // From the first command (gemm-tf32's packing, where it packs) to the product's end.
        const cl::Event done = gemm_->enqueue(variant, shape_, 1.0f, a_, b_, 0.0f, c_, tuning);
        return spanMilliseconds(gemm_->firstEvent(), done);
    });
    // The kernels are deterministic: the same variant and tuning give the same C, so a rerun
    // (every frame, for live timings) is not read back and compared again.
    const std::string key = std::to_string(int(variant)) + " " + tuning.key();
    if (key != comparedKey_) {
        comparedKey_ = key;
        compared_ = false;
        error_.reset();
    }
    compareIfReady();
    return r;
}

void GemmLab::ensureScratch(const GemmShape& s) {
    const std::size_t want[3] = {rowsA(s), rowsB(s), rowsC(s)};
    cl::Buffer* buffers[3] = {&scratchA_, &scratchB_, &scratchC_};
    for (int i = 0; i < 3; ++i) {
        if (want[i] <= scratchFloats_[i]) continue;
        *buffers[i] = deviceBuffer(cc_, want[i], "scratch");
        // Ones: finite inputs, so no variant meets NaN on its way.
        cc_.queue().enqueueFillBuffer(*buffers[i], 1.0f, 0, want[i] * 4);
        scratchFloats_[i] = want[i];
    }
}

GemmRun GemmLab::time(GemmVariant variant, const GemmShape& shape, const GemmTuning& tuning) {
    GemmRun r;
    r.variant = variant;
    r.shape = shape;
    r.tensorPath = gemm_->usesInlinePtx(variant);
    r.ms = clBoundary("the GEMM failed", [&] {
        ensureScratch(shape);
        const cl::Event done =
            gemm_->enqueue(variant, shape, 1.0f, scratchA_, scratchB_, 0.0f, scratchC_, tuning);
        return spanMilliseconds(gemm_->firstEvent(), done);
    });
    return r;
}

}  // namespace clviz
