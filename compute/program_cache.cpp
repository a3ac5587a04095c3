#include "compute/program_cache.hpp"

#include "compute/error.hpp"
#include "compute/kernel_source.hpp"

namespace clviz {

ProgramCache::ProgramCache(cl::Context context, cl::Device device)
    : context_(std::move(context)), device_(std::move(device)) {}

const cl::Program& ProgramCache::get(const std::string& file, const std::string& options) {
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(file, options);
    if (auto it = programs_.find(key); it != programs_.end()) return it->second;

    cl::Program program(context_, kernelSource(file));
    try {
        program.build(std::vector<cl::Device>{device_}, options.c_str());
    } catch (const cl::Error& e) {
        std::string log;
        try {
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
        } catch (const cl::Error&) {
            log = "(no build log available)";
        }
        throw Error("OpenCL build of kernels/" + file + " failed with " + clErrorName(e.err()) +
                    "\n  options: " + (options.empty() ? "(none)" : options) + "\n  build log:\n" +
                    log);
    }
    return programs_.emplace(key, std::move(program)).first->second;
}

cl::Kernel ProgramCache::kernel(const std::string& file, const std::string& name,
                                const std::string& options) {
    const cl::Program& program = get(file, options);
    try {
        return cl::Kernel(program, name.c_str());
    } catch (const cl::Error& e) {
        throw Error(
            describeClError(("no kernel '" + name + "' in kernels/" + file).c_str(), e.err()));
    }
}

std::size_t ProgramCache::size() const {
    std::lock_guard lock(mutex_);
    return programs_.size();
}

}  // namespace clviz
