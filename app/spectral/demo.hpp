#pragma once
// The spectral lab as a Demo: loads an ENVI cube (--cube, the file field, drag and drop, or a
// generated 145 x 145 x 200 scene), runs MNF on the device (compute/spectral/mnf.hpp) and shows
// the cube as one band or three, or three MNF components, beside the same bands denoised with k
// components (GL textures through the interop path), the eigenvalue plot, the spectrum under the
// cursor before and after denoising, and each step's time. The noise estimate, m, k and the
// rectangle the noise comes from (Shift+drag on the left image) change live; only the steps that
// depend on a change run again. With the app's leave to work off the frame (app.off-frame) those
// steps, and a new cube's load and first MNF, run as the lab's background job (work.cpp) while the
// frames keep showing the previous result.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/demo.hpp"
#include "app/gui/demo_job.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/spectral/settings.hpp"
#include "compute/core/cl.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/spectral/cube.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/io/envi_header.hpp"
#include "compute/spectral/mnf.hpp"

namespace clviz {

class SharedTexture;
class SpectralMnf;
class SpectralPicture;

std::unique_ptr<Demo> makeSpectralDemo();

class SpectralDemo final : public Demo {
  public:
    SpectralDemo();
    ~SpectralDemo() override;

    const char* name() const override { return "spectral lab"; }
    void init(const AppServices& app) override;
    void step(const FrameInfo& frame) override;
    void draw(const FrameInfo& frame) override;
    void gui(const FrameInfo& frame) override;
    void shutdown() override;
    void onDrop(const std::string& path) override;
    // Keys: cube, save, and those of applySpectralSetting (app/spectral/settings.hpp).
    void set(const std::string& key, const std::string& value) override;
    void kernelsReloaded() override;
    // MNF of a crop (at most 64 x 64 pixels, every band) on the device against the double
    // reference: eigenvalues with SNR > 10 within 1e-4 relative.
    ReferenceResult checkReference() override;
    std::vector<std::pair<std::string, std::string>> keyHelp() const override;

    // --- for tests and the panels ---
    const SpectralControls& controls() const { return controls_; }
    const CubeShape& cubeShape() const { return cube_.shape; }
    const std::string& runError() const { return runError_; }
    // Off the frame (AppServices::workOffFrame), init starts the lab as a job: the generated
    // cube, the kernel builds and the first MNF, while frames show this line ("Starting the
    // spectral lab: computing the MNF statistics (3 of 6)"); "" once it is done or without one.
    // Later a change of the noise estimate, rectangle, m, k or the bands shown runs its steps as
    // a job ("Recomputing the MNF: ... (k of n)"), and so does a new cube ("Loading ...").
    std::string progressLine() const { return job_.progressLine(); }
    // The settings the shown result was computed with (what the pictures and plots show while a
    // recompute runs); m is 0 before the first result.
    struct Shown {
        MnfStatisticsResult result;
        MnfTimings timings;
        NoiseEstimate noise = NoiseEstimate::Diff;
        CubeRect noiseRect;
        int m = 0, k = 0;
        std::vector<int> bands;  // rows of the denoised buffer
    };
    const Shown& shown() const { return shown_; }
    // Each change of the noise estimate or rectangle whose result was shown: from the change to
    // the frame that took the result (a later change before that counts from the first), and
    // that result's MNF (run() wall + the transform's device time), ms. Printed at shutdown.
    struct ChangeShown {
        double afterChangeMs = 0;
        double mnfMs = 0;
    };
    const std::vector<ChangeShown>& changesShown() const { return changesShown_; }

  private:
    // Each throws clviz::Error, leaving the cube in use, when it cannot.
    void loadFile(const std::string& path);
    void useCube(Cube cube, EnviHeader meta, const std::string& label);
    void loadDefault();
    // Off the frame (work.cpp): loadDefault() and the first compute() as a job; a file's load
    // and first MNF the same way; the steps a change made stale (compute() runs them inside the
    // frame without the app's leave).
    void startOffFrame();
    // A cube asked for (--set cube, Open, a drop): inside the call without the app's leave or
    // during the start, else a job (after the one that runs: the latest asked for wins).
    void openCube(const std::string& path);
    void startLoad(const std::string& path);
    enum class JobKind { Start, Load, Recompute };
    // The start's and a file's job: `source` makes the cube on the worker.
    void startCubeJob(JobKind kind, const std::string& label, std::function<EnviCube()> source);

    // The steps a change made stale and the settings they run with, taken when they start.
    struct Steps {
        bool stats = false, transform = false, denoise = false;
        NoiseEstimate noise = NoiseEstimate::Diff;
        CubeRect noiseRect;
        int vectors = 0, m = 0, k = 0;
        std::vector<int> bands;
    };
    // Runs `steps` on `mnf` (any thread, reporting to `progress` when given); throws clviz::Error.
    static void runSteps(SpectralMnf& mnf, const Steps& steps, JobProgress* progress);
    bool needsCompute() const;
    Steps takeStaleSteps();  // and clears the flags: a change while they run sets them again
    void startRecompute();
    // On the frame's thread once `steps` ran on mnf_: shown_ and the denoise matrix.
    void adoptSteps(const Steps& steps);
    void stepsFailed(const std::string& why);
    // useCube() after the cube was uploaded to mnf_: textures, stretch, controls, stale steps.
    void adoptCube(Cube cube, EnviHeader meta, const std::string& label);
    void checkTextureSize(const CubeShape& shape, const std::string& label) const;
    void save(const std::string& path);

    // The steps a change made stale, in order; false (runError_ says why) when MNF failed.
    bool compute();
    void renderPictures();
    int clampBand(int b) const;
    int componentsM() const;  // controls' m clamped to the bands
    int keepK() const;
    std::vector<int> shownBands() const;  // rows the denoised picture needs
    std::string bandLabel(int band) const;

    // GUI (app/spectral/gui.cpp).
    void demoMenu();
    void labPanel();
    void imagesWindow();
    void eigenvaluePanel();
    void spectrumPanel();
    void timingsPanel();

    AppServices app_;
    ComputeContext* cc_ = nullptr;
    std::unique_ptr<SpectralMnf> mnf_;
    std::unique_ptr<SpectralPicture> picture_;
    std::unique_ptr<SharedTexture> original_, denoised_;
    cl::Buffer rgba_;  // staging for the pictures
    InteropCaps caps_;
    InteropChoice interop_;
    int glMaxTextureSize_ = 0;

    Cube cube_;        // host copy: spectra under the cursor
    EnviHeader meta_;  // wavelengths, band names
    std::string label_;
    std::vector<double> bandMean_, bandSd_;  // per band: the pictures' stretch
    bool pendingDefault_ = true;

    SpectralControls controls_;
    bool statsStale_ = true, transformStale_ = true, denoiseStale_ = true, picturesStale_ = true;
    std::string runError_;
    Shown shown_;
    std::optional<std::chrono::steady_clock::time_point> statsChangedAt_;  // not yet shown
    std::vector<ChangeShown> changesShown_;
    std::vector<double> denoiseMatrix_;  // D_k for the spectrum plot (host)
    double pictureMs_ = 0, transferMs_ = 0;

    std::optional<std::array<int, 2>> cursorPixel_;  // (sample, line) under the mouse
    std::optional<std::array<int, 2>> dragStart_;    // Shift+drag: the noise rectangle
    std::optional<std::array<int, 2>> dragEnd_;

    std::array<char, 512> loadField_{};
    std::array<char, 512> saveField_{};
    struct Panels {
        bool lab = true, images = true, eigen = true, spectrum = true, timings = true;
    } panels_;
    PanelStacks stacks_;
    JobKind jobKind_ = JobKind::Start;
    std::string pendingCube_;  // asked for while a job ran: loaded after it (the latest wins)
    DemoJob job_;              // last: destroyed (cancelled, joined) before what its work uses
};

}  // namespace clviz
