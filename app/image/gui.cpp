// ImageDemo's GUI: the Demo menu entries, the four panels in their stacks, the labels over the
// images and the pixel readout, and where this frame's panels leave room for the images.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "app/gui/layout.hpp"
#include "app/image/demo.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/image/pipeline.hpp"
#include "compute/interop/texture_share.hpp"

namespace clviz {

namespace {

// The lab's panels, which the images make room for (the overlay and notices float over them).
bool isLabPanel(const std::string& name) {
    return name == "Image" || name == "Filters" || name == "Histogram" || name == "Timings";
}

// Framebuffer pixels per ImGui unit: the images are laid out in pixels, the GUI in units.
std::pair<float, float> framebufferScale() {
    const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
    return {s.x > 0 ? s.x : 1.0f, s.y > 0 ? s.y : 1.0f};
}

}  // namespace

void ImageDemo::measurePanelInsets(long long frameIndex) {
    const auto [sx, sy] = framebufferScale();
    const float displayW = ImGui::GetIO().DisplaySize.x;
    const float edge = 40.0f;  // a panel this close to an edge counts as docked there
    float left = 0, right = 0;
    for (const GuiWindowRect& w : drawnGuiWindows()) {  // this frame's, placed by gui()
        if (w.collapsed || !isLabPanel(w.name)) continue;
        const float x0 = w.x, x1 = w.x + w.width;
        if (x0 <= edge && x1 < 0.6f * displayW) left = std::max(left, x1 + 4.0f);
        if (x1 >= displayW - edge && x0 > 0.4f * displayW)
            right = std::max(right, displayW - x0 + 4.0f);
    }
    insetLeft_ = left * sx;
    insetRight_ = right * sx;
    insetTop_ = ImGui::GetMainViewport()->WorkPos.y * sy;
    insetsFrame_ = frameIndex;
}

void ImageDemo::drawLabels() {
    if (!sourceTexture_ || framebufferWidth_ <= 0) return;
    // The draw lists work in window coordinates; the layout in framebuffer pixels.
    const auto [sx, sy] = framebufferScale();
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    // Top-left of each pane: clear of the app's overlay in the window's top-right corner.
    auto label = [&](const ImagePane& pane, const std::string& text) {
        if (pane.clip.width() < 60.0f) return;
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        const float top = std::max(pane.clip.y0, pane.image.y0) / sy + 6.0f;
        const float x = std::max(pane.clip.x0, pane.image.x0) / sx + 10.0f;
        dl->AddRectFilled(ImVec2(x - 6, top - 3), ImVec2(x + size.x + 6, top + size.y + 3),
                          IM_COL32(0, 0, 0, 160), 4.0f);
        dl->AddText(ImVec2(x, top), IM_COL32(235, 235, 235, 255), text.c_str());
    };
    const ImageSize src = sourceSize();
    label(layout_.source, "source " + std::to_string(src.width) + "x" + std::to_string(src.height));
    if (hasResult_) {
        const ImageSize res = resultSize();
        label(layout_.result,
              "result " + std::to_string(res.width) + "x" + std::to_string(res.height));
    }
}

void ImageDemo::drawPixelReadout() {
    // The cursor off the window or over a panel shows nothing.
    if (!sourceTexture_ || !cursor_ || !ImGui::IsMousePosValid() ||
        ImGui::GetIO().WantCaptureMouse || drag_ != Drag::None)
        return;
    const float x = cursor_->first, y = cursor_->second;
    int px = 0, py = 0;
    char text[160];
    auto rgba = [](const std::uint8_t* p, const char* what, int px, int py, char* out,
                   std::size_t n) {
        std::snprintf(out, n, "%s (%d, %d)\nR %3d  G %3d  B %3d  A %3d", what, px, py, p[0], p[1],
                      p[2], p[3]);
    };
    if (imagePixelAt(layout_.source, layout_.scale, x, y, px, py) && px < source_.width &&
        py < source_.height) {
        rgba(source_.at(px, py), "source", px, py, text, sizeof text);
    } else if (hasResult_ && imagePixelAt(layout_.result, layout_.scale, x, y, px, py)) {
        // One pixel from the device: 4 bytes, only while hovering.
        const ImageSize size = pipeline_->resultSize();
        if (px >= size.width || py >= size.height) return;
        std::array<std::uint8_t, 4> p{};
        try {
            p = pipeline_->resultPixel(px, py);
        } catch (const Error&) {
            return;
        }
        rgba(p.data(), "result", px, py, text, sizeof text);
    } else {
        return;
    }
    if (controls_.view.magnification == Magnification::Nearest || layout_.scale >= 4.0f)
        ImGui::SetTooltip("%s", text);
}

// "1024 x 768, chain 12.1 ms": the picture and what its filter chain costs, for the title.
std::string ImageDemo::titleStatus() const {
    const ImageSize s = sourceSize();
    if (s.width <= 0) return "";
    char buf[96];
    const TimingFacts t = timingFacts();
    if (hasResult_ && t.chainMs > 0)
        std::snprintf(buf, sizeof buf, "%d x %d, chain %.1f ms", s.width, s.height, t.chainMs);
    else
        std::snprintf(buf, sizeof buf, "%d x %d", s.width, s.height);
    return buf;
}

void ImageDemo::gui(const FrameInfo& frame) {
    demoMenu();
    if (job_.running()) {  // the panels read the pipeline, which the start is making
        drawJobProgress(frame, "##image-progress", progressLine(),
                        "the lab comes up when this is done; a first build takes longest");
        return;
    }
    // Image and Filters down the left edge, Histogram and Timings down the right one (below the
    // overlay); on short windows those two start collapsed (the status line shows the timings).
    stacks_.beginFrame();
    // Sizes follow the GUI scale (a fixed 360 px cut the buttons to "Ope" at 300%).
    const float s = ImGui::GetFontSize() / 15.0f;
    if (panels_.image) {
        stacks_.place("Image", PanelSide::Left, 360 * s);
        imagePanel();
    }
    if (panels_.filters && pipeline_) {
        stacks_.place("Filters", PanelSide::Left, 360 * s);
        if (drawFiltersPanel(&panels_.filters, controls_, *pipeline_, runError_)) dirty_ = true;
    }
    if (panels_.histogram) {
        stacks_.place("Histogram", PanelSide::Right, 360 * s, 600 * s);
        histogramPanel();
    }
    const TimingFacts timing = timingFacts();
    if (panels_.timings) {
        stacks_.place("Timings", PanelSide::Right, 360 * s, 850 * s);
        const bool continuousBefore = controls_.continuous;
        drawTimingsPanel(&panels_.timings, timing, &controls_.continuous);
        if (controls_.continuous != continuousBefore) dirty_ = true;
    }
    if (panels_.overlay && hasResult_) drawTimingOverlay(timing);

    // The images go between this frame's panels; the labels and the readout follow them.
    measurePanelInsets(frame.index);
    updateLayout(frame.framebufferWidth, frame.framebufferHeight, true);
    drawLabels();
    drawPixelReadout();
}

void ImageDemo::demoMenu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Demo")) {
        ImGui::Separator();
        ImGui::MenuItem("Image panel", nullptr, &panels_.image);
        ImGui::MenuItem("Filters panel", nullptr, &panels_.filters);
        ImGui::MenuItem("Histogram panel", nullptr, &panels_.histogram);
        ImGui::MenuItem("Timings panel", nullptr, &panels_.timings);
        ImGui::MenuItem("Timing overlay", nullptr, &panels_.overlay);
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void ImageDemo::imagePanel() {
    ImagePanelFacts facts;
    facts.imageLabel = imageLabel_;
    facts.imageNote = imageNote_;
    facts.source = sourceSize();
    facts.result = hasResult_ ? resultSize() : ImageSize{};
    facts.interop = interop_;
    // The chooser words its reason for buffers; say how textures travel instead.
    if (auto cut = facts.interop.reason.find("; using "); cut != std::string::npos)
        facts.interop.reason.resize(cut);
    if (sourceTexture_) {
        facts.interop.path = sourceTexture_->path();
        facts.interop.reason += textureRoute(*sourceTexture_);
        facts.textureFallback = sourceTexture_->fallbackReason();
    }
    if (resultTexture_ && facts.textureFallback.empty())
        facts.textureFallback = resultTexture_->fallbackReason();
    facts.caps = describeInteropCaps(caps_);
    facts.actualSizeZoom = actualSizeZoom(layout_);
    facts.glMaxTextureSize = glMaxTextureSize_;
    ImagePanelRequests req;
    drawImagePanel(&panels_.image, controls_, facts, pathField_, saveField_, req);
    if (req.load) startLoad(*req.load);
    loadingStatus();
    if (req.save) app_.attempt([&] { save(*req.save); });
    if (req.interopChanged) app_.attempt([&] { recreateTextures(); });
}

// While a live open decodes on its worker: what, how long so far, and a Cancel button, appended
// to the Image panel (ImGui adds to a window begun again under its name).
void ImageDemo::loadingStatus() {
    if (!loading_ || !panels_.image) return;
    if (ImGui::Begin("Image", &panels_.image)) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - loading_->started)
                .count();
        ImGui::Separator();
        if (loading_->cancel->load()) {
            ImGui::Text("Cancelling the load of %s ...", quotedPath(loading_->path).c_str());
        } else {
            ImGui::Text("Loading %s (%.1f s) ...", quotedPath(loading_->path).c_str(), seconds);
            ImGui::SameLine();
            if (ImGui::Button("Cancel")) cancelLoad(false);
        }
    }
    ImGui::End();
}

std::string ImageDemo::textureRoute(const SharedTexture& texture) {
    switch (texture.path()) {
        case InteropPath::GlSharing:
            return "; textures: clCreateFromGLTexture, acquire + device copy + release";
        case InteropPath::ExternalMemory:
            return "; textures: CL device copy into Vulkan memory, glTexSubImage2D from it on the "
                   "GPU; sync by " +
                   texture.syncDescription();
        case InteropPath::HostCopy:
            break;
    }
    return "; textures: clEnqueueMapBuffer + glTexSubImage2D";
}

void ImageDemo::histogramPanel() {
    double histogramMs = 0;
    if (pipeline_)
        for (const StepTiming& t : pipeline_->timings())
            if (t.label.rfind("histogram", 0) == 0) histogramMs = t.ms;
    if (drawHistogramPanel(&panels_.histogram, controls_,
                           pipeline_ ? pipeline_->histogram() : std::nullopt, histogramMs))
        dirty_ = true;
}

TimingFacts ImageDemo::timingFacts() const {
    TimingFacts timing;
    if (pipeline_) {
        timing.steps = &pipeline_->timings();
        timing.chainMs = pipeline_->totalMs();
    }
    timing.transfer = transfer_;
    timing.path = resultTexture_ ? resultTexture_->path() : interopPath();
    timing.result = hasResult_ ? resultSize() : ImageSize{};
    timing.continuous = controls_.continuous;
    timing.history = &history_;
    return timing;
}

}  // namespace clviz
