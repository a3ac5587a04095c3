#pragma once
// How the multi-device code hands a per-device task to whoever runs it: the split build's exchange
// phases (tree/split_build.hpp) and the slice exchange's pieces (multi/slice_gather.hpp) take one.
#include <cstddef>
#include <functional>

namespace clviz {

// Runs task(d) for every device d and returns when all have (at once, on a caller's threads).
using ForEachDevice = std::function<void(const std::function<void(std::size_t device)>& task)>;

}  // namespace clviz
