#pragma once
// The app's own settings ("app.*" keys of --set / --set-at): one table of keys, accepted values,
// help and how each applies. --help, the error for an unknown key and the README's table are
// written from it.
//
// The table sees the shell only through AppControls, the few things an app.* key may change, so
// it is no friend of Application and a new key adds one row here and, at most, one member there.
#include <string>
#include <vector>

#include "common/settings_table.hpp"

namespace clviz {

// What app.* keys may ask of the shell. Application implements it; the calls run between frames
// (or as --set at start) and report a refusal by throwing clviz::Error.
class AppControls {
  public:
    virtual ~AppControls() = default;
    virtual void setVsync(bool on) = 0;
    virtual void setPresent(bool on) = 0;
    virtual void setFullscreen(bool on) = 0;
    virtual void setGuiVisible(bool on) = 0;
    virtual void setGuiScale(float scale) = 0;  // 0: the window's content scale
    virtual void setDevicesPanel(bool shown) = 0;
    // Builds and tunes off the frame with a progress line (AppServices::workOffFrame).
    virtual void setWorkOffFrame(bool on) = 0;
    // Makes registered demo `index` the active one (nothing when it is); throws clviz::Error when
    // it cannot start.
    virtual void switchDemo(int index) = 0;
    virtual void queueScreenshot(const std::string& path) = 0;
    virtual void queueLayout(const std::string& path) = 0;
    virtual void setForcedMinimized(bool on) = 0;             // test hook
    virtual void setDeviceName(const std::string& name) = 0;  // test hook (overlay only)
    // The keys LiveReload owns (LiveReload::set).
    virtual void setLiveReload(const std::string& key, const std::string& value) = 0;
};

// Keys without the "app." prefix.
const SettingTable<AppControls>& appSettings();

// Applies app.KEY=VALUE (KEY without "app."); throws clviz::Error when refused (an unknown key
// names the known ones).
void applyAppSetting(AppControls& app, const std::string& key, const std::string& value);

}  // namespace clviz
