#pragma once
// The demos the app can switch between. The built-in list lives in demo_registry.cpp: adding a
// demo is one line there ({"id", "Title", makeXDemo}). Tests and tools may add more at run time
// with registerDemo() before the app starts.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/demo.hpp"
#include "app/demo_flag.hpp"
#include "common/settings_table.hpp"

namespace clviz {

struct DemoEntry {
    std::string id;     // what --demo takes: "nbody", "image"
    std::string title;  // what the menu shows: "N-body", "Image lab"
    DemoFactory create;
    // Every key its set() takes, for --help-settings and the README (may be null).
    std::vector<SettingDoc> (*settings)() = nullptr;
    // Its own command-line flags, each sugar for one of its settings (may be null).
    std::vector<DemoFlag> (*flags)() = nullptr;
    // Its run modes: switches that run something else than the viewer (may be null).
    std::vector<DemoMode> (*modes)() = nullptr;
};

// Built-in demos first (the first one is the default), then those added with registerDemo().
const std::vector<DemoEntry>& registeredDemos();

// Adds a demo (or replaces the factory and title of one with the same id, keeping its settings,
// flags and modes). Call before the app starts.
void registerDemo(std::string id, std::string title, DemoFactory create);

// nullptr when no demo has that id.
const DemoEntry* findDemo(const std::string& id);

// "nbody, image" (or "none") for error messages and --help.
std::string demoIdList();

// Every registered demo's flags, in registry order, each spelling once (the first demo to declare
// a spelling keeps it), with its help prefixed by the demo's title.
std::vector<DemoFlag> registeredDemoFlags();

// Every registered demo's run modes, with the id of the demo that owns each.
std::vector<std::pair<std::string, DemoMode>> registeredDemoModes();

}  // namespace clviz
