// What a timeline calls each command: a noted kernel's function name, else the command's type.
#include <gtest/gtest.h>

#include "compute/core/command_names.hpp"
#include "tests/support/device_context.hpp"

namespace clviz {
namespace {

using test::context;

const char* const kSource = "__kernel void add_one(__global int* x) { x[get_global_id(0)] += 1; }";

TEST(CommandNames, NamesNotedKernelsAndEveryOtherCommandByItsType) {
    auto& cc = context();
    cl::Program program(cc.context(), kSource, true);
    cl::Kernel kernel(program, "add_one");
    cl::Buffer buffer(cc.context(), CL_MEM_READ_WRITE, 64 * 4);
    auto& q = cc.queue();
    cl::Event fill, run, unnoted, read, marker;
    q.enqueueFillBuffer(buffer, cl_int(0), 0, 64 * 4, nullptr, &fill);
    kernel.setArg(0, buffer);
    q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(64), cl::NullRange, nullptr, &run);
    q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(64), cl::NullRange, nullptr,
                           &unnoted);
    int out[64];
    q.enqueueReadBuffer(buffer, CL_FALSE, 0, sizeof out, out, nullptr, &read);
    q.enqueueMarkerWithWaitList(nullptr, &marker);
    q.finish();
    CommandNames names;
    names.note(run, kernel);
    EXPECT_EQ(names.of(run), "add_one");
    EXPECT_EQ(names.of(unnoted), "kernel");
    EXPECT_EQ(names.of(fill), "fill buffer");
    EXPECT_EQ(names.of(read), "read buffer");
    EXPECT_EQ(names.of(marker), "marker");
    EXPECT_EQ(names.of(cl::Event()), "");
    names.clear();
    EXPECT_EQ(names.of(run), "kernel");
    EXPECT_EQ(out[0], 2);
}

TEST(CommandNames, NamesUnknownTypesByNumber) {
    EXPECT_EQ(commandTypeName(CL_COMMAND_NDRANGE_KERNEL), "kernel");
    EXPECT_EQ(commandTypeName(CL_COMMAND_COPY_BUFFER), "copy buffer");
    EXPECT_EQ(commandTypeName(0x9999), "command 39321");
}

}  // namespace
}  // namespace clviz
