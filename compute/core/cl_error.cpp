#include "compute/core/cl_error.hpp"

#include "compute/core/cl.hpp"

namespace clviz {

const char* clErrorName(int code) {
    switch (code) {
        // OpenCL 3.0 core (cl.h): 0, -1 .. -19, -30 .. -72.
#define CLVIZ_CASE(x) \
    case x:           \
        return #x;
        CLVIZ_CASE(CL_SUCCESS)
        CLVIZ_CASE(CL_DEVICE_NOT_FOUND)
        CLVIZ_CASE(CL_DEVICE_NOT_AVAILABLE)
        CLVIZ_CASE(CL_COMPILER_NOT_AVAILABLE)
        CLVIZ_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        CLVIZ_CASE(CL_OUT_OF_RESOURCES)
        CLVIZ_CASE(CL_OUT_OF_HOST_MEMORY)
        CLVIZ_CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
        CLVIZ_CASE(CL_MEM_COPY_OVERLAP)
        CLVIZ_CASE(CL_IMAGE_FORMAT_MISMATCH)
        CLVIZ_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        CLVIZ_CASE(CL_BUILD_PROGRAM_FAILURE)
        CLVIZ_CASE(CL_MAP_FAILURE)
        CLVIZ_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        CLVIZ_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        CLVIZ_CASE(CL_COMPILE_PROGRAM_FAILURE)
        CLVIZ_CASE(CL_LINKER_NOT_AVAILABLE)
        CLVIZ_CASE(CL_LINK_PROGRAM_FAILURE)
        CLVIZ_CASE(CL_DEVICE_PARTITION_FAILED)
        CLVIZ_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        CLVIZ_CASE(CL_INVALID_VALUE)
        CLVIZ_CASE(CL_INVALID_DEVICE_TYPE)
        CLVIZ_CASE(CL_INVALID_PLATFORM)
        CLVIZ_CASE(CL_INVALID_DEVICE)
        CLVIZ_CASE(CL_INVALID_CONTEXT)
        CLVIZ_CASE(CL_INVALID_QUEUE_PROPERTIES)
        CLVIZ_CASE(CL_INVALID_COMMAND_QUEUE)
        CLVIZ_CASE(CL_INVALID_HOST_PTR)
        CLVIZ_CASE(CL_INVALID_MEM_OBJECT)
        CLVIZ_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        CLVIZ_CASE(CL_INVALID_IMAGE_SIZE)
        CLVIZ_CASE(CL_INVALID_SAMPLER)
        CLVIZ_CASE(CL_INVALID_BINARY)
        CLVIZ_CASE(CL_INVALID_BUILD_OPTIONS)
        CLVIZ_CASE(CL_INVALID_PROGRAM)
        CLVIZ_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
        CLVIZ_CASE(CL_INVALID_KERNEL_NAME)
        CLVIZ_CASE(CL_INVALID_KERNEL_DEFINITION)
        CLVIZ_CASE(CL_INVALID_KERNEL)
        CLVIZ_CASE(CL_INVALID_ARG_INDEX)
        CLVIZ_CASE(CL_INVALID_ARG_VALUE)
        CLVIZ_CASE(CL_INVALID_ARG_SIZE)
        CLVIZ_CASE(CL_INVALID_KERNEL_ARGS)
        CLVIZ_CASE(CL_INVALID_WORK_DIMENSION)
        CLVIZ_CASE(CL_INVALID_WORK_GROUP_SIZE)
        CLVIZ_CASE(CL_INVALID_WORK_ITEM_SIZE)
        CLVIZ_CASE(CL_INVALID_GLOBAL_OFFSET)
        CLVIZ_CASE(CL_INVALID_EVENT_WAIT_LIST)
        CLVIZ_CASE(CL_INVALID_EVENT)
        CLVIZ_CASE(CL_INVALID_OPERATION)
        CLVIZ_CASE(CL_INVALID_GL_OBJECT)
        CLVIZ_CASE(CL_INVALID_BUFFER_SIZE)
        CLVIZ_CASE(CL_INVALID_MIP_LEVEL)
        CLVIZ_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
        CLVIZ_CASE(CL_INVALID_PROPERTY)
        CLVIZ_CASE(CL_INVALID_IMAGE_DESCRIPTOR)
        CLVIZ_CASE(CL_INVALID_COMPILER_OPTIONS)
        CLVIZ_CASE(CL_INVALID_LINKER_OPTIONS)
        CLVIZ_CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
        CLVIZ_CASE(CL_INVALID_PIPE_SIZE)
        CLVIZ_CASE(CL_INVALID_DEVICE_QUEUE)
        CLVIZ_CASE(CL_INVALID_SPEC_ID)
        CLVIZ_CASE(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef CLVIZ_CASE
        // Extensions (cl_ext.h, cl_gl.h, ...), as numbers: older headers lack some names.
        // cl_khr_gl_sharing
        case -1000:
            return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
        // cl_khr_icd (the ICD loader)
        case -1001:
            return "CL_PLATFORM_NOT_FOUND_KHR";
        // cl_khr_d3d10_sharing, cl_khr_d3d11_sharing, cl_khr_dx9_media_sharing (Windows drivers)
        case -1002:
            return "CL_INVALID_D3D10_DEVICE_KHR";
        case -1003:
            return "CL_INVALID_D3D10_RESOURCE_KHR";
        case -1004:
            return "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR";
        case -1005:
            return "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR";
        case -1006:
            return "CL_INVALID_D3D11_DEVICE_KHR";
        case -1007:
            return "CL_INVALID_D3D11_RESOURCE_KHR";
        case -1008:
            return "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR";
        case -1009:
            return "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR";
        case -1010:
            return "CL_INVALID_DX9_MEDIA_ADAPTER_KHR";
        case -1011:
            return "CL_INVALID_DX9_MEDIA_SURFACE_KHR";
        case -1012:
            return "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR";
        case -1013:
            return "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR";
        // cl_ext_device_fission
        case -1057:
            return "CL_DEVICE_PARTITION_FAILED_EXT";
        case -1058:
            return "CL_INVALID_PARTITION_COUNT_EXT";
        case -1059:
            return "CL_INVALID_PARTITION_NAME_EXT";
        // cl_khr_egl_image, cl_khr_egl_event
        case -1092:
            return "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR";
        case -1093:
            return "CL_INVALID_EGL_OBJECT_KHR";
        // cl_intel_accelerator, cl_intel_va_api_media_sharing
        case -1094:
            return "CL_INVALID_ACCELERATOR_INTEL";
        case -1095:
            return "CL_INVALID_ACCELERATOR_TYPE_INTEL";
        case -1096:
            return "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL";
        case -1097:
            return "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL";
        case -1098:
            return "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL";
        case -1099:
            return "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL";
        case -1100:
            return "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL";
        case -1101:
            return "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL";
        // cl_arm_controlled_kernel_termination
        case -1108:
            return "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM";
        // cl_khr_terminate_context
        case -1121:
            return "CL_CONTEXT_TERMINATED_KHR";
        // cl_khr_command_buffer, cl_khr_command_buffer_mutable_dispatch
        case -1138:
            return "CL_INVALID_COMMAND_BUFFER_KHR";
        case -1139:
            return "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR";
        case -1140:
            return "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR";
        case -1141:
            return "CL_INVALID_MUTABLE_COMMAND_KHR";
        // cl_khr_semaphore, cl_khr_external_semaphore
        case -1142:
            return "CL_INVALID_SEMAPHORE_KHR";
        // NVIDIA's driver, undocumented: a kernel made an out-of-bounds access (the CUDA
        // "illegal address" error); the context is unusable afterwards.
        case -9999:
            return "NVIDIA_ILLEGAL_MEMORY_ACCESS";
        default:
            return "unknown OpenCL error";
    }
}

ClError::ClError(const std::string& what, const std::string& call, int code)
    : Error(describe(what, call, code)), code_(code), call_(call), doing_(what) {}

std::string ClError::describe(const std::string& what, const std::string& call, int code) {
    std::string s = what + ": " + clErrorName(code) + " (" + std::to_string(code) + ")";
    if (!call.empty() && what.find(call) == std::string::npos) s += " in " + call;
    return s;
}

}  // namespace clviz
