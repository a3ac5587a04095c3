#include "compute/nbody/tree/split_build.hpp"

#include <utility>

#include "compute/nbody/tree/tree_force.hpp"

namespace clviz {

void exchangeEssentialTrees(const std::vector<TreeForce*>& trees) {
    const std::size_t p = trees.size();
    std::vector<std::vector<cl_float4>> roots(p);
    std::vector<std::vector<cl_float4>> boxes(p);  // what each domain's walk covers
    for (std::size_t d = 0; d < p; ++d) {
        roots[d] = trees[d]->domainRoots();
        boxes[d] = trees[d]->domainBoxes();
    }
    for (std::size_t d = 0; d < p; ++d) {
        std::vector<cl_float4> others;
        for (std::size_t e = 0; e < p; ++e)
            if (e != d) others.insert(others.end(), roots[e].begin(), roots[e].end());
        trees[d]->graftRoots(others);
    }
    for (std::size_t d = 0; d < p; ++d)
        for (std::size_t e = 0; e < p; ++e)
            if (e != d) trees[e]->graftEssential(trees[d]->essentialNodesFor(boxes[e]));
}

}  // namespace clviz
