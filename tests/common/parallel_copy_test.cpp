// parallelCopy copies every byte, on one thread and on several, at awkward sizes.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/parallel_copy.hpp"

namespace clviz {
namespace {

TEST(ParallelCopy, CopiesEveryByteAtAwkwardSizes) {
    // 0, 1, a prime, just under and over the threads' threshold, several threads' worth + odd.
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{4099}, (std::size_t{2} << 20) - 1,
          (std::size_t{4} << 20) + 3, (std::size_t{19} << 20) + 7}) {
        std::vector<unsigned char> src(n + 2), dst(n + 2, 0xAB);
        for (std::size_t i = 0; i < src.size(); ++i)
            src[i] = static_cast<unsigned char>((i * 131 + 7) % 251);
        parallelCopy(dst.data() + 1, src.data() + 1, n);
        EXPECT_EQ(dst[0], 0xAB) << "n = " << n;
        EXPECT_EQ(dst[n + 1], 0xAB) << "n = " << n;
        EXPECT_EQ(std::memcmp(dst.data() + 1, src.data() + 1, n), 0) << "n = " << n;
    }
}

}  // namespace
}  // namespace clviz
