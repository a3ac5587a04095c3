#pragma once
// A program's command-line flags as one table: each row says its spellings, its value, its help
// and what it does with the value (validation included). The parser (CLI11 underneath) and the
// --help text both read the table, so a flag is declared once. Pure: unit-tested without a device.
#include <functional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace clviz {

// Bad command line: the message is printed as is and the process exits with status 2.
class UsageError : public Error {
  public:
    using Error::Error;
};

struct FlagRow {
    enum class Takes {
        Nothing,      // a switch: --fullscreen
        Value,        // --frames N or --frames=N
        InlineValue,  // optional, only as --help-settings=FORMAT (a following word is not it)
    };
    std::string names;  // CLI11 spellings: "-p,--platform"
    Takes takes = Takes::Nothing;
    std::string valueName;  // shown in --help: "N", "F.png"
    std::string help;       // one paragraph; the default, where there is one, as "[1280]"
    std::string group;      // the --help section
    // Checks and applies one occurrence ("" for a switch); throws UsageError on a bad value.
    std::function<void(const std::string& value)> apply;
};

// Applies args (without the program name) in command-line order: each flag's apply runs once per
// occurrence, so the last value wins and interleaved flags keep their order. Throws UsageError:
// "unknown option '--x' (see --help)", "unexpected argument 'x' (see --help)", "--x needs a value
// (see --help)", "--x needs a non-empty value", "--x takes no value", or what apply throws.
void parseFlagTable(const std::vector<FlagRow>& rows, const std::vector<std::string>& args);

// The --help text: usage lines, then each group's flags as the table declares them, then footer.
std::string flagTableHelp(const std::vector<FlagRow>& rows, const std::string& usage,
                          const std::string& footer);

// A whole number in [min, max] for `flag`, else UsageError ("--n must be between 1 and 64, got 0").
long long parseWholeNumberFlag(const std::string& flag, const std::string& text, long long min,
                               long long max);

// The value flag spellings ("-p", "--platform", ...) of the table: where a value follows.
bool flagTakesValue(const std::vector<FlagRow>& rows, const std::string& spelling);

}  // namespace clviz
