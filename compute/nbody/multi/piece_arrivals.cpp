#include "compute/nbody/multi/piece_arrivals.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace clviz {

PieceArrivals::PieceArrivals(std::vector<std::vector<BodySlice>> pieces, std::size_t device)
    : pieces_(std::move(pieces)), device_(device) {
    for (const auto& domain : pieces_)
        left_.resize(std::max(left_.size(), domain.size()), 0);
    for (std::size_t e = 0; e < pieces_.size(); ++e)
        if (e != device_)
            for (std::size_t k = 0; k < pieces_[e].size(); ++k)
                left_[k] += pieces_[e][k].count;
}

std::vector<BodySlice> PieceArrivals::ranges(std::size_t k) const {
    std::vector<BodySlice> out;
    for (const auto& domain : pieces_)
        if (k < domain.size() && domain[k].count) out.push_back(domain[k]);
    return out;
}

std::size_t PieceArrivals::arrived(std::size_t begin, std::size_t count) {
    for (std::size_t e = 0; e < pieces_.size(); ++e) {
        if (e == device_) continue;
        const auto& domain = pieces_[e];
        for (std::size_t k = 0; k < domain.size(); ++k) {
            const BodySlice& piece = domain[k];
            if (begin < piece.begin || begin + count > piece.end()) continue;
            if (count > left_[k])
                throw Error("piece arrivals: more bodies of piece " + std::to_string(k) +
                            " than the other domains hold (a bug)");
            left_[k] -= count;
            return k;
        }
    }
    throw Error("piece arrivals: bodies " + std::to_string(begin) + " + " + std::to_string(count) +
                " lie in no other domain's piece (a bug)");
}

}  // namespace clviz
