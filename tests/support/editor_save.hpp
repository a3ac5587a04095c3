#pragma once
// Writes a file as editors save: a new file beside it, renamed over the old one, so a watcher
// sees one complete replacement (never a half-written file).
#include <filesystem>
#include <fstream>
#include <string>

namespace clviz::test {

inline void saveAsEditorsDo(const std::filesystem::path& file, const std::string& text) {
    const std::filesystem::path fresh = file.string() + ".new";
    std::ofstream(fresh, std::ios::binary) << text;
    std::filesystem::rename(fresh, file);
}

}  // namespace clviz::test
