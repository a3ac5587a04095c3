#pragma once
// The single place that includes the OpenCL C++ bindings, so every file sees the same settings
// (target 3.0, minimum 1.2, exceptions on; set in compute/CMakeLists.txt).
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#include <CL/opencl.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
