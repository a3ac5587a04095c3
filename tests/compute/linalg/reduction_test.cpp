// Every reduction variant, op and type against the CPU reference on sizes 1, primes and
// non-multiples of 4 and of the work-group. uint results are exact (sums wrap like C's);
// float min/max are exact, float sums within FP32 tree rounding of the double sum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "compute/linalg/reduction.hpp"
#include "tests/compute/linalg/linalg_test_support.hpp"

using namespace clviz;
using namespace clviz::test;

namespace {

const std::size_t kSizes[] = {1, 2, 3, 5, 97, 256, 1021, 4099, 65537, 300007};
const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max};

class ReduceVariants : public ::testing::TestWithParam<int> {};

std::vector<unsigned> randomUints(std::size_t n, std::uint64_t salt) {
    const auto bytes = randomBytes(n * 4, salt);
    std::vector<unsigned> v(n);
    std::memcpy(v.data(), bytes.data(), n * 4);
    return v;
}

}  // namespace

TEST_P(ReduceVariants, UintIsExact) {
    const auto v = static_cast<ReduceVariant>(GetParam());
    Reduction r(context());
    for (std::size_t n : kSizes) {
        const auto data = randomUints(n, n);  // full 32-bit range: sums wrap many times
        cl::Buffer d = upload(data);
        for (ReduceOp op : kOps)
            EXPECT_EQ(r.reduce(v, op, ReduceType::Uint, d, n).value,
                      referenceReduce(op, data.data(), n))
                << reduceOpName(op) << " of " << n << "; " << seedNote();
    }
}

TEST_P(ReduceVariants, FloatMatchesTheDoubleReference) {
    const auto v = static_cast<ReduceVariant>(GetParam());
    Reduction r(context());
    for (std::size_t n : kSizes) {
        const auto data = randomFloats(n, n + 1, -1.0f, 3.0f);
        cl::Buffer d = upload(data);
        for (ReduceOp op : kOps) {
            const double want = referenceReduce(op, data.data(), n);
            const double got = r.reduce(v, op, ReduceType::Float, d, n).value;
            if (op == ReduceOp::Sum)
                EXPECT_NEAR(got, want, 1e-5 * 3.0 * double(n)) << n << "; " << seedNote();
            else
                EXPECT_EQ(got, want) << reduceOpName(op) << " of " << n << "; " << seedNote();
        }
    }
}

TEST_P(ReduceVariants, OtherWorkGroupSizesAndRepeatedLaunches) {
    const auto v = static_cast<ReduceVariant>(GetParam());
    Reduction r(context());
    const auto data = randomUints(10007, 5);
    cl::Buffer d = upload(data);
    for (int wg : {32, 64, 128})
        for (int rep = 0; rep < 2; ++rep)  // the one-pass ticket must be back at zero
            EXPECT_EQ(r.reduce(v, ReduceOp::Max, ReduceType::Uint, d, data.size(), wg).value,
                      referenceReduce(ReduceOp::Max, data.data(), data.size()));
}

INSTANTIATE_TEST_SUITE_P(All, ReduceVariants, ::testing::Range(0, kReduceVariantCount),
                         [](const auto& info) {
                             std::string id =
                                 reduceVariantInfo(static_cast<ReduceVariant>(info.param)).id;
                             for (auto& ch : id)
                                 if (ch == '-') ch = '_';
                             return id;
                         });

TEST(Reduction, RefusesBadInput) {
    Reduction r(context());
    cl::Buffer d = upload(std::vector<float>(8));
    EXPECT_THROW(r.reduce(ReduceVariant::ConflictFree, ReduceOp::Sum, ReduceType::Float, d, 0),
                 Error);
    EXPECT_THROW(r.reduce(ReduceVariant::ConflictFree, ReduceOp::Sum, ReduceType::Float, d, 9),
                 Error);
    EXPECT_THROW(r.reduce(ReduceVariant::ConflictFree, ReduceOp::Sum, ReduceType::Float, d, 8, 96),
                 Error);
    EXPECT_THROW(reduceVariantFromId("reduce-nope"), Error);
}

TEST(Reduction, TheSubgroupVariantFallsBackWhereThereAreNoSubgroups) {
    if (context().info().hasExtension("cl_khr_subgroups") ||
        context().info().hasExtension("cl_nv_compiler_options"))
        GTEST_SKIP() << "this device has sub-groups or warp shuffles";
    Reduction r(context());
    cl::Buffer d = upload(std::vector<unsigned>{1, 2, 3});
    const ReduceResult res =
        r.reduce(ReduceVariant::Subgroup, ReduceOp::Sum, ReduceType::Uint, d, 3);
    EXPECT_EQ(res.value, 6);
    EXPECT_FALSE(res.subgroups);
}
