#include "compute/image/filter.hpp"

#include "common/error.hpp"
#include "compute/core/device_info.hpp"
#include "compute/core/profiling.hpp"

namespace clviz {

double EnqueuedWork::milliseconds() const {
    return spanMilliseconds(first, last);
}

void checkDeviceBufferFits(const DeviceInfo& device, ImageSize size, const char* what) {
    const std::string dims = std::to_string(size.width) + " x " + std::to_string(size.height);
    if (size.empty()) throw Error(std::string(what) + " is empty (" + dims + ")");
    if (size.pixels() >= (std::size_t(1) << 32))
        throw Error(std::string(what) + " is " + dims +
                    " pixels; the image lab handles fewer than 2^32 pixels");
    if (device.maxAllocBytes > 0 && size.bytes() > device.maxAllocBytes)
        throw Error(std::string(what) + " (" + dims + ", " + formatBytes(size.bytes()) +
                    ") is larger than the largest buffer " + device.name + " allocates (" +
                    formatBytes(device.maxAllocBytes) + ")");
}

}  // namespace clviz
