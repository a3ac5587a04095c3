#pragma once
// A byte count for people: "512 B", "1.5 KiB", "80.0 GiB" (binary units, named as such), for
// device memory, buffer limits and the File dialog's file sizes alike.
#include <cstdint>
#include <string>

namespace clviz {

std::string formatBytes(std::uint64_t bytes);

}  // namespace clviz
