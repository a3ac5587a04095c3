#include "common/flag_table.hpp"

#include <CLI/CLI.hpp>
#include <map>

#include "common/parse.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

std::vector<std::string> spellingsOf(const FlagRow& row) {
    std::vector<std::string> out;
    std::string rest = row.names;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        out.push_back(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    return out;
}

const FlagRow* rowOf(const std::vector<FlagRow>& rows, const std::string& spelling) {
    for (const auto& row : rows)
        for (const auto& s : spellingsOf(row))
            if (s == spelling) return &row;
    return nullptr;
}

// What CLI11 would take differently from clviz's rules, said before it parses: "--x=" (CLI11
// takes the next word), "--switch=value" (CLI11 reads it as true/false), a value flag last.
void checkShapes(const std::vector<FlagRow>& rows, const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        const auto eq = flag.find('=');
        const bool inlineValue = flag.rfind("--", 0) == 0 && eq != std::string::npos;
        if (inlineValue) flag = flag.substr(0, eq);
        const FlagRow* row = rowOf(rows, flag);
        if (!row) {
            if (flag.empty() || flag[0] != '-')
                throw UsageError("unexpected argument " + quotedPath(flag) + " (see --help)");
            if (flag.size() > 2 && flag[1] != '-' && rowOf(rows, flag.substr(0, 2)) &&
                rowOf(rows, flag.substr(0, 2))->takes == FlagRow::Takes::Value)
                continue;  // -pVALUE
            throw UsageError("unknown option " + quotedPath(flag) + " (see --help)");
        }
        switch (row->takes) {
            case FlagRow::Takes::Nothing:
                if (inlineValue) throw UsageError(flag + " takes no value");
                break;
            case FlagRow::Takes::InlineValue:
                break;
            case FlagRow::Takes::Value:
                if (inlineValue && eq + 1 == args[i].size())
                    throw UsageError(flag + " needs a non-empty value");
                if (inlineValue) break;
                if (i + 1 >= args.size()) throw UsageError(flag + " needs a value (see --help)");
                if (args[i + 1].empty()) throw UsageError(flag + " needs a non-empty value");
                ++i;  // the value, whatever it looks like
                break;
        }
    }
}

// One CLI11 app with an option per row; the caller reads the results in parse order.
void declare(CLI::App& app, const std::vector<FlagRow>& rows,
             std::map<CLI::Option*, const FlagRow*>& byOption) {
    app.set_help_flag();  // --help is a row like any other
    app.allow_extras(false);
    for (const auto& row : rows) {
        CLI::Option* opt = nullptr;
        switch (row.takes) {
            case FlagRow::Takes::Nothing:
                opt = app.add_flag(row.names, row.help)->disable_flag_override();
                break;
            case FlagRow::Takes::InlineValue:
                opt = app.add_flag(row.names + "{}", row.help);
                break;
            case FlagRow::Takes::Value:
                opt = app.add_option(row.names, row.help)
                          ->type_name(row.valueName)
                          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                          ->allow_extra_args(false);
                break;
        }
        opt->group(row.group);
        byOption[opt] = &row;
    }
}

// CLI11's layout with the usage lines given, the spellings as the table writes them ("-p,
// --platform P", "--help-settings[=FORMAT]") and the help wrapped at kWidth columns.
class UsageFormatter : public CLI::Formatter {
  public:
    UsageFormatter(std::string usage, const std::map<CLI::Option*, const FlagRow*>& rows)
        : usage_(std::move(usage)), rows_(rows) {}
    std::string make_usage(const CLI::App*, std::string) const override { return usage_; }
    std::string make_option(const CLI::Option* opt, bool) const override {
        const FlagRow& row = *rows_.at(const_cast<CLI::Option*>(opt));
        std::string left = "  " + row.names;
        if (row.takes == FlagRow::Takes::Value) left += " " + row.valueName;
        if (row.takes == FlagRow::Takes::InlineValue) left += "[=" + row.valueName + "]";
        std::string out = left;
        std::size_t column = left.size();
        if (column + 1 > kHelpColumn) {
            out += "\n";
            column = 0;
        }
        out += std::string(kHelpColumn - column, ' ');
        column = kHelpColumn;
        std::size_t start = 0;
        while (start < row.help.size()) {  // word by word
            auto end = row.help.find(' ', start);
            if (end == std::string::npos) end = row.help.size();
            const std::string word = row.help.substr(start, end - start);
            if (column > kHelpColumn && column + 1 + word.size() > kWidth) {
                out += "\n" + std::string(kHelpColumn, ' ');
                column = kHelpColumn;
            } else if (column > kHelpColumn) {
                out += " ";
                ++column;
            }
            out += word;
            column += word.size();
            start = end + 1;
        }
        return out + "\n";
    }

  private:
    static constexpr std::size_t kHelpColumn = 28;
    static constexpr std::size_t kWidth = 100;
    std::string usage_;
    const std::map<CLI::Option*, const FlagRow*>& rows_;
};

}  // namespace

long long parseWholeNumberFlag(const std::string& flag, const std::string& text, long long min,
                               long long max) {
    const auto value = parseInteger(text);
    if (!value) throw UsageError(flag + " expects a whole number, got " + quotedPath(text));
    if (*value < min || *value > max)
        throw UsageError(flag + " must be between " + std::to_string(min) + " and " +
                         std::to_string(max) + ", got " + text);
    return *value;
}

bool flagTakesValue(const std::vector<FlagRow>& rows, const std::string& spelling) {
    const FlagRow* row = rowOf(rows, spelling);
    return row && row->takes == FlagRow::Takes::Value;
}

void parseFlagTable(const std::vector<FlagRow>& rows, const std::vector<std::string>& args) {
    checkShapes(rows, args);
    CLI::App app;
    std::map<CLI::Option*, const FlagRow*> byOption;
    declare(app, rows, byOption);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        throw UsageError(std::string(e.what()) + " (see --help)");
    }
    std::map<CLI::Option*, std::size_t> seen;
    for (CLI::Option* opt : app.parse_order()) {
        const FlagRow* row = byOption.at(opt);
        const std::size_t k = seen[opt]++;
        std::string value;
        if (row->takes != FlagRow::Takes::Nothing && k < opt->results().size())
            value = opt->results()[k];
        if (row->takes == FlagRow::Takes::InlineValue && value == "{}") value.clear();
        row->apply(value);
    }
}

std::string flagTableHelp(const std::vector<FlagRow>& rows, const std::string& usage,
                          const std::string& footer) {
    CLI::App app;
    std::map<CLI::Option*, const FlagRow*> byOption;
    declare(app, rows, byOption);
    app.formatter(std::make_shared<UsageFormatter>(usage, byOption));
    app.footer(footer);
    return app.help();
}

}  // namespace clviz
