#include "compute/core/inline_ptx.hpp"

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"

namespace clviz {

InlinePtxBuilds::InlinePtxBuilds(ComputeContext& cc)
    : InlinePtxBuilds(cc, cc.info().hasExtension("cl_nv_compiler_options")) {}

InlinePtxBuilds::InlinePtxBuilds(ComputeContext& cc, bool tryInlinePtx)
    : cc_(cc), active_(tryInlinePtx) {}

cl::Kernel InlinePtxBuilds::kernel(const std::string& file, const std::string& name,
                                   const std::string& options) {
    if (active_) {
        try {
            return cc_.programs().kernel(file, name, options + " -D" + kInlinePtxDefine);
        } catch (const Error&) {
            // A portable build that fails too means a broken source (a live edit, say), not a
            // refusal: its error goes to the caller and the PTX builds stay on.
            cl::Kernel portable = cc_.programs().kernel(file, name, options);
            active_ = false;  // this compiler or GPU refuses the PTX: portable from now on
            return portable;
        }
    }
    return cc_.programs().kernel(file, name, options);
}

}  // namespace clviz
