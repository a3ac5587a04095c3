#pragma once
// The viewer's command line, parsed into plain options. Pure: no window, no OpenCL, so every case
// (including the bad ones) is unit-tested.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/flag_table.hpp"  // UsageError
#include "common/parse.hpp"       // parseOnOff, which app.* settings share
#include "compute/core/device_select.hpp"

namespace clviz {

// One `key=value` for Demo::set (or for the app itself when the key starts with "app.").
struct Setting {
    std::string key;
    std::string value;
    bool operator==(const Setting&) const = default;
};

// A setting applied just before frame `frame` (0 = the first frame): the live-switch test hook.
struct TimedSetting {
    long long frame = 0;
    Setting setting;
    bool operator==(const TimedSetting&) const = default;
};

struct AppOptions {
    enum class Mode { Run, Help, HelpSettings, Version, ListDevices, Benchmark, DemoMode };
    Mode mode = Mode::Run;

    DeviceRequest device;             // -p, -d, --device-type
    std::string demo;                 // --demo; empty: the first registered demo
    std::optional<long long> frames;  // --frames: run this many frames, then exit 0
    std::optional<double> seconds;    // --seconds: run this long, then exit 0
    std::string screenshotPath;       // --screenshot: PNG written after the last frame
    std::string layoutPath;           // --layout: GUI window rectangles after the last frame
    std::string frameTracePath;       // --frame-trace: every frame's wall time (CSV) at the end
    std::string savePath;             // --save: set("save", path) after the last frame
    bool vsync = true;                // --vsync on|off
    bool fullscreen = false;          // --fullscreen
    int width = 1280;                 // --width, --height: window size in screen units
    int height = 720;
    std::vector<Setting> settings;           // --set and the sugar flags, in command-line order
    std::vector<TimedSetting> timed;         // --set-at, sorted by frame (stable)
    std::vector<std::string> benchmarkArgs;  // everything after --benchmark
    std::string kernelDir;                   // --kernel-dir: read and watch kernels here
    std::string shaderDir;                   // --shader-dir: read and watch shaders here
    bool verbose = false;                    // --verbose: where each OpenCL program came from
    bool helpSettingsMarkdown = false;       // --help-settings=markdown: the README's tables
    std::string demoMode;                    // Mode::DemoMode: its switch ("--mpi")
    // A demo's flags for its run mode (DemoFlag::Goes::Option): key -> value ("on": a switch).
    std::map<std::string, std::string> demoOptions;
};

// Parses argv without the program name. Throws UsageError on any bad input.
AppOptions parseCli(const std::vector<std::string>& args);

// The --help text, every flag with its default.
std::string cliUsage();

// Limits the parser enforces (also quoted by --help).
inline constexpr int kMinWindowSize = 64;
inline constexpr int kMaxWindowSize = 16384;

}  // namespace clviz
