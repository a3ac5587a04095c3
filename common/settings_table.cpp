#include "common/settings_table.hpp"

#include <algorithm>

#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"

namespace clviz {

std::string settingKeyList(const std::vector<SettingDoc>& docs, std::string_view prefix) {
    std::string out;
    for (const SettingDoc& d : docs)
        (out.empty() ? out : out += ", ").append(prefix).append(d.key);
    return out;
}

std::string settingSummary(const std::vector<SettingDoc>& docs, std::string_view prefix) {
    std::string out;
    for (const SettingDoc& d : docs)
        (out.empty() ? out : out += ", ").append(prefix).append(d.key).append("=").append(d.values);
    return out;
}

std::string settingHelpText(const std::vector<SettingDoc>& docs, std::string_view prefix) {
    std::string out;
    for (const SettingDoc& d : docs) {
        std::string line = "  ";
        line.append(prefix).append(d.key).append("=").append(d.values);
        // The help starts in column 36, on the next line when key=values reaches it.
        constexpr std::size_t kHelpColumn = 36;
        if (line.size() + 2 > kHelpColumn) line += "\n";
        line.append(kHelpColumn - (line.back() == '\n' ? 0 : line.size()), ' ');
        out += line + d.help;
        if (!d.aliases.empty()) out += " (also: " + choiceList(d.aliases, ", ") + ")";
        out += "\n";
    }
    return out;
}

std::string settingMarkdown(const std::vector<SettingDoc>& docs, std::string_view prefix) {
    std::string out = "| Key | Values | What it does |\n|---|---|---|\n";
    for (const SettingDoc& d : docs) {
        std::string key = "`";
        key.append(prefix).append(d.key).append("`");
        for (const std::string& a : d.aliases)
            key.append(", `").append(prefix).append(a).append("`");
        std::string values = d.values;
        // A '|' separates table cells in Markdown.
        for (std::size_t at = values.find('|'); at != std::string::npos;
             at = values.find('|', at + 2))
            values.replace(at, 1, "\\|");
        out += "| " + key + " | `" + values + "` | " + d.help + " |\n";
    }
    return out;
}

int findSetting(const std::vector<SettingDoc>& docs, std::string_view key) {
    for (std::size_t i = 0; i < docs.size(); ++i) {
        if (docs[i].key == key) return int(i);
        for (const std::string& a : docs[i].aliases)
            if (a == key) return int(i);
    }
    return -1;
}

long long settingInteger(const std::string& key, const std::string& text, long long lo,
                         long long hi) {
    const auto v = parseInteger(text);
    if (!v) throw Error(key + " expects an integer, got " + quotedPath(text));
    if (*v < lo || *v > hi)
        throw Error(key + " must be in " + std::to_string(lo) + " .. " + std::to_string(hi) +
                    ", got " + trim(text));
    return *v;
}

double settingNumber(const std::string& key, const std::string& text, double lo, double hi,
                     bool openLow) {
    const auto v = parseNumber(text);
    if (!v) throw Error(key + " expects a number, got " + quotedPath(text));
    if (*v < lo || *v > hi || (openLow && *v == lo))
        throw Error(key + " must be in " + (openLow ? "(" : "[") + shortNumber(lo) + ", " +
                    shortNumber(hi) + "], got " + trim(text));
    return *v;
}

bool settingOnOff(const std::string& key, const std::string& text) {
    if (const auto v = parseOnOff(text)) return *v;
    throw Error(key + " expects on or off, got " + quotedPath(text));
}

std::size_t settingChoice(const std::string& key, const std::string& text,
                          const std::vector<std::string>& names) {
    if (const auto i = parseChoice(text, names)) return *i;
    throw Error(key + " expects " + choiceList(names) + ", got " + quotedPath(text));
}

}  // namespace clviz
