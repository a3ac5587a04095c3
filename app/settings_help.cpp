#include "app/settings_help.hpp"

#include "app/app_settings.hpp"
#include "app/demo_registry.hpp"

namespace clviz {

std::string allSettingsHelp(SettingsHelpFormat format) {
    const bool md = format == SettingsHelpFormat::Markdown;
    auto section = [&](const std::string& title, const std::vector<SettingDoc>& docs,
                       const char* prefix) {
        return md ? "#### " + title + "\n\n" + settingMarkdown(docs, prefix) + "\n"
                  : title + ":\n" + settingHelpText(docs, prefix) + "\n";
    };
    std::string out = section("App (--set app.KEY=VALUE)", appSettings().docs(), "app.");
    for (const DemoEntry& demo : registeredDemos())
        if (demo.settings)
            out += section(demo.title + " (--set KEY=VALUE while it runs)", demo.settings(), "");
    out.pop_back();  // one newline at the end
    return out;
}

}  // namespace clviz
