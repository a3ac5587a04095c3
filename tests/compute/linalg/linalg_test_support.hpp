#pragma once
// Shared by the linear-algebra tests: one OpenCL context per executable, random data from a
// fresh seed (printed with every failure; CLVIZ_TEST_SEED=<n> replays one), device round trips.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"

namespace clviz::test {

inline ComputeContext& context() {
    static std::unique_ptr<ComputeContext> cc = ComputeContext::create(DeviceRequest{});
    return *cc;
}

inline std::uint64_t testSeed() {
    static const std::uint64_t seed = [] {
        if (const char* s = std::getenv("CLVIZ_TEST_SEED"); s && *s)
            return std::uint64_t(std::stoull(s));
        return (std::uint64_t(std::random_device{}()) << 32) ^
               std::uint64_t(std::random_device{}());
    }();
    return seed;
}

inline std::string seedNote() {
    return "random seed " + std::to_string(testSeed()) +
           " (replay: CLVIZ_TEST_SEED=" + std::to_string(testSeed()) + ")";
}

// Uniform values in [lo, hi); `salt` gives each test its own stream from the one seed.
inline std::vector<float> randomFloats(std::size_t n, std::uint64_t salt, float lo = -1.0f,
                                       float hi = 1.0f) {
    std::mt19937_64 rng(testSeed() ^ (salt * 0x9e3779b97f4a7c15ull));
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v)
        x = d(rng);
    return v;
}

inline std::vector<std::uint8_t> randomBytes(std::size_t n, std::uint64_t salt) {
    std::mt19937_64 rng(testSeed() ^ (salt * 0x9e3779b97f4a7c15ull));
    std::vector<std::uint8_t> v(n);
    for (auto& x : v)
        x = static_cast<std::uint8_t>(rng() >> 56);
    return v;
}

template <typename T>
cl::Buffer upload(const std::vector<T>& v) {
    return cl::Buffer(context().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      std::max<std::size_t>(1, v.size()) * sizeof(T), const_cast<T*>(v.data()));
}

template <typename T>
std::vector<T> download(const cl::Buffer& b, std::size_t n) {
    std::vector<T> v(n);
    context().queue().enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(T), v.data());
    return v;
}

}  // namespace clviz::test
