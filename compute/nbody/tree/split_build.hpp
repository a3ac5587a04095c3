#pragma once
// The split build over several devices (issue 32): each device's TreeForce computes the moments of
// its own domain's nodes only (TreeForce::buildDomainSorted), and these exchanges give every
// device what one device's walk would read: the roots of every domain's subtrees (from which each
// computes the nodes across domains) and, from every other device, the nodes of that device's
// domain that its walk may open (its local essential tree). Through the host, blocking.
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "compute/nbody/for_each_device.hpp"

namespace clviz {

class TreeForce;

// Told, where given, when each device's part of each phase ran on the host ("share", "across and
// essential", "graft"), for a step's timeline.
using ExchangeLap = std::function<void(std::size_t device, const char* phase,
                                       std::chrono::steady_clock::time_point start,
                                       std::chrono::steady_clock::time_point end)>;

// trees[d] has run buildDomainSorted(..., bounds, d) with the same bounds and bodies. Afterwards
// each may walk its domain (walkSortedPiece), and each has every domain's slice of the sorted
// order on its way. Each phase runs over the devices with forEach (one after the other without
// it).
void exchangeEssentialTrees(const std::vector<TreeForce*>& trees, const ForEachDevice& forEach = {},
                            const ExchangeLap& lap = {});

}  // namespace clviz
