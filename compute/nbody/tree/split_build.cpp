#include "compute/nbody/tree/split_build.hpp"

#include <utility>

#include "compute/nbody/tree/tree_force.hpp"

namespace clviz {

void exchangeEssentialTrees(const std::vector<TreeForce*>& trees, const ForEachDevice& forEach,
                            const ExchangeLap& lap) {
    const std::size_t p = trees.size();
    const ForEachDevice serial = [p](const std::function<void(std::size_t)>& task) {
        for (std::size_t d = 0; d < p; ++d)
            task(d);
    };
    const ForEachDevice& run = forEach ? forEach : serial;
    const char* phase = "";
    const auto each = [&](const std::function<void(std::size_t)>& task) {
        run([&](std::size_t d) {
            const auto start = std::chrono::steady_clock::now();
            task(d);
            if (lap) lap(d, phase, start, std::chrono::steady_clock::now());
        });
    };
    // What each domain sends every other: its prefix table and its cells (before its moments are
    // done), its subtrees' roots (after).
    std::vector<TreeForce::DomainShare> shares(p);
    std::vector<const cl_uint*> index(p);
    phase = "share";
    each([&](std::size_t d) {
        shares[d] = trees[d]->domainShare();
        index[d] = trees[d]->domainIndex();  // each domain's slice of the sorted order
    });
    std::vector<std::vector<cl_int>> tables;
    for (const auto& s : shares)
        tables.push_back(s.table);
    // Each domain's nodes across domains, and what it has for every other domain's walk
    // (sent[d][e]: from d to e).
    std::vector<std::vector<cl_float4>> across(p);
    std::vector<std::vector<TreeForce::Essential>> sent(p);
    std::vector<const std::vector<cl_float4>*> cells;
    for (const auto& s : shares)
        cells.push_back(&s.cells);
    phase = "across and essential";
    each([&](std::size_t d) {
        trees[d]->buildAcross(tables);
        sent[d] = trees[d]->essentialFor(cells);
        across[d] = trees[d]->acrossRecords();
        trees[d]->domainRoots(shares[d]);
    });
    std::vector<const std::vector<cl_float4>*> acrossAll, rootsAll;
    std::vector<const std::vector<cl_int2>*> rootBodiesAll;
    for (std::size_t d = 0; d < p; ++d) {
        acrossAll.push_back(&across[d]);
        rootsAll.push_back(&shares[d].roots);
        rootBodiesAll.push_back(&shares[d].rootBodies);
    }
    phase = "graft";
    each([&](std::size_t d) {
        std::vector<TreeForce::Essential> received;
        for (std::size_t e = 0; e < p; ++e)
            if (e != d) received.push_back(sent[e][d]);
        trees[d]->graftDomains(acrossAll, rootsAll, rootBodiesAll, received);
        trees[d]->receiveOrder(index);  // behind the records, beside the walk
    });
}

}  // namespace clviz
