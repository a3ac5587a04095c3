#include "compute/nbody/tree/split_build.hpp"

#include <utility>

#include "compute/nbody/tree/tree_force.hpp"

namespace clviz {

void exchangeEssentialTrees(const std::vector<TreeForce*>& trees) {
    const std::size_t p = trees.size();
    // What each domain sends every other: its prefix table, its subtrees' roots, its cells and
    // its slice of the sorted order.
    std::vector<TreeForce::DomainShare> shares;
    std::vector<std::vector<cl_int>> tables;
    std::vector<std::vector<cl_uint>> index(p);
    for (std::size_t d = 0; d < p; ++d) {
        shares.push_back(trees[d]->domainShare());
        tables.push_back(shares.back().table);
        index[d] = trees[d]->domainIndex();
    }
    std::vector<cl_float4> across, roots;
    std::vector<cl_int2> rootBodies;
    for (std::size_t d = 0; d < p; ++d) {
        const auto mine = trees[d]->buildAcross(tables);
        across.insert(across.end(), mine.begin(), mine.end());
        roots.insert(roots.end(), shares[d].roots.begin(), shares[d].roots.end());
        rootBodies.insert(rootBodies.end(), shares[d].rootBodies.begin(),
                          shares[d].rootBodies.end());
    }
    // received[e]: what every other domain's walk-side test sent domain e.
    std::vector<TreeForce::Essential> received(p);
    for (std::size_t d = 0; d < p; ++d)
        for (std::size_t e = 0; e < p; ++e) {
            if (e == d) continue;
            const TreeForce::Essential sent = trees[d]->essentialFor(shares[e].cells);
            received[e].nodes.insert(received[e].nodes.end(), sent.nodes.begin(), sent.nodes.end());
            received[e].bodies.insert(received[e].bodies.end(), sent.bodies.begin(),
                                      sent.bodies.end());
        }
    for (std::size_t d = 0; d < p; ++d) {
        std::vector<const std::vector<cl_uint>*> slices(p, nullptr);
        for (std::size_t e = 0; e < p; ++e)
            if (e != d) slices[e] = &index[e];
        trees[d]->graftDomains(across, roots, rootBodies, received[d], slices);
    }
}

}  // namespace clviz
