#include "compute/linalg/kernel_set.hpp"

#include "compute/core/compute_context.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

cl::Kernel& KernelSet::get(const std::string& file, const std::string& name,
                           const std::string& options, InlinePtxBuilds* ptx) {
    const long long generation = cc_.programs().generation();
    if (generation != generation_) {
        kernels_.clear();
        generation_ = generation;
    }
    // The PTX attempt is part of the key: once a compiler refuses it, the portable build is
    // fetched under its own key.
    const std::string key =
        file + "|" + name + "|" + options + (ptx && ptx->active() ? "|ptx" : "");
    auto it = kernels_.find(key);
    if (it == kernels_.end()) {
        cl::Kernel k =
            ptx ? ptx->kernel(file, name, options) : cc_.programs().kernel(file, name, options);
        it = kernels_.emplace(key, std::move(k)).first;
    }
    return it->second;
}

}  // namespace clviz
