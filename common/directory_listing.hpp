#pragma once
// What the File dialog shows under its path field: one folder's entries, folders first, each
// group in name order, hidden (dot) entries left out. A listing never grows past its cap, so a
// folder with a million files costs the dialog no more than a few thousand names.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clviz {

struct DirectoryEntry {
    std::string name;
    bool isDirectory = false;
    std::uintmax_t bytes = 0;  // 0 for folders
};

struct DirectoryListing {
    std::string folder;                   // absolute, ends without '/' (except "/")
    std::vector<DirectoryEntry> entries;  // at most the cap, sorted as above
    std::size_t entriesSeen = 0;          // visible entries found (more than entries when capped)
    std::string problem;                  // "" or why the folder could not be read
};

// The folder a typed path points into: the path itself when it names a folder (or ends in '/'),
// else its parent; a relative path is taken from the working directory; "" is the working
// directory.
std::string folderOfTypedPath(const std::string& typed);

DirectoryListing listDirectory(const std::string& folder, std::size_t cap = 2000);

}  // namespace clviz
