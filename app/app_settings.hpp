#pragma once
// The app's own settings ("app.*" keys of --set / --set-at): one table of keys, accepted values,
// help and how each applies. --help, the error for an unknown key and the README's table are
// written from it.
#include <string>
#include <vector>

#include "common/settings_table.hpp"

namespace clviz {

class Application;

// Keys without the "app." prefix.
const SettingTable<Application>& appSettings();

}  // namespace clviz
