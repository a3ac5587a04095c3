#pragma once
// The whole `clviz` program behind main(): parses the command line, then lists devices, runs the
// benchmark, or opens the viewer. Returns the exit status (0 ok, 1 runtime failure, 2 bad usage).
// Test drivers call it after registering extra demos.
#include <string>
#include <vector>

namespace clviz {

int runApp(const std::vector<std::string>& args);

}  // namespace clviz
