#pragma once
// The linear-algebra lab as a Demo: the GEMM variants of compute/linalg/ on live-switchable
// shapes and tile parameters, A, B and C drawn as textures (through the interop path the image
// lab uses) with the error against the CPU reference over C; the device's ceilings measured at
// start-up and a roofline with every variant, the reduction and the N-body / image-lab kernels
// from their last runs; GFLOP/s against size; and the reduction's bandwidth against size.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/demo.hpp"
#include "app/gui/demo_job.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/linalg/gemm_lab.hpp"
#include "app/linalg/panels.hpp"
#include "app/linalg/reduce_lab.hpp"
#include "app/linalg/settings.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/interop/texture_share.hpp"
#include "compute/roofline/ceiling_probes.hpp"

namespace clviz {

class MatrixImage;

std::unique_ptr<Demo> makeLinalgDemo();

class LinalgDemo final : public Demo {
  public:
    LinalgDemo();
    ~LinalgDemo() override;

    const char* name() const override { return "linear-algebra lab"; }
    void init(const AppServices& app) override;
    void step(const FrameInfo& frame) override;
    void draw(const FrameInfo& frame) override;
    void gui(const FrameInfo& frame) override;
    void shutdown() override;
    bool onKey(int key, int mods) override;
    void set(const std::string& key, const std::string& value) override;
    void kernelsReloaded() override;
    ReferenceResult checkReference() override;
    std::vector<std::pair<std::string, std::string>> keyHelp() const override;

    // --- for tests and the panels ---------------------------------------------------------
    const LinalgLabControls& controls() const { return controls_; }
    const DeviceCeilings& ceilings() const { return ceilings_; }
    GemmLab* lab() { return gemm_.get(); }
    // The texture showing 'A', 'B', 'C' or the error overlay 'E' (null before it is drawn).
    const SharedTexture* matrixTexture(char which) const;
    bool errorOverlayDrawn() const { return errorDrawn_ && texError_.texture != nullptr; }
    // Off the frame (AppServices::workOffFrame), init starts the lab as a job: the ceiling
    // probes, the kernel builds and the first runs, while frames show this line ("Starting the
    // linear-algebra lab: measuring the device's ceilings (1 of 8)"); "" once it is done.
    std::string progressLine() const { return job_.progressLine(); }

  private:
    // One matrix on screen: its pixels on the device and the texture that shows them.
    struct MatrixTexture {
        cl::Buffer rgba;
        std::size_t capacity = 0;  // pixels rgba holds
        std::unique_ptr<SharedTexture> texture;
        int rows = 0, cols = 0;
    };
    void publish(MatrixTexture& t, const cl::Buffer& values, int rows, int cols, float scale,
                 bool error);
    void applyShape();
    void runSelected();
    void runOneJob();
    void queueJobs();
    std::vector<RooflineMark> rooflineMarks() const;

    // GUI (app/linalg/gui.cpp).
    void demoMenu();
    void gemmPanel();
    void drawMatrices();
    void noteRun(const GemmRun& r);

    AppServices app_;
    ComputeContext* cc_ = nullptr;
    LinalgLabControls controls_;
    DeviceCeilings ceilings_;
    std::unique_ptr<GemmLab> gemm_;
    std::unique_ptr<ReduceLab> reduce_;
    std::unique_ptr<MatrixImage> pictures_;
    InteropChoice interop_;
    MatrixTexture texA_, texB_, texC_, texError_;

    GemmShape shownShape_;  // the shape A and B were drawn for
    bool shapeDrawn_ = false;
    bool dirty_ = true;        // run the selected variant even if not continuous
    bool errorDrawn_ = false;  // the error picture is of the current C
    std::string drawnKey_;     // variant, tuning and shape of the C picture
    int shapeGeneration_ = 0;  // counts applyShape()'s new matrices
    std::optional<GemmRun> lastRun_;
    std::string runError_;

    // Jobs timed one a frame: (variant, shape) for the roofline and the size plot.
    std::deque<std::pair<GemmVariant, GemmShape>> jobs_;
    std::map<int, GemmRun> byVariant_;  // the last run of each variant at the current shape
    std::map<std::string, std::map<double, double>> bySize_;  // variant id -> size -> GFLOP/s
    std::map<int, std::string> refusals_;  // variant -> why it does not run this tuning/shape
    std::string skipNote_;                 // why the other variants were not timed, if so

    // Where the matrices go: between this frame's left and right panels (ImGui units).
    float insetLeft_ = 0, insetRight_ = 0;

    struct Panels {
        bool gemm = true, roofline = true, sizes = true, reduction = true;
    } panels_;
    PanelStacks stacks_;
    DemoJob job_;  // last: destroyed (cancelled, joined) before what its work uses
};

}  // namespace clviz
