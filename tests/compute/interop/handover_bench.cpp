// clviz-interop-bench: the per-frame hand-over cost of each interop path, measured alone (no
// simulation, no drawing), beside a same-run device-to-device copy as the bandwidth baseline.
//   buffers: N float4 positions through a BufferBridge (publish + view, latency 0); external
//            memory both with exported semaphores and synchronised on the CPU where both exist
//   texture: an S x S RGBA8 image through SharedTexture::copyFrom
// Every path's result is checked byte for byte against the CL data before it is timed.
// Usage: clviz-interop-bench [N] [S] [REPS]   (defaults 1048576 8192 20; GL window needed)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/interop/buffer_bridge.hpp"
#include "compute/interop/external_memory.hpp"
#include "compute/interop/texture_share.hpp"
#include "tests/compute/interop/gl_context.hpp"

namespace {

using namespace clviz;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::vector<std::uint8_t> pattern(std::size_t bytes, unsigned seed) {
    std::vector<std::uint8_t> v(bytes);
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& b : v) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        b = std::uint8_t(x);
    }
    return v;
}

void row(const char* what, const char* path, std::size_t bytes, double wallMs, double deviceMs,
         double hostMs, const std::string& note) {
    std::printf("%-8s %-16s %10.1f MiB  wall %9.3f ms  device %9.3f ms  host %9.3f ms  %s\n", what,
                path, double(bytes) / (1 << 20), wallMs, deviceMs, hostMs, note.c_str());
    std::fflush(stdout);
}

bool benchBuffer(ComputeContext& cc, const InteropCaps& caps, InteropPath path, std::size_t n,
                 int reps) {
    const std::size_t bytes = n * 16;
    const auto data = pattern(bytes, 1);
    cl::Buffer src(cc.context(), CL_MEM_READ_WRITE, bytes);
    cc.queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, data.data());
    std::unique_ptr<BufferBridge> bridge;
    try {
        bridge = createBufferBridge(path, cc, bytes, caps);
    } catch (const Error& e) {
        row("buffer", interopPathName(path), bytes, 0, 0, 0,
            std::string("unavailable: ") + e.what());
        return true;
    }
    bridge->setLatency(0);
    std::vector<double> wall, device, host;
    bool exact = true;
    int directMismatches = 0;
    for (int i = 0; i < reps + 3; ++i) {  // three in the ring to warm up every slot
        const auto t0 = Clock::now();
        bridge->publish(src, bytes);
        BridgeView v = bridge->view();
        const double w = msSince(t0);
        if (i < 3) {  // every slot checked byte for byte once, as drawing reads it (GPU)
            exact = exact && test::readGlBufferOnGpu(v.buffer, v.offset, bytes) == data;
            // Diagnostic only: GL's direct CPU read of the same bytes (stale on NVIDIA's driver
            // 580 for imported memory, with or without semaphores).
            std::vector<std::uint8_t> direct(bytes);
            glBindBuffer(GL_COPY_READ_BUFFER, v.buffer);
            glGetBufferSubData(GL_COPY_READ_BUFFER, v.offset, GLsizeiptr(bytes), direct.data());
            glBindBuffer(GL_COPY_READ_BUFFER, 0);
            if (direct != data) ++directMismatches;
        } else {
            wall.push_back(w);
            device.push_back(bridge->lastTiming().deviceMs);
            host.push_back(bridge->lastTiming().hostMs);
        }
        bridge->drawn();
        glFinish();
    }
    row("buffer", interopPathName(path), bytes, median(wall), median(device), median(host),
        (exact ? "byte-exact on the GPU, " : "WRONG BYTES, ") +
            (directMismatches
                 ? std::to_string(directMismatches) + "/3 stale direct glGetBufferSubData reads, "
                 : std::string("direct reads exact, ")) +
            bridge->description());
    return exact;
}

bool benchTexture(ComputeContext& cc, InteropPath path, int size, int reps) {
    const std::size_t bytes = std::size_t(size) * size * 4;
    const auto data = pattern(bytes, 2);
    cl::Buffer src(cc.context(), CL_MEM_READ_WRITE, bytes);
    cc.queue().enqueueWriteBuffer(src, CL_TRUE, 0, bytes, data.data());
    SharedTexture texture(cc, {path, "bench"}, size, size);
    texture.copyFrom(src);
    const bool exact = texture.readBack() == data;
    std::vector<double> wall, device, host;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        TextureTransferTiming t = texture.copyFrom(src);
        glFinish();  // the texture is usable by GL: the whole hand-over is in the wall time
        wall.push_back(msSince(t0));
        device.push_back(t.deviceMs);
        host.push_back(t.hostMs);
    }
    std::string note = exact ? "byte-exact" : "WRONG BYTES";
    if (!texture.fallbackReason().empty()) note += ", " + texture.fallbackReason();
    if (!texture.syncDescription().empty()) note += ", sync by " + texture.syncDescription();
    row("texture", interopPathName(texture.path()), bytes, median(wall), median(device),
        median(host), note);
    return exact;
}

void baseline(ComputeContext& cc, std::size_t bytes, int reps) {
    cl::Buffer a(cc.context(), CL_MEM_READ_WRITE, bytes), b(cc.context(), CL_MEM_READ_WRITE, bytes);
    cc.queue().enqueueFillBuffer(a, std::uint8_t(1), 0, bytes);
    std::vector<double> ms;
    for (int i = 0; i < reps + 2; ++i) {
        cl::Event e;
        cc.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
        e.wait();
        if (i >= 2) ms.push_back(eventMilliseconds(e));
    }
    const double m = median(ms);
    std::printf("baseline clEnqueueCopyBuffer %.1f MiB: %.3f ms = %.1f GB/s (read + write)\n",
                double(bytes) / (1 << 20), m, 2.0 * double(bytes) / (m * 1e6));
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1048576;
    const int size = argc > 2 ? std::atoi(argv[2]) : 8192;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
    if (n == 0 || size <= 0 || reps <= 0) {
        std::fprintf(stderr, "usage: clviz-interop-bench [N] [S] [REPS]\n");
        return 2;
    }
    try {
        test::HiddenGlContext gl(64, 64);
        if (!gl.ok()) throw Error(gl.error());
        auto cc = ComputeContext::create({});
        InteropCaps caps = detectClInteropCaps(cc->info().extensions);
        detectGlInteropCaps(caps);
        probeExternalMemory(*cc, caps);
        std::printf("device: %s | GL: %s | %s\n", cc->info().name.c_str(),
                    reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                    describeInteropCaps(caps).c_str());
        baseline(*cc, std::size_t(size) * size * 4, reps);
        bool ok = true;
        for (InteropPath p : {InteropPath::HostCopy, InteropPath::ExternalMemory})
            ok = benchBuffer(*cc, caps, p, n, reps) && ok;
        if (caps.externalSemaphores) {  // the same path synchronised on the CPU, side by side
            InteropCaps cpuSync = caps;
            cpuSync.externalSemaphores = false;
            cpuSync.externalSyncProbe = "turned off for comparison";
            ok = benchBuffer(*cc, cpuSync, InteropPath::ExternalMemory, n, reps) && ok;
        }
        for (InteropPath p : {InteropPath::HostCopy, InteropPath::ExternalMemory})
            ok = benchTexture(*cc, p, size, std::max(3, reps / 2)) && ok;
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "clviz-interop-bench: %s\n", e.what());
        return 1;
    }
}
