#pragma once
// Finds files in assets/ (the default image) wherever clviz runs from: the source tree the binary
// was built from (CLVIZ_ASSET_DIR compile definition) and next to the executable, or only the
// directory in the CLVIZ_ASSET_DIR environment variable when that is set.
#include <optional>
#include <string>
#include <vector>

namespace clviz {

// Every place assets/<name> is looked for, in order (for the "not found" message too).
std::vector<std::string> assetCandidates(const std::string& name);

// The first candidate that exists as a regular file.
std::optional<std::string> findAsset(const std::string& name);

}  // namespace clviz
