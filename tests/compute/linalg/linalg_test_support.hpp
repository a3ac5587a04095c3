#pragma once
// Shared by the linear-algebra tests: random data from the run's seed (tests/support/) and device
// round trips on the executable's one context.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "tests/support/device_context.hpp"
#include "tests/support/random_seed.hpp"

namespace clviz::test {

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
