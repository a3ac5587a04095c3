// SliceGather on two PoCL devices (CTest sets POCL_DEVICES="pthread pthread"): after run(), every
// device's buffer holds every slice, in one chunk or many, with uneven and empty slices, and call
// after call through the same host area.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "compute/core/compute_context.hpp"
#include "compute/nbody/multi/slice_gather.hpp"
#include "tests/support/two_devices.hpp"

namespace clviz {
namespace {

class SliceGatherTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(test::twoDevices().a) << "needs a platform with two devices: run under CTest";
    }
    ComputeContext& a() { return *test::twoDevices().a; }
    ComputeContext& b() { return *test::twoDevices().b; }
};

constexpr std::size_t kBytes = 16;  // one float4 a body

// Two devices' buffers of n bodies, the gather between them and its host area; each round's
// pattern and the check that a device's buffer holds all of it.
struct GatherRig {
    GatherRig(ComputeContext& a, ComputeContext& b, std::size_t n, std::size_t chunkBytes)
        : n(n),
          devices{&a, &b},
          gather(devices, chunkBytes),
          host(std::max<std::size_t>(1, n) * kBytes) {
        for (ComputeContext* cc : devices)
            buffers.emplace_back(cc->context(), CL_MEM_READ_WRITE,
                                 std::max<std::size_t>(1, n) * kBytes);
    }
    std::vector<float> pattern(int round) const {
        std::vector<float> values(4 * n);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = float(round * 1000003 + static_cast<long>(i));
        return values;
    }
    void write(std::size_t d, const std::vector<float>& values) {
        if (n)
            devices[d]->queue().enqueueWriteBuffer(buffers[d], CL_TRUE, 0, n * kBytes,
                                                   values.data());
    }
    void expectHolds(std::size_t d, const std::vector<float>& want, int round) {
        std::vector<float> got(4 * n);
        if (n)
            devices[d]->queue().enqueueReadBuffer(buffers[d], CL_TRUE, 0, n * kBytes, got.data());
        EXPECT_TRUE(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0)
            << "device " << d << ", round " << round;
    }
    std::vector<const cl::Buffer*> pointers() const { return {&buffers[0], &buffers[1]}; }

    std::size_t n;
    std::vector<ComputeContext*> devices;
    SliceGather gather;
    std::vector<cl::Buffer> buffers;
    std::vector<char> host;
};

// Device d's buffer starts with its own slice filled with round-specific values and the rest
// poisoned; afterwards both must hold the whole pattern.
void expectEveryDeviceHoldsEverySlice(ComputeContext& a, ComputeContext& b, std::size_t n,
                                      std::vector<BodySlice> slices, std::size_t chunkBytes) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", chunk " + std::to_string(chunkBytes) +
                 " bytes, first slice " + std::to_string(slices[0].count));
    GatherRig rig(a, b, n, chunkBytes);
    for (int round = 0; round < 3; ++round) {
        const std::vector<float> want = rig.pattern(round);
        for (std::size_t d = 0; d < 2; ++d) {
            std::vector<float> start(4 * n, -1.0f);
            std::copy(want.begin() + 4 * slices[d].begin, want.begin() + 4 * slices[d].end(),
                      start.begin() + 4 * slices[d].begin);
            rig.write(d, start);
        }
        std::vector<std::vector<cl::Event>> events(2);
        const std::vector<double> done =
            rig.gather.run(rig.pointers(), slices, kBytes, rig.host.data(), events);
        ASSERT_EQ(done.size(), 2u);
        for (std::size_t d = 0; d < 2; ++d) {
            rig.expectHolds(d, want, round);
            EXPECT_GE(done[d], 0);
        }
    }
}

TEST_F(SliceGatherTest, EveryDeviceGetsEverySliceInOneChunkOrMany) {
    // 1031 bodies of 16 bytes: chunks of one body, of 7 (a prime), of 64, and one for all.
    for (std::size_t chunk : {16u, 112u, 1024u, 1u << 20})
        expectEveryDeviceHoldsEverySlice(a(), b(), 1031, {{0, 400}, {400, 631}}, chunk);
}

TEST_F(SliceGatherTest, EmptySlicesOnEitherSide) {
    expectEveryDeviceHoldsEverySlice(a(), b(), 257, {{0, 0}, {0, 257}}, 112);
    expectEveryDeviceHoldsEverySlice(a(), b(), 257, {{0, 257}, {257, 0}}, 112);
    expectEveryDeviceHoldsEverySlice(a(), b(), 1, {{0, 1}, {1, 0}}, 16);
}

// Slices still being computed: each device's producer writes its pieces on its own queue (here,
// copies of the round's values), and every piece reaches the other device; the pieces tile each
// slice, in order, empty slices included.
void expectProducedPiecesReachEveryDevice(ComputeContext& a, ComputeContext& b, std::size_t n,
                                          std::vector<BodySlice> slices, std::size_t pieces,
                                          std::size_t chunkBytes) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::to_string(pieces) + " pieces, chunk " +
                 std::to_string(chunkBytes) + " bytes, first slice " +
                 std::to_string(slices[0].count));
    GatherRig rig(a, b, n, chunkBytes);
    for (int round = 0; round < 2; ++round) {
        const std::vector<float> want = rig.pattern(round);
        for (std::size_t d = 0; d < 2; ++d)
            rig.write(d, std::vector<float>(4 * n, -1.0f));
        std::vector<std::size_t> nextBody{slices[0].begin, slices[1].begin};
        auto produce = [&](std::size_t d, std::size_t begin, std::size_t count) {
            EXPECT_EQ(begin, nextBody[d]) << "device " << d << ": pieces out of order";
            EXPECT_GT(count, 0u);
            nextBody[d] = begin + count;
            cl::Event written;
            rig.devices[d]->queue().enqueueWriteBuffer(rig.buffers[d], CL_FALSE, begin * kBytes,
                                                       count * kBytes, want.data() + 4 * begin,
                                                       nullptr, &written);
            return written;
        };
        std::vector<std::vector<cl::Event>> events(2);
        rig.gather.run(rig.pointers(), slices, kBytes, rig.host.data(), events, pieces, produce);
        for (std::size_t d = 0; d < 2; ++d) {
            EXPECT_EQ(nextBody[d], slices[d].end()) << "device " << d << ": slice not tiled";
            rig.expectHolds(d, want, round);
        }
    }
}

TEST_F(SliceGatherTest, ProducedPiecesReachEveryDevice) {
    for (std::size_t pieces : {1u, 3u, 7u})
        for (std::size_t chunk : {16u, 112u, 1u << 20})
            expectProducedPiecesReachEveryDevice(a(), b(), 1031, {{0, 400}, {400, 631}}, pieces,
                                                 chunk);
    expectProducedPiecesReachEveryDevice(a(), b(), 257, {{0, 0}, {0, 257}}, 4, 112);
    expectProducedPiecesReachEveryDevice(a(), b(), 3, {{0, 1}, {1, 2}}, 5, 16);
}

// The pieces enqueued on both devices at once (a thread each), and the arrival hook: told of
// chunks that tile exactly the other device's slice, its work (here a copy of each chunk into a
// second buffer) enqueued after that chunk's copy and waited for by the device's queue.
TEST_F(SliceGatherTest, ArrivalsTileTheIncomingSlicesAndTheirWorkIsWaitedFor) {
    const std::size_t n = 1031;
    const std::vector<BodySlice> slices = {{0, 400}, {400, 631}};
    GatherRig rig(a(), b(), n, 112);
    std::vector<cl::Buffer> seen;
    for (ComputeContext* cc : rig.devices)
        seen.emplace_back(cc->context(), CL_MEM_READ_WRITE, n * kBytes);
    const std::vector<float> want = rig.pattern(3);
    for (std::size_t d = 0; d < 2; ++d) {
        rig.write(d, std::vector<float>(4 * n, -1.0f));
        rig.devices[d]->queue().enqueueWriteBuffer(seen[d], CL_TRUE, 0, n * kBytes,
                                                   std::vector<float>(4 * n, -2.0f).data());
    }
    auto produce = [&](std::size_t d, std::size_t begin, std::size_t count) {
        cl::Event written;
        rig.devices[d]->queue().enqueueWriteBuffer(rig.buffers[d], CL_FALSE, begin * kBytes,
                                                   count * kBytes, want.data() + 4 * begin, nullptr,
                                                   &written);
        return written;
    };
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> arrived(2);
    auto arrival = [&](std::size_t d, std::size_t begin, std::size_t count,
                       const cl::Event& copied) {
        arrived[d].emplace_back(begin, count);
        const std::vector<cl::Event> after{copied};
        cl::Event used;
        rig.devices[d]->queue().enqueueCopyBuffer(rig.buffers[d], seen[d], begin * kBytes,
                                                  begin * kBytes, count * kBytes, &after, &used);
        return used;
    };
    std::atomic<int> tasks{0};
    auto together = [&](const std::function<void(std::size_t)>& task) {
        std::thread other([&] { task(1); });
        task(0);
        other.join();
        tasks += 2;
    };
    std::vector<std::vector<cl::Event>> events(2);
    rig.gather.run(rig.pointers(), slices, kBytes, rig.host.data(), events, 3, produce, true,
                   arrival, together);
    EXPECT_EQ(tasks.load(), 2);
    for (std::size_t d = 0; d < 2; ++d) {
        rig.expectHolds(d, want, 3);
        const BodySlice& other = slices[1 - d];
        std::size_t next = other.begin;
        for (const auto& [begin, count] : arrived[d]) {
            EXPECT_EQ(begin, next) << "device " << d;
            next = begin + count;
        }
        EXPECT_EQ(next, other.end()) << "device " << d;
        std::vector<float> got(4 * n);
        rig.devices[d]->queue().enqueueReadBuffer(seen[d], CL_TRUE, 0, n * kBytes, got.data());
        for (std::size_t i = other.begin; i < other.end(); ++i)
            ASSERT_EQ(got[4 * i], want[4 * i]) << "device " << d << ", body " << i;
    }
}

}  // namespace
}  // namespace clviz
