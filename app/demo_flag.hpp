#pragma once
// A command-line flag a demo owns: sugar for one of its settings (`--n N` is `--set n=N`). The
// demo lists its flags in its registry line; the shell turns them into rows of its flag table
// (app/cli.cpp), so the shell's command line names no demo.
#include <functional>
#include <string>

namespace clviz {

struct DemoFlag {
    std::string names;      // CLI11 spellings: "--n"
    std::string valueName;  // shown in --help: "N"
    std::string help;       // what it sets, for --help
    std::string key;        // the setting it stands for
    // Checks the value on the command line already (throws UsageError); empty: the demo's set()
    // checks it when it applies, as for --set.
    std::function<void(const std::string& value)> check;
};

}  // namespace clviz
