#include "common/directory_listing.hpp"

#include "common/text.hpp"

#include <algorithm>
#include <filesystem>

namespace clviz {

namespace fs = std::filesystem;

std::string folderOfTypedPath(const std::string& typed) {
    std::error_code ec;
    fs::path p = typed.empty() ? fs::current_path(ec) : fs::absolute(fs::path(typed), ec);
    if (ec) return "/";
    p = p.lexically_normal();
    if (!typed.empty() && typed.back() != '/' && !fs::is_directory(p, ec)) p = p.parent_path();
    std::string s = p.string();
    while (s.size() > 1 && s.back() == '/')
        s.pop_back();
    return s.empty() ? "/" : s;
}

DirectoryListing listDirectory(const std::string& folder, std::size_t cap) {
    DirectoryListing listing;
    listing.folder = folder;
    std::error_code ec;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        listing.problem = "cannot read this folder: " + ec.message();
        return listing;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            listing.problem = "stopped reading this folder: " + ec.message();
            break;
        }
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        ++listing.entriesSeen;
        if (listing.entries.size() >= cap) continue;  // count the rest, keep none of them
        DirectoryEntry e;
        e.name = name;
        std::error_code statError;
        e.isDirectory = it->is_directory(statError);  // follows links, like opening would
        if (!e.isDirectory) {
            const std::uintmax_t size = it->file_size(statError);
            e.bytes = statError ? 0 : size;
        }
        listing.entries.push_back(std::move(e));
    }
    std::sort(listing.entries.begin(), listing.entries.end(),
              [](const DirectoryEntry& a, const DirectoryEntry& b) {
                  if (a.isDirectory != b.isDirectory) return a.isDirectory;
                  const std::string la = toLower(a.name), lb = toLower(b.name);
                  return la != lb ? la < lb : a.name < b.name;
              });
    return listing;
}

}  // namespace clviz
