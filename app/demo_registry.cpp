#include "app/demo_registry.hpp"

#include <algorithm>

#include "app/image/demo.hpp"
#include "app/image/settings.hpp"
#include "app/linalg/demo.hpp"
#include "app/linalg/settings.hpp"
#include "app/nbody/demo.hpp"
#include "app/spectral/demo.hpp"
#include "app/spectral/settings.hpp"

namespace clviz {

namespace {

std::vector<DemoEntry>& registry() {
    // The built-in demos, in menu order; the first is the default. One line per demo.
    static std::vector<DemoEntry> demos = {
        {"nbody", "N-body", [] { return makeNbodyDemo(); },
         [] { return NbodyDemo::settings().docs(); }, nbodyDemoFlags, nbodyDemoModes},
        {"image", "Image lab", makeImageDemo, imageLabSettingDocs, imageLabFlags},
        {"linalg", "Linear-algebra lab", makeLinalgDemo, linalgLabSettingDocs},
        {"spectral", "Spectral lab (MNF)", makeSpectralDemo, spectralLabSettingDocs,
         spectralLabFlags},
    };
    return demos;
}

}  // namespace

const std::vector<DemoEntry>& registeredDemos() {
    return registry();
}

void registerDemo(std::string id, std::string title, DemoFactory create) {
    auto& demos = registry();
    auto it =
        std::find_if(demos.begin(), demos.end(), [&](const DemoEntry& e) { return e.id == id; });
    if (it != demos.end()) {
        it->title = std::move(title);
        it->create = std::move(create);
    } else {
        demos.push_back({std::move(id), std::move(title), std::move(create)});
    }
}

const DemoEntry* findDemo(const std::string& id) {
    for (const auto& e : registry())
        if (e.id == id) return &e;
    return nullptr;
}

std::string demoIdList() {
    std::string out;
    for (const auto& e : registry())
        out += (out.empty() ? "" : ", ") + e.id;
    return out.empty() ? "none" : out;
}

std::vector<std::pair<std::string, DemoMode>> registeredDemoModes() {
    std::vector<std::pair<std::string, DemoMode>> out;
    for (const auto& e : registry())
        if (e.modes)
            for (DemoMode m : e.modes()) {
                m.help = e.title + ": " + m.help;
                out.emplace_back(e.id, std::move(m));
            }
    return out;
}

std::vector<DemoFlag> registeredDemoFlags() {
    std::vector<DemoFlag> out;
    for (const auto& e : registry()) {
        if (!e.flags) continue;
        for (DemoFlag f : e.flags()) {
            const bool taken = std::any_of(out.begin(), out.end(),
                                           [&](const DemoFlag& o) { return o.names == f.names; });
            if (taken) continue;
            f.help = e.title + ": " + f.help;
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace clviz
