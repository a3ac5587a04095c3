#pragma once
// Whether a file can be written where the command line asks, checked before the first frame so
// that --screenshot, --layout or --save pointing somewhere impossible fails at once with the
// reason, not after every frame has run.
#include <optional>
#include <string>

namespace clviz {

// Why `path` cannot be written ("it is a directory", "No such file or directory", ...), or
// nothing. Opens it for appending without truncating, and removes it again if it did not exist.
std::optional<std::string> unwritableFileReason(const std::string& path);

}  // namespace clviz
