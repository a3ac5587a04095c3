#pragma once
// The N-body scene: NbodySimulation on the app's OpenCL context, its positions handed to GL every
// frame through the interop bridge, drawn as point sprites, steered from four ImGui panels
// (Simulation, Interop, Timings, Diagnostics; the panels live in app/nbody_*_panel.cpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/demo.hpp"
#include "app/demo_flag.hpp"
#include "app/gui/demo_job.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/nbody/engine.hpp"
#include "app/nbody/timings.hpp"
#include "common/background_job.hpp"
#include "common/settings_table.hpp"
#include "compute/interop/buffer_bridge.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/nbody/initial_conditions.hpp"
#include "compute/nbody/simulation.hpp"
#include "render/gl/timer.hpp"
#include "render/nbody/camera.hpp"
#include "render/nbody/particle_renderer.hpp"

namespace clviz {

struct NbodyMpiLink;

// With `mpi` (rank 0 of clviz --mpi --viewer) the bodies are split over the MPI ranks.
std::unique_ptr<Demo> makeNbodyDemo(const NbodyMpiLink* mpi = nullptr);
// --n N (checked against kMaxBodies on the command line) and --preset NAME.
std::vector<DemoFlag> nbodyDemoFlags();
// --mpi: the N-body system over the ranks of an MPI job (app/nbody/mpi_run.cpp).
std::vector<DemoMode> nbodyDemoModes();

class NbodyDemo final : public Demo {
  public:
    explicit NbodyDemo(const NbodyMpiLink* mpi = nullptr);
    ~NbodyDemo() override;

    const char* name() const override { return "nbody"; }
    void init(const AppServices& app) override;
    void step(const FrameInfo& frame) override;
    void draw(const FrameInfo& frame) override;
    void beforePresent(const FrameInfo& frame) override;
    void frameEnd(const FrameInfo& frame) override;
    void gui(const FrameInfo& frame) override;
    void shutdown() override;

    bool onKey(int key, int mods) override;
    void onPointer(const PointerEvent& event) override;
    void onDrop(const std::string& path) override;
    void set(const std::string& key, const std::string& value) override;
    void kernelsReloaded() override;
    void shadersReloaded() override;
    ReferenceResult checkReference() override;
    std::vector<std::pair<std::string, std::string>> keyHelp() const override;
    std::string titleStatus() const override;
    std::vector<ComputeContext*> extraDevices() const override;
    std::optional<DeviceSetSection> deviceSetSection() const override;
    std::vector<FileAction> fileActions() const override {
        return {{"Open snapshot...", "load", FileActionKind::Open},
                {"Save snapshot...", "save", FileActionKind::Save},
                {"Record frames to...", "record", FileActionKind::Directory}};
    }

    // Every key set() takes: its values, help and how it applies (app/nbody/settings.cpp).
    static const SettingTable<NbodyDemo>& settings();
    // "key=values, ...": every key of settings() on one line.
    static std::string settingsHelp();

    // Whether GL and CL take turns on the GPU this frame (the take-turns setting, where the
    // interop path orders them there: external memory with exported semaphores, one device).
    bool takesTurns() const { return drawsInTurn(); }
    // The interop path the positions reach GL by now.
    InteropPath interopPath() const {
        return positions_ ? positions_->path() : InteropPath::HostCopy;
    }

    // What the scene is, as the preset box shows it: the preset's name, or after a snapshot was
    // loaded its file name, format and N ("galaxy.clviz (clviz, N = 4096)").
    std::string sceneLabel() const;

    // The Diagnostics panel's mark under the tree's force error while that error was measured at
    // another theta than the current one ("(measured at theta 0.50: stale until the next
    // diagnostics)"); "" when it is current or was never measured.
    std::string forceErrorStaleNote() const;

    // Where the last gui() frame drew the Timings and Diagnostics panels (pixels; all 0 before
    // one was drawn): tests check that they do not overlap.
    struct PanelRect {
        float x = 0, y = 0, w = 0, h = 0;
    };
    PanelRect timingsRect() const { return timingsRect_; }

    // Compare variants (the Timings panel's button): every force variant at the current N, one
    // per frame (a progress line says which, k of n), then the scene and variant as they were.
    struct VariantRun {
        std::string variant;
        double stepMs = 0;                 // device time of one step
        double interactionsPerSecond = 0;  // as the variant counts them
        double gflops = 0;
        bool fp64 = false;
        std::string error;  // why it did not run ("" when it did)
    };
    // Throws clviz::Error when it cannot start (several devices, MPI ranks).
    void startComparison();

    // Builds and auto-tunes (the start, a new N or variant re-tuning auto, the Auto-tune button)
    // run off the frame where the app allows it (AppServices::workOffFrame): frames go on with a
    // clear scene and this progress line ("Auto-tuning tiled (variant 1 of 3) (5 of 25)"), and the
    // demo switches to the result when the work is done. "" while nothing runs.
    std::string progressLine() const;
    bool comparing() const { return compareNext_ < compareQueue_.size(); }
    const std::vector<VariantRun>& comparison() const { return comparison_; }
    // The last comparison as CSV or JSON ("csv", "json").
    std::string comparisonText(const std::string& format) const;

    // Whether diagnostics run every few frames (the setting; at any N: they never wait for the
    // device, NbodySystem::beginDiagnostics).
    bool diagnosticsRunning() const { return diagnosticsEvery_ > 0; }
    // Device time one frame's diagnostics slice may take: this share of the frame.
    static constexpr double kDiagnosticsSliceShare = 0.25;
    double diagnosticsSliceBudgetMs() const;
    // Frames the last diagnostics result took from begin to figures (1: the next frame).
    int diagnosticsFramesTaken() const { return diagnosticsFramesTaken_; }
    bool haveDiagnostics() const { return haveDiagnostics_; }
    bool haveForceErrorSample() const { return lastAccuracy_.samples > 0; }
    const NbodyDiagnostics& lastDiagnostics() const { return lastDiagnostics_; }
    PanelRect diagnosticsRect() const { return diagnosticsRect_; }

  private:
    // --- devices ---
    // Contexts for the devices_ set but the drawing device (which always takes part: it draws).
    void createMoreDevices();
    // The devices setting: restarts the system on `spec`, keeping the other settings; on
    // failure the previous set stays and the error says why.
    void setDevices(const std::string& spec);
    std::string devices_;  // --devices: the set the bodies are split over; "" for one device
    std::vector<std::unique_ptr<ComputeContext>> moreCompute_;

    // --- scene ---
    // Builds the preset's bodies for n_ and loads them; the camera frames them.
    void rebuild();
    void loadBodies(const std::vector<Body>& bodies, float viewRadius);
    // loadBodies() after system_->load(bodies): N, colour scales, camera, bridges, diagnostics.
    void showLoadedBodies(const std::vector<Body>& bodies, float viewRadius);
    void resetScene();

    // --- interop ---
    // (Re)creates the bridges for request_; a failing path falls back to host copy with a notice.
    void applyInterop();
    void fallBackToHostCopy(const std::string& why);
    void publish();
    // Enqueues `steps` steps, publishes their result, runs the diagnostics when due.
    void runSteps(int steps);
    // Whether GL and CL take turns on the GPU: the bridges order them there, one device.
    bool drawsInTurn() const;
    void collectStepTimings();
    void runDeferredSteps();  // the steps step() left for after the drawing, behind a GPU wait
    bool wantVelocities() const { return style_.colour == ParticleColour::Speed; }

    // --- panels (app/nbody_*_panel.cpp) ---
    // The Simulation panel, one section each; every change goes through set().
    void simulationPanel();
    void applyFromPanel(const std::string& key, const std::string& value);
    void sceneSection();
    void kernelSection();
    void integrationSection();
    void runControls();
    void drawingSection();
    void interopPanel();
    void timingsPanel();
    void diagnosticsPanel();
    void statusLine(const FrameInfo& frame);
    void demoMenu();

    void startDiagnostics();  // begins a measurement (none if one is in flight)
    void pollDiagnostics();   // once a frame: moves it on, takes the figures when they are in
    void applyDiagnostics(const NbodyDiagnostics& d);
    int diagnosticsInterval() const;
    void recordFrame(const FrameInfo& frame);
    std::string setupDescription();
    // --- settings (app/nbody/settings.cpp) ---
    void setInterop(const std::string& value);
    void assumeGlSharing(bool on);
    void assumeExternalMemory(bool on);
    void setRecordDir(const std::string& value);
    void saveState(const std::string& path);
    void loadState(const std::string& path);
    void autotune(double seconds);

    AppServices app_;
    const NbodyMpiLink* mpi_ = nullptr;  // rank 0 of clviz --mpi --viewer
    ComputeContext* cc_ = nullptr;
    std::unique_ptr<NbodySystem> system_;  // one device, several, or the MPI ranks
    NbodySimulation* sim_ = nullptr;       // the drawing device's: kernel choice, buffers

    // Scene: changing any of these rebuilds the state.
    NbodyPreset preset_ = NbodyPreset::CollidingGalaxies;
    std::size_t n_ = 0;  // 0 until init picks a default for the device
    std::uint64_t seed_ = 1;
    float viewRadius_ = 1;
    std::string loadedScene_;  // sceneLabel() after a snapshot load; empty for a preset
    PanelRect timingsRect_, diagnosticsRect_;
    void compareNextVariant();

    // --- work off the frame (app/nbody/work.cpp) ---
    // One job at a time. Its work touches only the system (never GL, never a member the frame
    // reads); `done` applies the result on the frame's thread. Without the app's leave (or under
    // MPI, whose calls stay on the main thread) the work runs at once, inside the caller.
    DemoJob job_;
    bool workOffFrame() const;
    // `failureStopsDemo` false: a failure is an error notice (the Auto-tune button's).
    void startJob(const std::string& title, BackgroundJob::Work work, std::function<void()> done,
                  bool failureStopsDemo = true);
    // Applies a finished job; with `wait`, waits for it first. False while it runs. Rethrows its
    // failure (or notifies, for a job whose failure does not stop the demo).
    bool finishJob(bool wait);
    // Builds (and, under auto, tunes) the force kernel the next step needs, when it needs one.
    bool systemReady() const;
    void prepareSystem();
    void progressNotice(const FrameInfo& frame);
    void comparePanel();
    std::vector<NbodyVariant> compareQueue_;
    std::size_t compareNext_ = 0;
    std::vector<VariantRun> comparison_;
    NbodyKernelConfig compareSaved_;
    std::vector<Body> compareBodies_;
    PanelStacks stacks_;  // default panel places, until the user moves them

    // Running.
    bool paused_ = false;
    int stepsPerFrame_ = 1;
    int pendingSteps_ = 0;           // single steps asked for while paused
    bool stepsInFlight_ = false;     // sim_->lastStepTimings() has a call to report
    bool stepTimingsFresh_ = false;  // lastStep_ was read and not yet sampled
    int deferredSteps_ = 0;          // steps for frameEnd() (drawsInTurn())
    bool takeTurns_ = true;          // the take-turns setting
    bool turnAtDrawn_ = true;        // take-turns-at=drawn: steps before the swap, not after
    int stepsInFlightCount_ = 0;
    bool needsPublish_ = true;  // state changed without a step (load, path switch, colour)

    // Interop.
    InteropRequest request_ = InteropRequest::Auto;
    InteropCaps caps_;
    InteropChoice choice_;
    std::string fallback_;  // why the chosen path was abandoned at run time, or ""
    std::unique_ptr<BufferBridge> positions_, velocities_;
    int latency_ = 1;

    // Drawing.
    std::unique_ptr<ParticleRenderer> renderer_;
    std::unique_ptr<GlTimer> renderTimer_;
    OrbitCamera camera_;
    int viewportHeight_ = 0;  // pixels, as last drawn: panning moves the scene with the cursor
    ParticleStyle style_;
    float brightness_ = 1.0f;  // user factor on top of the automatic per-N intensity
    float sizeFactor_ = 1.0f;  // user factor on top of the automatic per-scene sprite size
    float speedScale_ = 1.0f;  // speed at the top of the colour map, from the loaded bodies
    float massScale_ = 1.0f;

    // Timings and diagnostics.
    NbodyTimingLog timings_;
    NbodyStepTimings lastStep_;
    std::optional<NbodyMultiTimings> lastSplit_;  // --devices: each device's share of the step
    NbodyTreeIntegration treeIntegration_ = NbodyTreeIntegration::Auto;  // kept over a restart
    bool treeSplitBuild_ = false;                                        // kept over a restart
    void splitTimingsTable(const NbodyMultiTimings& t);
    BridgeTiming lastCopy_;
    double lastRenderMs_ = -1;
    int diagnosticsEvery_ = 30;  // frames with steps between diagnostics; 0 = off
    int framesSinceDiagnostics_ = 0;
    int diagnosticsFramesSoFar_ = 0;  // frames the measurement in flight has taken
    int diagnosticsFramesTaken_ = 0;
    NbodyDiagnostics lastDiagnostics_;
    bool haveDiagnostics_ = false;
    bool nonFiniteReported_ = false;
    RollingSeries energyDrift_, momentum_;
    // Force error against a device direct sum (tree variant), sampled with the diagnostics at
    // most every kAccuracyEverySeconds.
    TreeAccuracy lastAccuracy_;
    double lastAccuracyAt_ = -1e9;   // seconds, steady clock
    bool accuracyInFlight_ = false;  // begun, figures not yet read
    float accuracyInFlightTheta_ = -1;
    float lastAccuracyTheta_ = -1;  // the theta lastAccuracy_ was measured at

    // Recording (--record DIR): scene-only PNGs, numbered on from the highest already in DIR.
    std::string recordDir_;
    long long recordIndex_ = 0;

    // Panels.
    bool openInterop_ = false;  // expand the Interop panel on the next frame
    bool showSimulation_ = true, showInterop_ = true, showTimings_ = true, showDiagnostics_ = false,
         showStatus_ = true;
    std::string autotuneLog_;
    std::string loadPath_;
};

}  // namespace clviz
