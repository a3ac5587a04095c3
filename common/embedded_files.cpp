#include "common/embedded_files.hpp"

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

std::string readSourceFile(const std::string& dir, const char* what, const std::string& name) {
    const std::string path = dir + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot read " + std::string(what) + " file " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string sourceFile(const std::string& dir, const std::vector<EmbeddedFile>& embedded,
                       const char* what, const std::string& name) {
    if (!dir.empty()) return readSourceFile(dir, what, name);
    for (const auto& f : embedded)
        if (name == f.name) return f.source;
    throw Error("no embedded " + std::string(what) + " file named " + quotedPath(name));
}

}  // namespace clviz
