#pragma once
// A settings table: one row per key (name, aliases, accepted values, help, how to apply it).
// The owner (the N-body demo, the image lab, the app) looks keys up here for --set, --set-at and
// its panels; --help, the Help menu, the error for an unknown key and the README's tables are
// written from the same rows, so none of them can drift from what the code accepts.
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace clviz {

// The words of one row.
struct SettingDoc {
    std::string key;                        // "colour"
    std::string values;                     // "speed|mass|fixed", "1..1000", "on|off"
    std::string help;                       // one sentence
    std::vector<std::string> aliases = {};  // other spellings ("color")
};

// "key1, key2, ...": every key of the table, for "unknown setting" messages.
std::string settingKeyList(const std::vector<SettingDoc>& docs, std::string_view prefix = "");
// "key=values, ...": one line, as the old hand-written help strings.
std::string settingSummary(const std::vector<SettingDoc>& docs, std::string_view prefix = "");
// One row per line ("  key=values   help"), for --help and the Help menu.
std::string settingHelpText(const std::vector<SettingDoc>& docs, std::string_view prefix = "");
// A Markdown table (| key | values | what it does |), for the README.
std::string settingMarkdown(const std::vector<SettingDoc>& docs, std::string_view prefix = "");
// The row that `key` names (or one of its aliases), or -1.
int findSetting(const std::vector<SettingDoc>& docs, std::string_view key);

// Value checks in the settings' message style; each throws clviz::Error naming the key and what
// it accepts ("n must be in 1 .. 67108864, got 0").
long long settingInteger(const std::string& key, const std::string& text, long long lo,
                         long long hi);
// A number in [lo, hi], or (lo, hi] when `openLow`.
double settingNumber(const std::string& key, const std::string& text, double lo, double hi,
                     bool openLow = false);
bool settingOnOff(const std::string& key, const std::string& text);
// `text` must be one of `names`; returns its index.
std::size_t settingChoice(const std::string& key, const std::string& text,
                          const std::vector<std::string>& names);

// The rows of one owner. `apply` throws clviz::Error with the reason a value is refused.
template <class Owner>
class SettingTable {
  public:
    using Apply = std::function<void(Owner&, const std::string& value)>;
    struct Row {
        SettingDoc doc;
        Apply apply;
    };

    SettingTable(std::initializer_list<Row> rows) {
        for (const Row& r : rows) {
            docs_.push_back(r.doc);
            apply_.push_back(r.apply);
        }
    }

    const std::vector<SettingDoc>& docs() const { return docs_; }
    bool has(std::string_view key) const { return findSetting(docs_, key) >= 0; }

    // Applies key=value to `owner`; false when the table has no such key. Throws what the row
    // throws.
    bool apply(Owner& owner, std::string_view key, const std::string& value) const {
        const int i = findSetting(docs_, key);
        if (i < 0) return false;
        apply_[std::size_t(i)](owner, value);
        return true;
    }

  private:
    std::vector<SettingDoc> docs_;
    std::vector<Apply> apply_;
};

}  // namespace clviz
