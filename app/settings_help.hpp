#pragma once
// Every setting --set / --set-at take (the app's "app.*" keys, then each demo's), written from
// the settings tables: `clviz --help-settings` prints the text, `--help-settings=markdown` the
// README's tables (a test keeps the README equal to it).
#include <string>

namespace clviz {

enum class SettingsHelpFormat { Text, Markdown };

std::string allSettingsHelp(SettingsHelpFormat format);

}  // namespace clviz
