#include "common/parallel_copy.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace clviz {

void parallelCopy(void* dst, const void* src, std::size_t bytes) {
    constexpr std::size_t kBytesPerThread = std::size_t{2} << 20;
    const std::size_t threads =
        std::clamp<std::size_t>(bytes / kBytesPerThread, 1,
                                std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
    auto* out = static_cast<char*>(dst);
    const auto* in = static_cast<const char*>(src);
    if (threads == 1) {
        if (bytes) std::memcpy(out, in, bytes);
        return;
    }
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back([=] {
            const std::size_t lo = bytes * t / threads, hi = bytes * (t + 1) / threads;
            std::memcpy(out + lo, in + lo, hi - lo);
        });
    std::memcpy(out, in, bytes / threads);  // this thread takes the first part
    for (auto& th : pool)
        th.join();
}

}  // namespace clviz
