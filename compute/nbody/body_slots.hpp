#pragma once
// Values read from NbodySimulation's state buffers, which hold the bodies by slot (the tree
// renumbers them into its Morton order: NbodySimulation::readSlotIds), put back in the order the
// bodies were loaded in.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace clviz {

// bySlot holds `per` values a body, slot after slot; slot s holds body ids[s]. Empty ids: the slots
// are the load order already. Throws clviz::Error when ids is not a permutation of the slots.
template <class T>
std::vector<T> inLoadOrder(std::vector<T> bySlot, const std::vector<std::uint32_t>& ids,
                           std::size_t per = 1) {
    if (ids.empty()) return bySlot;
    if (ids.size() * per != bySlot.size())
        throw Error("body ids for " + std::to_string(ids.size()) + " slots, values for " +
                    std::to_string(bySlot.size() / per));
    std::vector<T> out(bySlot.size());
    std::vector<bool> seen(ids.size(), false);
    for (std::size_t s = 0; s < ids.size(); ++s) {
        const std::size_t body = ids[s];
        if (body >= ids.size() || seen[body])
            throw Error("the bodies' slots are not a permutation (slot " + std::to_string(s) +
                        " holds body " + std::to_string(body) + ")");
        seen[body] = true;
        for (std::size_t k = 0; k < per; ++k)
            out[body * per + k] = bySlot[s * per + k];
    }
    return out;
}

}  // namespace clviz
