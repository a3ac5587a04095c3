// Do two in-order queues of one OpenCL device run kernels at the same time? The tree's walk in
// pieces (issue 32) loses a launch's tail per piece, which a second queue could fill only if the
// driver runs the next piece's work-groups while the last ones of a piece finish.
//   queue-overlap [device index]   (GPU devices of the first platform that has one)
// Prints, for a few shapes, each kernel's start and end (us, from the first start) and whether
// they overlapped: two short kernels of one work-group per compute unit, and a long kernel
// followed by a short one (the tail case).
#include <CL/opencl.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

const char* kSource = R"CL(
__kernel void spin(__global float* out, const int iters) {
    float a = get_global_id(0) * 1e-7f, b = 1.0001f;
    for (int i = 0; i < iters; ++i) a = mad(a, b, 1e-7f);
    if (a == 12345.0f) out[get_global_id(0)] = a;  // never: keeps the loop
}
)CL";

struct Span {
    cl_ulong start, end;
};

Span span(const cl::Event& e) {
    return {e.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
            e.getProfilingInfo<CL_PROFILING_COMMAND_END>()};
}

void runCase(const char* name, cl::Context& ctx, cl::Device& dev, cl::Kernel& k, cl::Buffer& out,
             std::size_t groupsA, int itersA, std::size_t groupsB, int itersB, bool twoQueues) {
    cl::CommandQueue q1(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl::CommandQueue q2(ctx, dev, CL_QUEUE_PROFILING_ENABLE);
    cl::CommandQueue& qb = twoQueues ? q2 : q1;
    for (int round = 0; round < 3; ++round) {  // the last round printed (warm)
        cl::Event a, b;
        k.setArg(0, out);
        k.setArg(1, itersA);
        q1.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groupsA * 128), cl::NDRange(128),
                                nullptr, &a);
        cl::Kernel k2 = k.clone();
        k2.setArg(1, itersB);
        qb.enqueueNDRangeKernel(k2, cl::NullRange, cl::NDRange(groupsB * 128), cl::NDRange(128),
                                nullptr, &b);
        q1.flush();
        qb.flush();
        q1.finish();
        qb.finish();
        if (round < 2) continue;
        const Span sa = span(a), sb = span(b);
        const cl_ulong t0 = std::min(sa.start, sb.start);
        const bool overlap = sa.start < sb.end && sb.start < sa.end;
        std::printf("%-34s A %8.1f-%8.1f us  B %8.1f-%8.1f us  %s\n", name, (sa.start - t0) / 1e3,
                    (sa.end - t0) / 1e3, (sb.start - t0) / 1e3, (sb.end - t0) / 1e3,
                    overlap ? "OVERLAP" : "serial");
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        std::vector<cl::Device> devices;
        for (auto& p : platforms) {
            std::vector<cl::Device> d;
            try {
                p.getDevices(CL_DEVICE_TYPE_GPU, &d);
            } catch (const cl::Error&) {
            }
            if (!d.empty()) {
                devices = d;
                break;
            }
        }
        if (devices.empty()) {
            for (auto& p : platforms) {  // a dry run on PoCL
                p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
                if (!devices.empty()) break;
            }
        }
        if (devices.empty()) {
            std::fprintf(stderr, "queue-overlap: no OpenCL device\n");
            return 1;
        }
        const std::size_t index = argc > 1 ? std::stoul(argv[1]) : 0;
        if (index >= devices.size()) {
            std::fprintf(stderr, "queue-overlap: no device %zu\n", index);
            return 1;
        }
        cl::Device dev = devices[index];
        const std::size_t cus = dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
        std::printf("device: %s (%zu compute units), driver %s\n",
                    dev.getInfo<CL_DEVICE_NAME>().c_str(), cus,
                    dev.getInfo<CL_DRIVER_VERSION>().c_str());
        cl::Context ctx(dev);
        cl::Program prog(ctx, kSource);
        prog.build({dev});
        cl::Kernel k(prog, "spin");
        cl::Buffer out(ctx, CL_MEM_READ_WRITE, 1 << 24);
        const int iters = argc > 2 ? std::stoi(argv[2]) : 200000;
        runCase("one queue, two small kernels", ctx, dev, k, out, cus, iters, cus, iters, false);
        runCase("two queues, two small kernels", ctx, dev, k, out, cus, iters, cus, iters, true);
        runCase("two queues, long then short", ctx, dev, k, out, 8 * cus, iters, cus, iters, true);
        runCase("two queues, 1 group then full", ctx, dev, k, out, 1, 4 * iters, 8 * cus, iters,
                true);
        return 0;
    } catch (const cl::Error& e) {
        std::fprintf(stderr, "queue-overlap: %s (%d)\n", e.what(), e.err());
        return 1;
    }
}
