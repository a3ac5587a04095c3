#pragma once
// Which walk pieces have reached one device (issue 32). Every domain is walked in pieces
// (cutIntoPieces) whose accelerations travel to every other device while the next piece is
// walked; a device that kicks every body scatters and kicks piece k of every domain at once, as
// soon as the other domains' pieces k are all in, beside its own walk of the later pieces.
// Host bookkeeping only: no OpenCL.
#include <cstddef>
#include <vector>

#include "compute/nbody/multi/slice_plan.hpp"

namespace clviz {

class PieceArrivals {
  public:
    // pieces[e]: domain e's pieces in order (tiling its slice; the domains' slices tile the
    // bodies in order); `device`: the receiving domain, whose own pieces never arrive.
    PieceArrivals(std::vector<std::vector<BodySlice>> pieces, std::size_t device);

    // The most pieces of any domain: piece indices run 0 .. pieceCount() - 1.
    std::size_t pieceCount() const { return left_.size(); }
    // Piece k of every domain that has one (this device's too), empty ones left out.
    std::vector<BodySlice> ranges(std::size_t k) const;
    // Whether no other domain's piece k has bodies still to arrive.
    bool complete(std::size_t k) const { return left_.at(k) == 0; }

    // Bodies begin .. begin + count - 1 of another domain came in (within one of its pieces):
    // returns that piece's index. Throws clviz::Error for bodies of no other domain's piece, or
    // more of a piece than it holds.
    std::size_t arrived(std::size_t begin, std::size_t count);

  private:
    std::vector<std::vector<BodySlice>> pieces_;
    std::size_t device_;
    std::vector<std::size_t> left_;  // per piece index: other domains' bodies still to arrive
};

}  // namespace clviz
