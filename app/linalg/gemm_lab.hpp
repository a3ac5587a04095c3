#pragma once
// The lab's GEMM on the device, GL-free: A and B of the chosen shape (uniform in [-1, 1), a fixed
// seed, so a shape always shows the same matrices), C from the chosen variant, the CPU reference
// computed on a worker thread (up to kMaxReferenceMacs) and the error against it; plus timing runs
// at other shapes in scratch buffers, for the roofline points and the size plot.
#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/linalg/gemm_reference.hpp"
#include "common/roofline.hpp"
#include "compute/core/cl.hpp"
#include "compute/linalg/gemm.hpp"

namespace clviz {

class ComputeContext;

struct GemmRun {
    GemmVariant variant = GemmVariant::Naive;
    GemmShape shape;
    double ms = 0;            // device time of the kernel
    bool tensorPath = false;  // the inline-PTX path ran (else its portable twin)
    double gflops() const { return ms > 0 ? shape.flops() / (ms * 1e-3) * 1e-9 : 0.0; }
    // flops 2MNK; bytes: A and B read and C written once, in float (the least a GEMM moves).
    RooflinePoint point() const;
};

class GemmLab {
  public:
    explicit GemmLab(ComputeContext& cc);
    ~GemmLab();  // stops the reference thread
    GemmLab(const GemmLab&) = delete;
    GemmLab& operator=(const GemmLab&) = delete;

    // Makes A and B for `shape` (when it differs from the current one) and starts the CPU
    // reference. Throws clviz::Error when the device cannot hold the matrices.
    void prepare(const GemmShape& shape);
    const GemmShape& shape() const { return shape_; }

    // C = op(A) op(B) with `variant` at the prepared shape. Throws clviz::Error with the GEMM's
    // reason (a tuning the variant refuses). The error is compared when the reference is ready.
    GemmRun run(GemmVariant variant, const GemmTuning& tuning);
    // Times `variant` at `shape` in scratch buffers (C of the lab untouched).
    GemmRun time(GemmVariant variant, const GemmShape& shape, const GemmTuning& tuning);

    const std::vector<float>& hostA() const { return hostA_; }  // as stored on the device
    const std::vector<float>& hostB() const { return hostB_; }
    const cl::Buffer& a() const { return a_; }
    const cl::Buffer& b() const { return b_; }
    const cl::Buffer& c() const { return c_; }

    enum class Reference { TooLarge, Computing, Ready };
    // Polls the worker; once it is done the reference is on the device too.
    Reference reference();
    // Waits for the worker (the reference check), then as reference().
    Reference waitForReference();
    const cl::Buffer& referenceBuffer() const { return refDevice_; }
    // |C - ref| of the last run(), once the reference is ready (nullopt before).
    const std::optional<GemmError>& error() const { return error_; }
    // Compares the last run's C with the reference now if it is ready and not yet compared.
    void compareIfReady();

    Gemm& gemm() { return *gemm_; }
    // The kernels changed (live reload): the next run's C is compared again.
    void kernelsChanged() { comparedKey_.clear(); }

  private:
    void stopReference();
    void ensureScratch(const GemmShape& shape);

    ComputeContext& cc_;
    std::unique_ptr<Gemm> gemm_;
    GemmShape shape_;
    bool prepared_ = false;
    std::vector<float> hostA_, hostB_;
    cl::Buffer a_, b_, c_;
    cl::Buffer scratchA_, scratchB_, scratchC_;
    std::size_t scratchFloats_[3] = {0, 0, 0};

    std::shared_ptr<std::atomic<bool>> cancel_;
    std::future<std::vector<float>> pending_;
    Reference refState_ = Reference::TooLarge;
    std::vector<float> ref_;
    cl::Buffer refDevice_;
    bool compared_ = true;     // the last run's C was compared (or there is none)
    std::string comparedKey_;  // variant and tuning of the C compared (or being waited for)
    std::optional<GemmError> error_;
};

}  // namespace clviz
