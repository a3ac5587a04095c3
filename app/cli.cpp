#include "app/cli.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "app/app_settings.hpp"
#include "app/gui/keys.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"
#include "compute/nbody/body.hpp"

namespace clviz {

namespace {

constexpr long long kMaxFrames = 1'000'000'000;

long long parseIntegerFlag(const std::string& flag, const std::string& text, long long min,
                           long long max) {
    const auto value = parseInteger(text);
    if (!value) throw UsageError(flag + " expects a whole number, got " + quotedPath(text));
    if (*value < min || *value > max)
        throw UsageError(flag + " must be between " + std::to_string(min) + " and " +
                         std::to_string(max) + ", got " + text);
    return *value;
}

bool parseOnOffFlag(const std::string& flag, const std::string& text) {
    if (auto v = parseOnOff(text)) return *v;
    throw UsageError(flag + " expects on or off, got " + quotedPath(text));
}

double parseSecondsFlag(const std::string& text) {
    const auto v = parseNumber(text);
    if (!v || !(*v > 0) || *v > 1e6)
        throw UsageError("--seconds expects a duration in seconds (0 < S <= 1e6), got '" + text +
                         "'");
    return *v;
}

Setting parseSetting(const std::string& flag, const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageError(flag + " expects key=value, got " + quotedPath(text));
    return {text.substr(0, eq), text.substr(eq + 1)};
}

TimedSetting parseTimedSetting(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw UsageError("--set-at expects FRAME:key=value, got " + quotedPath(text));
    TimedSetting t;
    t.frame = parseIntegerFlag("--set-at FRAME", text.substr(0, colon), 0, kMaxFrames - 1);
    t.setting = parseSetting("--set-at", text.substr(colon + 1));
    return t;
}

bool endsWithPng(const std::string& path) {
    return path.size() > 4 && toLower(path.substr(path.size() - 4)) == ".png";
}

// Flags that take a value; the rest are switches.
const std::vector<std::string> kValueFlags = {
    "-p",           "--platform", "-d",           "--device",  "--device-type", "--demo",
    "--frames",     "--seconds",  "--screenshot", "--layout",  "--vsync",       "--width",
    "--height",     "--set",      "--set-at",     "--interop", "--image",       "--save",
    "--cube",       "--n",        "--preset",     "--variant", "--record",      "--kernel-dir",
    "--shader-dir", "--devices",  "--mpi-timeout"};

bool takesValue(const std::string& flag) {
    return std::find(kValueFlags.begin(), kValueFlags.end(), flag) != kValueFlags.end();
}

// A flag without a value: a mode or an on-switch. Only --help-settings takes an optional
// `=FORMAT`.
void applySwitch(AppOptions& o, const std::string& flag,
                 const std::optional<std::string>& inlineValue) {
    if (flag == "--help-settings") {
        o.mode = AppOptions::Mode::HelpSettings;
        if (inlineValue && *inlineValue != "text" && *inlineValue != "markdown")
            throw UsageError("--help-settings takes text or markdown, got " +
                             quotedPath(*inlineValue));
        o.helpSettingsMarkdown = inlineValue == "markdown";
        return;
    }
    if (inlineValue) throw UsageError(flag + " takes no value");
    if (flag == "-h" || flag == "--help") {
        o.mode = AppOptions::Mode::Help;
    } else if (flag == "--version") {
        o.mode = AppOptions::Mode::Version;
    } else if (flag == "--list-devices") {
        o.mode = AppOptions::Mode::ListDevices;
    } else if (flag == "--mpi") {
        o.mode = AppOptions::Mode::Mpi;
    } else if (flag == "--viewer") {
        o.mpiViewer = true;
    } else if (flag == "--fullscreen") {
        o.fullscreen = true;
    } else if (flag == "--verbose") {
        o.verbose = true;
    } else if (flag.empty() || flag[0] != '-') {
        throw UsageError("unexpected argument " + quotedPath(flag) + " (see --help)");
    } else {
        throw UsageError("unknown option " + quotedPath(flag) + " (see --help)");
    }
}

// The device and window flags (those that fill a field of AppOptions); false for the others.
bool applyOptionFlag(AppOptions& o, const std::string& flag, const std::string& value) {
    if (flag == "-p" || flag == "--platform") {
        o.device.platform = value;
    } else if (flag == "-d" || flag == "--device") {
        o.device.device = value;
    } else if (flag == "--device-type") {
        try {
            o.device.type = parseDeviceTypeFilter(value);
        } catch (const Error& e) {
            throw UsageError(e.what());
        }
    } else if (flag == "--demo") {
        o.demo = value;
    } else if (flag == "--frames") {
        o.frames = parseIntegerFlag(flag, value, 1, kMaxFrames);
    } else if (flag == "--seconds") {
        o.seconds = parseSecondsFlag(value);
    } else if (flag == "--screenshot") {
        if (!endsWithPng(value))
            throw UsageError("--screenshot writes PNG: the file name must end in .png, got '" +
                             value + "'");
        o.screenshotPath = value;
    } else if (flag == "--layout") {
        o.layoutPath = value;
    } else if (flag == "--vsync") {
        o.vsync = parseOnOffFlag(flag, value);
    } else if (flag == "--width") {
        o.width = static_cast<int>(parseIntegerFlag(flag, value, kMinWindowSize, kMaxWindowSize));
    } else if (flag == "--height") {
        o.height = static_cast<int>(parseIntegerFlag(flag, value, kMinWindowSize, kMaxWindowSize));
    } else if (flag == "--save") {
        o.savePath = value;
    } else if (flag == "--kernel-dir") {
        o.kernelDir = value;
    } else if (flag == "--shader-dir") {
        o.shaderDir = value;
    } else if (flag == "--devices") {
        o.devices = value;
    } else if (flag == "--mpi-timeout") {
        const auto v = parseNumber(value);
        if (!v || !(*v > 0) || *v > 86400)
            throw UsageError("--mpi-timeout expects seconds (0 < S <= 86400), got " +
                             quotedPath(value));
        o.mpiTimeoutSeconds = *v;
    } else {
        return false;
    }
    return true;
}

// --set, --set-at and the sugar flags (--n, --interop, --image, --cube, --preset, --variant,
// --record: --set flag=value; the demo that owns the key checks the value).
void applySettingFlag(AppOptions& o, const std::string& flag, const std::string& value) {
    if (flag == "--set") {
        o.settings.push_back(parseSetting(flag, value));
    } else if (flag == "--set-at") {
        o.timed.push_back(parseTimedSetting(value));
    } else {
        if (flag == "--n") parseIntegerFlag(flag, value, 1, static_cast<long long>(kMaxBodies));
        o.settings.push_back({flag.substr(2), value});
    }
}

// Every --set-at must fall inside --frames; then they are ordered by frame (stable).
void orderTimedSettings(AppOptions& o) {
    if (o.frames) {
        for (const auto& t : o.timed)
            if (t.frame >= *o.frames)
                throw UsageError("--set-at " + std::to_string(t.frame) + ":" + t.setting.key +
                                 " never happens: --frames " + std::to_string(*o.frames) +
                                 " runs frames 0 to " + std::to_string(*o.frames - 1));
    }
    std::stable_sort(
        o.timed.begin(), o.timed.end(),
        [](const TimedSetting& a, const TimedSetting& b) { return a.frame < b.frame; });
}

}  // namespace

AppOptions parseCli(const std::vector<std::string>& args) {
    AppOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> inlineValue;  // --flag=value
        if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
            inlineValue = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
        }
        if (flag == "--benchmark") {
            if (inlineValue)
                throw UsageError("--benchmark takes no '=value'; put options after it");
            o.mode = AppOptions::Mode::Benchmark;
            o.benchmarkArgs.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        }
        if (!takesValue(flag)) {
            applySwitch(o, flag, inlineValue);
            continue;
        }
        if (!inlineValue && i + 1 >= args.size())
            throw UsageError(flag + " needs a value (see --help)");
        const std::string value = inlineValue ? *inlineValue : args[++i];
        if (value.empty()) throw UsageError(flag + " needs a non-empty value");
        if (!applyOptionFlag(o, flag, value)) applySettingFlag(o, flag, value);
    }
    orderTimedSettings(o);
    if (o.mpiViewer && o.mode != AppOptions::Mode::Mpi)
        throw UsageError("--viewer goes with --mpi (mpirun -np K clviz --mpi --viewer)");
    return o;
}

std::string cliUsage() {
    std::ostringstream u;
    u << R"(Usage: clviz [options]
       clviz --list-devices
       clviz --benchmark [benchmark options]   (same as clviz-bench; --benchmark --help lists them)

Real-time OpenCL compute visualizer: an N-body simulation, an image-processing lab and a
spectral lab (MNF of hyperspectral cubes).

OpenCL device (default: the device driving the GL context where the platform can tell,
else the first GPU, else the first CPU device):
  -p, --platform P        platform index or name part (e.g. 0, nvidia, portable)
  -d, --device D          device index within the platform, or name part
      --device-type T     cpu, gpu or all                                  [all]
      --list-devices      print every platform and device, then exit (needs no display)

Window:
      --demo NAME         demo to start with: nbody, image or spectral [first registered]
      --width W           window width in screen units, )"
      << kMinWindowSize << "-" << kMaxWindowSize << R"(         [1280]
      --height H          window height, )"
      << kMinWindowSize << "-" << kMaxWindowSize << R"(                       [720]
      --vsync on|off      sync buffer swaps to the display                  [on]
      --fullscreen        start fullscreen on the primary monitor           [off]

Automation and tests:
      --frames N          run N frames, then exit 0                  [until closed]
      --seconds S         run S seconds (at least one frame), then exit 0 [until closed]
      --screenshot F.png  write the window (with GUI) as PNG after the last frame
      --layout FILE       write where each GUI window was drawn in the last frame
                          (name, x, y, width, height in pixels, one per line; for tests)
      --set KEY=VALUE     apply a setting before the first frame (repeatable);
                          keys starting with "app." go to the app (listed below),
                          other keys to the active demo
      --set-at N:KEY=VALUE  apply a setting just before frame N (0 = first; repeatable)
      --help-settings[=markdown]  every app and demo setting with its values, then exit

Demo settings (sugar for --set KEY=VALUE; the demo checks the value):
      --n N               N-body: number of particles
      --preset NAME       N-body: initial scene
      --variant NAME      kernel variant of the active demo
      --interop MODE      auto, gl-sharing, external-memory or host-copy    [auto]
      --record DIR        write every frame as a numbered PNG into DIR, numbered on
                          from the highest frame already there (never overwrites)
      --image FILE        image lab: image to load (PNG, JPEG, BMP, TGA, GIF, PSD,
                          HDR, PIC, PNM P5/P6)
      --save FILE         image lab: save the result after the last frame (PNG or JPEG);
                          spectral lab: the m MNF components (ENVI float32) and
                          FILE.eigenvalues.csv
      --cube FILE         spectral lab: ENVI cube to load (FILE.hdr beside its data)

Several devices and MPI (N-body; docs/scaling.md):
      --devices SET       split the bodies over a device set: all, gpu, cpu, 0,1 (devices
                          of --platform) or P.D,P.D as --list-devices numbers them
      --mpi               headless run under mpirun: each rank drives one device (its
                          local rank picks it); --frames steps [100], --n, --preset,
                          --variant, --set integrator|dt|softening=..., --save FILE
                          (rank 0 writes the snapshot)
      --viewer            with --mpi: rank 0 opens the viewer and steers the run
                          (every viewer option applies); the other ranks compute
      --mpi-timeout S     end the run when one MPI exchange takes longer        [60]

Live editing (the Kernels menu and panel; edits rebuild in the background):
      --kernel-dir DIR    read kernels/*.cl from DIR and reload them when saved  [embedded]
      --shader-dir DIR    read shaders/* from DIR and reload them when saved     [embedded]
      --verbose           say where each OpenCL program came from (source build or the
                          binary cache in $XDG_CACHE_HOME/clviz/programs) and why
                          CLVIZ_PROGRAM_CACHE=off disables that cache, =DIR moves it

  -h, --help              this text
      --version           print the version

App settings (--set app.KEY=VALUE; the demos' settings: --help-settings):
)" << settingHelpText(appSettings().docs(), "app.")
      << R"(
App keys (the Help menu also lists the demo's):
)" << appKeysHelp()
      << R"(
Exit status: 0 ok, 1 runtime failure, 2 bad command line or setting.
)";
    return u.str();
}

}  // namespace clviz
