#pragma once
// Two devices of the first platform that has two (CTest asks PoCL for two with
// POCL_DEVICES="pthread pthread"), created on first use and kept for the executable's tests.
#include <memory>

#include "compute/core/compute_context.hpp"
#include "compute/core/device_info.hpp"

namespace clviz::test {

struct TwoDevices {
    std::unique_ptr<ComputeContext> a, b;  // both null when no platform has two devices
    TwoDevices() {
        const auto platforms = queryPlatforms();
        for (std::size_t p = 0; p < platforms.size(); ++p)
            if (platforms[p].devices.size() >= 2) {
                a = std::make_unique<ComputeContext>(platforms, DeviceChoice{int(p), 0, "test"});
                b = std::make_unique<ComputeContext>(platforms, DeviceChoice{int(p), 1, "test"});
                return;
            }
    }
};

inline TwoDevices& twoDevices() {
    static TwoDevices d;
    return d;
}

}  // namespace clviz::test
