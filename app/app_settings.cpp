// The app.* settings table and applyAppSetting, over AppControls.
#include "app/app_settings.hpp"

#include "app/demo_registry.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

using Value = const std::string&;

}  // namespace

const SettingTable<AppControls>& appSettings() {
    // The keys LiveReload owns keep their handling there; the table holds their words.
    auto toLiveReload = [](const char* key) {
        return [key](AppControls& a, Value v) { a.setLiveReload(key, v); };
    };
    static const SettingTable<AppControls> table = {
        {{"vsync", "on|off", "Syncs buffer swaps to the display"},
         [](AppControls& a, Value v) { a.setVsync(settingOnOff("app.vsync", v)); }},
        {{"present", "on|off",
          "Shows each frame; off draws every frame without swapping it onto the screen "
          "(benchmarks: the frame without the window system's copy, e.g. Xvfb's)"},
         [](AppControls& a, Value v) { a.setPresent(settingOnOff("app.present", v)); }},
        {{"fullscreen", "on|off", "Fullscreen on the primary monitor"},
         [](AppControls& a, Value v) { a.setFullscreen(settingOnOff("app.fullscreen", v)); }},
        {{"gui", "on|off", "Shows or hides every panel (F1)"},
         [](AppControls& a, Value v) { a.setGuiVisible(settingOnOff("app.gui", v)); }},
        {{"gui-scale", "auto|0.5..4", "Size of the GUI (auto: the monitor's content scale)"},
         [](AppControls& a, Value v) {
             if (v == "auto") {
                 a.setGuiScale(0);
             } else {
                 const auto f = parseNumber(v);
                 if (!f || !(*f >= 0.5 && *f <= 4.0))
                     throw Error("app.gui-scale expects auto or a factor from 0.5 to 4, got '" + v +
                                 "'");
                 a.setGuiScale(float(*f));
             }
         }},
        {{"devices", "on|off", "Shows or hides the OpenCL devices panel (F2)"},
         [](AppControls& a, Value v) { a.setDevicesPanel(settingOnOff("app.devices", v)); }},
        {{"demo", "NAME", "Switches to another demo (the names --demo takes)"},
         [](AppControls& a, Value v) {
             const DemoEntry* entry = findDemo(v);
             if (!entry)
                 throw Error("unknown demo " + quotedPath(v) + " (available: " + demoIdList() +
                             ")");
             a.switchDemo(static_cast<int>(entry - registeredDemos().data()));
         }},
        {{"screenshot", "FILE.png", "Writes the window (with GUI) as PNG after this frame"},
         [](AppControls& a, Value v) {
             if (v.size() < 5 || v.substr(v.size() - 4) != ".png")
                 throw Error("app.screenshot expects a file name ending in .png");
             a.queueScreenshot(v);
         }},
        {{"layout", "FILE", "Writes where each GUI window was drawn (as --layout)"},
         [](AppControls& a, Value v) { a.queueLayout(v); }},
        {{"off-frame", "on|off",
          "Builds, auto-tunes and the labs' starts run while frames go on, with a progress line "
          "(default on; off "
          "with --frames or --seconds, so that those runs see the same frames every time)"},
         [](AppControls& a, Value v) { a.setWorkOffFrame(settingOnOff("app.off-frame", v)); }},
        {{"minimized", "on|off", "Test hook: runs frames as if the window had size 0x0"},
         [](AppControls& a, Value v) { a.setForcedMinimized(settingOnOff("app.minimized", v)); }},
        {{"device-name", "TEXT", "Test hook: the device name the overlay shows"},
         [](AppControls& a, Value v) { a.setDeviceName(v); }},
        {{"kernel-dir", "DIR|source-tree|embedded",
          "Reads kernels from DIR and reloads them when saved (as --kernel-dir)"},
         toLiveReload("kernel-dir")},
        {{"shader-dir", "DIR|source-tree|embedded",
          "Reads shaders from DIR and reloads them when saved (as --shader-dir)"},
         toLiveReload("shader-dir")},
        {{"kernels", "on|off", "Shows or hides the Kernels panel"}, toLiveReload("kernels")},
        {{"check-reference", "on", "Checks the demo's result against its CPU reference"},
         toLiveReload("check-reference")},
        {{"reload-wait", "SECONDS", "Test hook: waits until a kernel or shader reload finished"},
         toLiveReload("reload-wait")},
        {{"test-save-file", "SRC,DST", "Test hook: saves SRC over DST the way editors do"},
         toLiveReload("test-save-file")},
    };
    return table;
}

void applyAppSetting(AppControls& app, const std::string& key, const std::string& value) {
    if (!appSettings().apply(app, key, value))
        throw Error("unknown app setting 'app." + key + "' (" +
                    settingKeyList(appSettings().docs(), "app.") + ")");
}

}  // namespace clviz
