#pragma once
// Helpers the spectral lab's tests share: file writing, and the private folder of tests/support/.
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"

namespace clviz::spectral_test {

using test::TempDir;

inline void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

inline void writeBytes(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

}  // namespace clviz::spectral_test
