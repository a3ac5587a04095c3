#pragma once
// The image lab as a Demo: loads a picture (--image, the file field, drag and drop, or the
// shipped default), runs the ordered filter chain on it with OpenCL every frame, shows source and
// result as GL textures (shared with CL where the device allows, else copied through the host),
// and plots histograms and per-filter timings.
#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app/demo.hpp"
#include "app/gui/demo_job.hpp"
#include "app/gui/panel_stacks.hpp"
#include "app/image/panels.hpp"
#include "app/image/run_summary.hpp"
#include "app/image/settings.hpp"
#include "compute/image/io/image_io.hpp"
#include "compute/interop/interop_path.hpp"
#include "compute/interop/texture_share.hpp"
#include "render/image/layout.hpp"

namespace clviz {

class ImagePipeline;
class ImageView;

std::unique_ptr<Demo> makeImageDemo();

class ImageDemo final : public Demo {
  public:
    ImageDemo();
    ~ImageDemo() override;

    const char* name() const override { return "image lab"; }
    void init(const AppServices& app) override;
    void step(const FrameInfo& frame) override;
    void draw(const FrameInfo& frame) override;
    void gui(const FrameInfo& frame) override;
    void shutdown() override;

    bool onKey(int key, int mods) override;
    void onPointer(const PointerEvent& event) override;
    void onDrop(const std::string& path) override;

    // Keys: image, save, and those of applyImageSetting (app/image/settings.hpp).
    void set(const std::string& key, const std::string& value) override;
    void kernelsReloaded() override;
    void shadersReloaded() override;
    ReferenceResult checkReference() override;
    std::vector<std::pair<std::string, std::string>> keyHelp() const override;
    std::string titleStatus() const override;
    std::vector<FileAction> fileActions() const override {
        return {{"Open image...", "image", FileActionKind::Open},
                {"Save result...", "save", FileActionKind::Save}};
    }

    // --- for tests and the panels ---------------------------------------------------------
    const ImageLabControls& controls() const { return controls_; }
    ImageSize sourceSize() const;
    ImageSize resultSize() const;
    const std::string& imageLabel() const { return imageLabel_; }
    InteropPath interopPath() const;
    // Off the frame (AppServices::workOffFrame), init starts the lab as a job: the default image
    // decoded and the filter chain's kernels built by a first run, while frames show this line
    // ("Starting the image lab: building kernels: the filter chain (2 of 2)"); "" once done.
    std::string progressLine() const { return job_.progressLine(); }

  private:
    // Loading: every failure leaves the current image in place and throws clviz::Error.
    // loadFile decodes on the calling thread (--image, --set image=, --set-at: their error is the
    // command's result); startLoad is the live open (file field, drag and drop): it decodes on a
    // worker thread, so a slow file never freezes the window, and the image panel shows it with
    // a Cancel button. pollLoad shows the picture (or says why not) once the worker is done.
    void loadFile(const std::string& path);
    ImageLoadLimits loadLimits() const;
    void startLoad(const std::string& path);
    void pollLoad();
    void cancelLoad(bool wait);
    void loadingStatus();
    void showImage(Rgba8Image image, const std::string& label, const std::string& note);
    void loadDefault();
    // The default image (or the generated pattern, with the note why) decoded: what loadDefault
    // shows; showDefault shows it, falling back to the pattern when it cannot.
    struct DefaultImage {
        Rgba8Image image;
        std::string label, note;
    };
    static DefaultImage decodeDefaultImage(const ImageLoadLimits& limits);
    void showDefault(DefaultImage d);
    // Off the frame: loadDefault() and the chain's first run as a job.
    void startOffFrame();
    void save(const std::string& path);  // throws clviz::Error

    // Interop: (re)creates the source texture for the current request and drops the result one.
    void chooseInterop();
    void recreateTextures();
    void reportFallback(const SharedTexture& texture);

    void runChain();
    void setRunError(const std::string& message);
    void updateLayout(int framebufferWidth, int framebufferHeight, bool useInsets);

    // --- GUI (app/image/gui.cpp) ---
    void demoMenu();
    void imagePanel();
    void histogramPanel();
    // How textures travel on the texture's interop path, for the image panel.
    static std::string textureRoute(const SharedTexture& texture);
    TimingFacts timingFacts() const;
    void drawLabels();
    // Tooltip with the RGBA values under the cursor (zoomed in, or with nearest magnification).
    void drawPixelReadout();
    // Measures this frame's panels docked at the left and right edges, so the images go between
    // them.
    void measurePanelInsets(long long frameIndex);

    AppServices app_;
    ComputeContext* cc_ = nullptr;
    std::unique_ptr<ImagePipeline> pipeline_;
    std::unique_ptr<ImageView> view_;
    std::unique_ptr<SharedTexture> sourceTexture_;
    std::unique_ptr<SharedTexture> resultTexture_;
    int glMaxTextureSize_ = 0;

    ImageLabControls controls_;
    InteropCaps caps_;
    InteropChoice interop_;

    Rgba8Image source_;       // host copy: re-uploaded when the interop path changes
    std::string imageLabel_;  // file path or "generated pattern"
    std::string imageNote_;   // why the default image is not shown, if so
    bool pendingDefault_ = false;

    struct BackgroundLoad {
        std::string path;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::future<Rgba8Image> result;
        std::chrono::steady_clock::time_point started;
    };
    std::optional<BackgroundLoad> loading_;

    bool dirty_ = true;  // the chain must run even if not continuous
    bool hasResult_ = false;
    std::string runError_;  // why the chain does not run, shown until it runs again
    TextureTransferTiming transfer_;

    ImageLayout layout_;
    float insetLeft_ = 0, insetRight_ = 0, insetTop_ = 0;  // framebuffer pixels
    long long insetsFrame_ = -1;                           // frame whose GUI measured them
    int framebufferWidth_ = 0, framebufferHeight_ = 0;
    enum class Drag { None, Pan, Divider } drag_ = Drag::None;
    std::optional<std::pair<float, float>> cursor_;  // framebuffer pixels, once it moved

    TimingHistory history_;
    ImageRunSummary summary_;  // printed at exit

    // Panel text fields and visibility.
    PathField pathField_{};
    PathField saveField_{};
    struct Panels {
        bool image = true, filters = true, histogram = true, timings = true, overlay = true;
    } panels_;
    PanelStacks stacks_;  // default panel places, until the user moves them
    DemoJob job_;         // last: destroyed (cancelled, joined) before what its work uses
};

}  // namespace clviz
