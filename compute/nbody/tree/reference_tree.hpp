#pragma once
// The double-precision CPU Barnes-Hut tree: the same algorithm and opening rule as the device
// tree (kernels/nbody_tree.cl): Morton keys over the bounding cube, Karras radix tree over the
// sorted keys with the index as tie-break, monopole and quadrupole moments, and walks by groups
// (the largest subtrees of at most groupSize bodies) accepting a cell when l / theta + delta <
// distance from its centre of mass to the group's bounding box. Used by the tests and,
// multi-threaded, as the CPU baseline's tree row.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace clviz {

// Bits per axis of the Morton keys, here and on the device (TreeForce passes it as -DKEY_BITS):
// 3 x 21 = 63-bit keys.
inline constexpr int kTreeKeyBits = 21;

struct ReferenceTree {
    // Sorted order and the tree over it (internal nodes 0 .. n-2; child c < 0: leaf ~c).
    std::vector<unsigned> sortedIndex;
    std::vector<std::array<int, 2>> children, ranges;
    std::vector<std::array<double, 4>> com;   // centre of mass, mass
    std::vector<std::array<double, 6>> quad;  // traceless quadrupole about the centre of mass:
                                              // sum m (3 y y^T - |y|^2 I): xx yy zz xy xz yz
    std::vector<double> crit;                 // opening radius l / theta + delta
};

struct ReferenceTreeOptions {
    double theta = 0.5;
    int groupSize = 128;   // most bodies per walk group, as TreeForceOptions
    int leafSize = 4;      // as TreeForceOptions
    unsigned threads = 1;  // walk threads (0 = hardware concurrency)
};

// Each body's Morton key over the bounding cube of the finite positions (kTreeKeyBits a side):
// what the tree sorts by, the index breaking ties.
std::vector<std::uint64_t> referenceMortonKeys(const std::vector<std::array<double, 4>>& pos);

// Builds the tree over `pos` (xyz, mass) and returns accelerations (xyz) in the input order.
// `tree`, when given, receives the tree.
std::vector<std::array<double, 3>> referenceTreeForces(
    const std::vector<std::array<double, 4>>& pos, double softening,
    const ReferenceTreeOptions& options, ReferenceTree* tree = nullptr);

}  // namespace clviz
