// clviz-probe: the real app (runApp) with extra demos that trace what the main loop does to them,
// for the end-to-end tests of the Demo flow: --set before the first frame, --set-at before a
// given frame, minimized frames, demo switches, failures, --save after the last frame, the hooks
// around the swap (before-present, frame-end).
// Each call appends one line to the file named by $CLVIZ_PROBE_TRACE.
#include <glad/gl.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/demo_registry.hpp"
#include "app/run_app.hpp"
#include "common/error.hpp"
#include "compute/core/compute_context.hpp"

namespace {

using namespace clviz;

void trace(const std::string& line) {
    if (const char* path = std::getenv("CLVIZ_PROBE_TRACE")) {
        std::ofstream out(path, std::ios::app);
        out << line << "\n";
    }
}

class ProbeDemo : public Demo {
  public:
    explicit ProbeDemo(std::string name) : name_(std::move(name)) {}
    const char* name() const override { return name_.c_str(); }

    void init(const AppServices& app) override {
        app_ = app;
        if (!app.compute || !app.notify || !app.requestScreenshot)
            throw Error("AppServices is incomplete");
        trace(name_ + " init gl=" + std::to_string(app.glMajor) + "." +
              std::to_string(app.glMinor) + " device=" + app.compute->info().name);
    }
    void step(const FrameInfo& f) override {
        std::ostringstream line;
        line << name_ << " step " << f.index << " " << f.framebufferWidth << "x"
             << f.framebufferHeight << " dt_ok=" << (f.index == 0 ? f.dt == 0 : f.dt > 0);
        trace(line.str());
        if (f.index == failStepAt_) throw Error("probe step failure requested");
    }
    void draw(const FrameInfo& f) override {
        if (f.framebufferWidth <= 0 || f.framebufferHeight <= 0) trace(name_ + " draw-at-0x0!");
        glClearColor(color_[0], color_[1], color_[2], 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        trace(name_ + " draw " + std::to_string(f.index));
    }
    void beforePresent(const FrameInfo& f) override {
        trace(name_ + " before-present " + std::to_string(f.index));
    }
    void frameEnd(const FrameInfo& f) override {
        trace(name_ + " frame-end " + std::to_string(f.index));
    }
    void gui(const FrameInfo&) override {
        ImGui::Begin("Probe");
        ImGui::Text("probe demo %s", name_.c_str());
        if (throwInGui_) throw Error("probe gui failure requested");  // leaves Begin open
        ImGui::End();
    }
    void shutdown() override { trace(name_ + " shutdown"); }
    void set(const std::string& key, const std::string& value) override {
        trace(name_ + " set " + key + "=" + value);
        if (key == "color") {
            float r, g, b;
            if (std::sscanf(value.c_str(), "%f,%f,%f", &r, &g, &b) != 3)
                throw Error("color expects R,G,B in 0..1");
            color_[0] = r, color_[1] = g, color_[2] = b;
        } else if (key == "fail-step-at") {
            failStepAt_ = std::atoll(value.c_str());
        } else if (key == "fail-gui") {
            throwInGui_ = value == "on";
        } else if (key == "notify") {
            app_.notice(value);
        } else if (key == "save") {
            std::ofstream out(value);
            if (!out) throw Error("cannot write " + value);
            out << name_ << " saved\n";
        } else {
            throw Error("unknown setting '" + key + "'");
        }
    }

  private:
    std::string name_;
    AppServices app_;
    float color_[3] = {0.0f, 0.0f, 0.0f};
    long long failStepAt_ = -1;
    bool throwInGui_ = false;
};

class BrokenDemo : public ProbeDemo {
  public:
    BrokenDemo() : ProbeDemo("probe-broken") {}
    void init(const AppServices&) override { throw Error("probe init failure requested"); }
};

}  // namespace

int main(int argc, char** argv) {
    registerDemo("probe", "Probe", [] { return std::make_unique<ProbeDemo>("probe"); });
    registerDemo("probe2", "Probe 2", [] { return std::make_unique<ProbeDemo>("probe2"); });
    registerDemo("probe-broken", "Broken probe", [] { return std::make_unique<BrokenDemo>(); });
    return runApp(std::vector<std::string>(argv + 1, argv + argc));
}
