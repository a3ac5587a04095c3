#pragma once
// A fresh random seed per executable run, unless CLVIZ_TEST_SEED=<n> fixes it; seedNote() goes
// with every failure so that the run can be replayed.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace clviz::test {

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

}  // namespace clviz::test
