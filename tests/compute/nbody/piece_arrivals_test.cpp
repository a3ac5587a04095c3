// Which walk pieces have reached a device: every other domain's piece k counted in, the
// receiver's own pieces never awaited, uneven and empty domains.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "compute/nbody/multi/piece_arrivals.hpp"

namespace clviz {
namespace {

std::vector<std::vector<BodySlice>> cut(const std::vector<BodySlice>& slices, std::size_t pieces) {
    std::vector<std::vector<BodySlice>> out;
    for (const BodySlice& s : slices)
        out.push_back(cutIntoPieces(s, pieces, true));
    return out;
}

TEST(PieceArrivals, APieceIsCompleteWhenEveryOtherDomainsPieceIsIn) {
    // Three domains of 16 bodies in four halving pieces: 8, 4, 2, 2.
    const auto pieces = cut({{0, 16}, {16, 16}, {32, 16}}, 4);
    PieceArrivals in(pieces, 1);
    ASSERT_EQ(in.pieceCount(), 4u);
    for (std::size_t k = 0; k < 4; ++k)
        EXPECT_FALSE(in.complete(k));
    // Domain 0's first piece in two chunks, then domain 2's.
    EXPECT_EQ(in.arrived(0, 5), 0u);
    EXPECT_EQ(in.arrived(5, 3), 0u);
    EXPECT_FALSE(in.complete(0));
    EXPECT_EQ(in.arrived(32, 8), 0u);
    EXPECT_TRUE(in.complete(0));
    // The last pieces may come before the middle ones.
    EXPECT_EQ(in.arrived(14, 2), 3u);
    EXPECT_EQ(in.arrived(46, 2), 3u);
    EXPECT_TRUE(in.complete(3));
    EXPECT_FALSE(in.complete(1));
    // Piece 1 of every domain, this one's too.
    const auto r = in.ranges(1);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].begin, 8u);
    EXPECT_EQ(r[1].begin, 24u);
    EXPECT_EQ(r[2].begin, 40u);
    for (const BodySlice& s : r)
        EXPECT_EQ(s.count, 4u);
}

TEST(PieceArrivals, OwnPiecesNeverArriveAndEmptyDomainsAreNotAwaited) {
    // Domain 0 empty, domain 1 of 3 bodies (fewer bodies than pieces: 1, 1, 1), domain 2 of 1.
    const auto pieces = cut({{0, 0}, {0, 3}, {3, 1}}, 4);
    PieceArrivals in(pieces, 1);
    ASSERT_EQ(in.pieceCount(), 3u);
    EXPECT_FALSE(in.complete(0));  // domain 2's only piece
    EXPECT_TRUE(in.complete(1));   // only this domain has a piece 1
    EXPECT_TRUE(in.complete(2));
    EXPECT_EQ(in.arrived(3, 1), 0u);
    EXPECT_TRUE(in.complete(0));
    EXPECT_EQ(in.ranges(0).size(), 2u);
    EXPECT_EQ(in.ranges(2).size(), 1u);
    EXPECT_THROW(in.arrived(0, 1), Error);  // this domain's own bodies
    EXPECT_THROW(in.arrived(3, 1), Error);  // more than domain 2 holds
    EXPECT_THROW(in.arrived(4, 1), Error);  // past every body
}

}  // namespace
}  // namespace clviz
