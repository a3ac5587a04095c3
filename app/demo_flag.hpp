#pragma once
// What a demo brings to the command line through its registry line (app/demo_registry.cpp), so
// the shell's command line names no demo: its flags (most are sugar for one of its settings,
// `--n N` is `--set n=N`) and its run modes (`--mpi`: a headless run instead of the viewer).
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clviz {

class Demo;
struct AppOptions;
struct PlatformInfo;
struct DeviceRequest;

using DemoFactory = std::function<std::unique_ptr<Demo>()>;

struct DemoFlag {
    enum class Goes {
        Setting,  // --set key=value before the first frame
        Option,   // AppOptions::demoOptions[key], for the demo's run mode
    };
    std::string names = {};      // CLI11 spellings: "--n"
    std::string valueName = {};  // shown in --help: "N"; empty: a switch (its value is "on")
    std::string help = {};       // what it sets, for --help
    std::string key = {};        // the setting (or option) it stands for
    // Checks the value on the command line already (throws UsageError); empty: the demo's set()
    // checks it when it applies, as for --set.
    std::function<void(const std::string& value)> check = {};
    Goes goes = Goes::Setting;
    std::string onlyWith = {};  // a run mode's flag this one needs ("--mpi"); empty: none
    // Checks the value against this machine's devices before the window opens (throws Error:
    // a device it names is missing, exit 2); the request is -p/-d/--device-type's. Empty: none.
    std::function<void(const std::vector<PlatformInfo>& platforms, const DeviceRequest& request,
                       const std::string& value)>
        checkDevices = {};
};

// What the shell lends a run mode.
struct DemoRunServices {
    // Opens the viewer with this demo made by `factory` (registered under the demo's id) and
    // runs it until it closes; returns the exit status.
    std::function<int(DemoFactory factory)> runViewer;
    // Throws UsageError when a device the command line names is missing on this machine.
    std::function<void()> checkNamedDevices;
};

struct DemoMode {
    std::string names;  // the switch that selects it: "--mpi"
    std::string help;
    int (*run)(const AppOptions& options, const DemoRunServices& services) = nullptr;
};

}  // namespace clviz
