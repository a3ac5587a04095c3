#include "compute/matrix_view/matrix_image.hpp"

#include <climits>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"

namespace clviz {

namespace {

constexpr const char* kFile = "matrix_view.cl";
constexpr std::size_t kGroup = 64;

void checkArgs(std::size_t count, float scale, std::initializer_list<const cl::Buffer*> floats,
               const cl::Buffer& rgba) {
    if (count == 0 || count > std::size_t(INT_MAX))
        throw Error("a matrix picture needs 1 .. " + std::to_string(INT_MAX) + " elements");
    if (!(std::isfinite(scale) && scale > 0))
        throw Error("a matrix picture needs a positive scale, got " + std::to_string(scale));
    for (const cl::Buffer* b : floats)
        if (b->getInfo<CL_MEM_SIZE>() < count * sizeof(float))
            throw Error("a matrix buffer holds fewer than " + std::to_string(count) + " floats");
    if (rgba.getInfo<CL_MEM_SIZE>() < count * 4)
        throw Error("the picture buffer holds fewer than " + std::to_string(count) + " pixels");
}

cl::NDRange roundedUp(std::size_t count) {
    return cl::NDRange((count + kGroup - 1) / kGroup * kGroup);
}

}  // namespace

MatrixImage::MatrixImage(ComputeContext& cc) : cc_(cc) {
    reloadKernels();
}

void MatrixImage::reloadKernels() {
    clBoundary("cannot build the matrix picture kernels", [&] {
        colour_ = cc_.programs().kernel(kFile, "matrix_to_rgba", "");
        error_ = cc_.programs().kernel(kFile, "error_to_rgba", "");
    });
}

cl::Event MatrixImage::colour(const cl::Buffer& matrix, std::size_t count, float scale,
                              const cl::Buffer& rgba) {
    return clBoundary("cannot draw a matrix picture", [&] {
        checkArgs(count, scale, {&matrix}, rgba);
        setArgs(colour_, matrix, int(count), scale, rgba);
        cl::Event e;
        cc_.queue().enqueueNDRangeKernel(colour_, cl::NullRange, roundedUp(count),
                                         cl::NDRange(kGroup), nullptr, &e);
        return e;
    });
}

cl::Event MatrixImage::error(const cl::Buffer& c, const cl::Buffer& reference, std::size_t count,
                             float scale, const cl::Buffer& rgba) {
    return clBoundary("cannot draw the error picture", [&] {
        checkArgs(count, scale, {&c, &reference}, rgba);
        setArgs(error_, c, reference, int(count), scale, rgba);
        cl::Event e;
        cc_.queue().enqueueNDRangeKernel(error_, cl::NullRange, roundedUp(count),
                                         cl::NDRange(kGroup), nullptr, &e);
        return e;
    });
}

}  // namespace clviz
