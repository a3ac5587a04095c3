#pragma once
// Shared by the device tree's tests (tree_test.cpp, tree_far_field_test.cpp): bodies' positions on
// the device, one pass of a TreeForce over them, and their positions for the double-precision
// references.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compute/nbody/body.hpp"
#include "compute/nbody/reference.hpp"
#include "compute/nbody/tree/tree_force.hpp"
#include "tests/support/device_context.hpp"

namespace clviz::test {

// The bodies' positions (and masses) in a device buffer of the test context.
inline cl::Buffer positionBuffer(const std::vector<Body>& bodies) {
    auto& cc = context();
    const std::size_t n = bodies.size();
    std::vector<Float4> pos(n);
    for (std::size_t i = 0; i < n; ++i)
        pos[i] = bodies[i].pos;
    cl::Buffer posBuf(cc.context(), CL_MEM_READ_WRITE, n * 16);
    cc.queue().enqueueWriteBuffer(posBuf, CL_TRUE, 0, n * 16, pos.data());
    return posBuf;
}

// `t`'s accelerations and potentials (w) for `bodies` at its current theta, read back.
inline std::vector<Float4> treeForces(TreeForce& t, const std::vector<Body>& bodies,
                                      float softening) {
    auto& cc = context();
    const std::size_t n = bodies.size();
    const cl::Buffer posBuf = positionBuffer(bodies);
    cl::Buffer accBuf(cc.context(), CL_MEM_READ_WRITE, n * 16);
    t.compute(posBuf, n, softening, accBuf);
    std::vector<Float4> acc(n);
    cc.queue().enqueueReadBuffer(accBuf, CL_TRUE, 0, n * 16, acc.data());
    return acc;
}

// Two runs of the same tree whose sums may be added in another order: every body's acceleration
// within `relative` of its magnitude, and its potential within `relative` of its own, when
// `potential` is asked for (0: the same bits).
::testing::AssertionResult sameWithinRounding(const std::vector<Float4>& got,
                                              const std::vector<Float4>& want, bool potential,
                                              double relative) {
    if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double dx = got[i].x - want[i].x, dy = got[i].y - want[i].y,
                     dz = got[i].z - want[i].z;
        const double a = std::sqrt(double(want[i].x) * want[i].x + double(want[i].y) * want[i].y +
                                   double(want[i].z) * want[i].z);
        const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
        if (!(d <= relative * a))
            return ::testing::AssertionFailure() << "body " << i << ": acceleration differs by "
                                                 << d << " (" << d / a << " of its " << a << ")";
        if (potential &&
            !(std::abs(double(got[i].w) - want[i].w) <= relative * std::abs(want[i].w)))
            return ::testing::AssertionFailure() << "body " << i << ": potential";
    }
    return ::testing::AssertionSuccess();
}

// The bodies' positions and masses in double, for referenceForces and the reference tree.
inline std::vector<Vec4d> positions(const std::vector<Body>& bodies) {
    std::vector<Vec4d> p;
    for (const auto& b : bodies)
        p.push_back({b.pos.x, b.pos.y, b.pos.z, b.pos.w});
    return p;
}

}  // namespace clviz::test
