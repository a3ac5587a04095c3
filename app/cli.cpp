#include "app/cli.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "app/app_settings.hpp"
#include "app/demo_registry.hpp"
#include "app/gui/keys.hpp"
#include "common/flag_table.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

constexpr long long kMaxFrames = 1'000'000'000;

bool parseOnOffFlag(const std::string& flag, const std::string& text) {
    if (auto v = parseOnOff(text)) return *v;
    throw UsageError(flag + " expects on or off, got " + quotedPath(text));
}

double parseSecondsFlag(const std::string& text) {
    const auto v = parseNumber(text);
    if (!v || !(*v > 0) || *v > 1e6)
        throw UsageError("--seconds expects a duration in seconds (0 < S <= 1e6), got " +
                         quotedPath(text));
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
    t.frame = parseWholeNumberFlag("--set-at FRAME", text.substr(0, colon), 0, kMaxFrames - 1);
    t.setting = parseSetting("--set-at", text.substr(colon + 1));
    return t;
}

bool endsWithPng(const std::string& path) {
    return path.size() > 4 && toLower(path.substr(path.size() - 4)) == ".png";
}

using Takes = FlagRow::Takes;

constexpr const char* kDemoGroup =
    "Demo settings (sugar for --set KEY=VALUE; the demo checks the value)";

// The shell's own flags, once: spelling, value, help (the default in brackets) and apply.
std::vector<FlagRow> shellFlags(AppOptions& o) {
    const std::string device =
        "OpenCL device (default: the device driving the GL context where "
        "the platform can tell, else the first GPU, else the first CPU)";
    const std::string window = "Window";
    const std::string automation = "Automation and tests";
    const std::string demo = kDemoGroup;
    const std::string live =
        "Live editing (the Kernels menu and panel; edits rebuild in the "
        "background)";
    const std::string other = "Other";
    auto sugar = [&o](const std::string& key) {
        return [&o, key](const std::string& v) { o.settings.push_back({key, v}); };
    };
    const std::string sizes = std::to_string(kMinWindowSize) + "-" + std::to_string(kMaxWindowSize);
    return {
        {"-p,--platform", Takes::Value, "P",
         "platform index or name part (e.g. 0, nvidia, portable)", device,
         [&o](const std::string& v) { o.device.platform = v; }},
        {"-d,--device", Takes::Value, "D", "device index within the platform, or name part", device,
         [&o](const std::string& v) { o.device.device = v; }},
        {"--device-type", Takes::Value, "T", "cpu, gpu or all [all]", device,
         [&o](const std::string& v) {
             try {
                 o.device.type = parseDeviceTypeFilter(v);
             } catch (const Error& e) {
                 throw UsageError(e.what());
             }
         }},
        {"--list-devices", Takes::Nothing, "",
         "print every platform and device, then exit (needs no display)", device,
         [&o](const std::string&) { o.mode = AppOptions::Mode::ListDevices; }},
        {"--demo", Takes::Value, "NAME",
         "demo to start with: " + demoIdList() + " [first registered]", window,
         [&o](const std::string& v) { o.demo = v; }},
        {"--width", Takes::Value, "W", "window width in screen units, " + sizes + " [1280]", window,
         [&o](const std::string& v) {
             o.width = static_cast<int>(
                 parseWholeNumberFlag("--width", v, kMinWindowSize, kMaxWindowSize));
         }},
        {"--height", Takes::Value, "H", "window height, " + sizes + " [720]", window,
         [&o](const std::string& v) {
             o.height = static_cast<int>(
                 parseWholeNumberFlag("--height", v, kMinWindowSize, kMaxWindowSize));
         }},
        {"--vsync", Takes::Value, "on|off", "sync buffer swaps to the display [on]", window,
         [&o](const std::string& v) { o.vsync = parseOnOffFlag("--vsync", v); }},
        {"--fullscreen", Takes::Nothing, "", "start fullscreen on the primary monitor [off]",
         window, [&o](const std::string&) { o.fullscreen = true; }},
        {"--frames", Takes::Value, "N", "run N frames, then exit 0 [until closed]", automation,
         [&o](const std::string& v) {
             o.frames = parseWholeNumberFlag("--frames", v, 1, kMaxFrames);
         }},
        {"--seconds", Takes::Value, "S",
         "run S seconds (at least one frame), then exit 0 [until closed]", automation,
         [&o](const std::string& v) { o.seconds = parseSecondsFlag(v); }},
        {"--screenshot", Takes::Value, "F.png",
         "write the window (with GUI) as PNG after the last frame", automation,
         [&o](const std::string& v) {
             if (!endsWithPng(v))
                 throw UsageError("--screenshot writes PNG: the file name must end in .png, got " +
                                  quotedPath(v));
             o.screenshotPath = v;
         }},
        {"--layout", Takes::Value, "FILE",
         "write where each GUI window was drawn in the last frame (name, x, y, width, height in "
         "pixels, one per line; for tests)",
         automation, [&o](const std::string& v) { o.layoutPath = v; }},
        {"--frame-trace", Takes::Value, "FILE.csv",
         "write every frame's wall time (frame,ms) at the end and print the median, the max and "
         "max / median (frames after the first)",
         automation, [&o](const std::string& v) { o.frameTracePath = v; }},
        {"--set", Takes::Value, "KEY=VALUE",
         "apply a setting before the first frame (repeatable); keys starting with \"app.\" go to "
         "the app (listed below), other keys to the active demo",
         automation,
         [&o](const std::string& v) { o.settings.push_back(parseSetting("--set", v)); }},
        {"--set-at", Takes::Value, "N:KEY=VALUE",
         "apply a setting just before frame N (0 = first; repeatable)", automation,
         [&o](const std::string& v) { o.timed.push_back(parseTimedSetting(v)); }},
        {"--help-settings", Takes::InlineValue, "markdown",
         "every app and demo setting with its values, then exit", automation,
         [&o](const std::string& v) {
             if (!v.empty() && v != "text" && v != "markdown")
                 throw UsageError("--help-settings takes text or markdown, got " + quotedPath(v));
             o.mode = AppOptions::Mode::HelpSettings;
             o.helpSettingsMarkdown = v == "markdown";
         }},
        {"--variant", Takes::Value, "NAME", "kernel variant of the active demo", demo,
         sugar("variant")},
        {"--interop", Takes::Value, "MODE", "auto, gl-sharing, external-memory or host-copy [auto]",
         demo, sugar("interop")},
        {"--record", Takes::Value, "DIR",
         "write every frame as a numbered PNG into DIR, numbered on from the highest frame "
         "already there (never overwrites)",
         demo, sugar("record")},
        {"--save", Takes::Value, "FILE",
         "image lab: save the result after the last frame (PNG or JPEG); spectral lab: the m MNF "
         "components (ENVI float32) and FILE.eigenvalues.csv",
         demo, [&o](const std::string& v) { o.savePath = v; }},
        {"--kernel-dir", Takes::Value, "DIR",
         "read kernels/*.cl and kernels/common/*.clh from DIR and reload them when saved "
         "[embedded]",
         live, [&o](const std::string& v) { o.kernelDir = v; }},
        {"--shader-dir", Takes::Value, "DIR",
         "read shaders/* from DIR and reload them when saved [embedded]", live,
         [&o](const std::string& v) { o.shaderDir = v; }},
        {"--verbose", Takes::Nothing, "",
         "say where each OpenCL program came from (source build or the binary cache in "
         "$XDG_CACHE_HOME/clviz/programs) and why; CLVIZ_PROGRAM_CACHE=off disables that cache, "
         "=DIR moves it",
         live, [&o](const std::string&) { o.verbose = true; }},
        {"--benchmark", Takes::Nothing, "",
         "run clviz-bench with every option after it (--benchmark --help lists them)", other,
         [](const std::string&) {}},
        {"-h,--help", Takes::Nothing, "", "this text", other,
         [&o](const std::string&) { o.mode = AppOptions::Mode::Help; }},
        {"--version", Takes::Nothing, "", "print the version", other,
         [&o](const std::string&) { o.mode = AppOptions::Mode::Version; }},
    };
}

// Every flag of the viewer: the shell's, with each registered demo's own flags (its registry line)
// at the head of the demo settings group.
std::vector<FlagRow> viewerFlags(AppOptions& o) {
    const std::string demo = kDemoGroup;
    std::vector<FlagRow> rows = shellFlags(o);
    // Each demo's own flags (its registry line), before the shell's generic ones.
    std::vector<FlagRow> demoRows;
    for (const DemoFlag& f : registeredDemoFlags())
        demoRows.push_back({f.names, f.valueName.empty() ? Takes::Nothing : Takes::Value,
                            f.valueName, f.help, demo, [&o, f](const std::string& given) {
                                const std::string v = f.valueName.empty() ? "on" : given;
                                if (f.check) f.check(v);
                                if (f.goes == DemoFlag::Goes::Option)
                                    o.demoOptions[f.key] = v;
                                else
                                    o.settings.push_back({f.key, v});
                            }});
    for (const auto& [id, m] : registeredDemoModes())
        demoRows.push_back(
            {m.names, Takes::Nothing, "", m.help, demo, [&o, names = m.names](const std::string&) {
                 o.mode = AppOptions::Mode::DemoMode;
                 o.demoMode = names;
             }});
    const auto at =
        std::find_if(rows.begin(), rows.end(), [&](const FlagRow& r) { return r.group == demo; });
    rows.insert(at, demoRows.begin(), demoRows.end());
    return rows;
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
    const std::vector<FlagRow> flags = viewerFlags(o);
    // --benchmark hands every word after it to clviz-bench (a value of a flag is not a flag).
    std::size_t end = 0;
    for (; end < args.size(); ++end) {
        if (args[end].rfind("--benchmark=", 0) == 0)
            throw UsageError("--benchmark takes no '=value'; put options after it");
        if (args[end] == "--benchmark") break;
        if (flagTakesValue(flags, args[end])) ++end;
    }
    parseFlagTable(flags, {args.begin(),
                           args.begin() + static_cast<std::ptrdiff_t>(std::min(end, args.size()))});
    if (end < args.size()) {
        o.mode = AppOptions::Mode::Benchmark;
        o.benchmarkArgs.assign(args.begin() + static_cast<std::ptrdiff_t>(end) + 1, args.end());
    }
    orderTimedSettings(o);
    // A demo flag that belongs to a run mode is a mistake without it.
    for (const DemoFlag& f : registeredDemoFlags())
        if (!f.onlyWith.empty() && o.demoOptions.count(f.key) && o.demoMode != f.onlyWith)
            throw UsageError(f.names + " goes with " + f.onlyWith);
    return o;
}

std::string cliUsage() {
    AppOptions unused;
    std::ostringstream footer;
    footer << "App settings (--set app.KEY=VALUE; the demos' settings: --help-settings):\n"
           << settingHelpText(appSettings().docs(), "app.")
           << "\nApp keys (the Help menu also lists the demo's):\n"
           << appKeysHelp()
           << "\nExit status: 0 ok, 1 runtime failure, 2 bad command line or setting.\n";
    return flagTableHelp(
        viewerFlags(unused),
        "Usage: clviz [options]\n"
        "       clviz --list-devices\n"
        "       clviz --benchmark [benchmark options]   (same as clviz-bench; --benchmark --help "
        "lists them)\n\n"
        "Real-time OpenCL compute visualizer. Demos: " +
            demoIdList() + ".\n",
        footer.str());
}

}  // namespace clviz
